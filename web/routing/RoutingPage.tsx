import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, NumberInput, Paper, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { PageTitle } from '../components/PageTitle';
import { RecentActions } from '../components/RecentActions';
import { LoadError } from '../components/LoadError';
import { notifyFail, notifyOk } from '../components/notify';
import { useRotation, type RotationView } from '../api/rotation';
import { call, newActionId } from '../api/client';
import { useSession } from '../session/SessionProvider';
import { useBuiltAfter } from '../components/AfterDraw';
import { ROUTING_LOG_SIZE, SKIP_WHOM } from '../../domain/rotation';
import { useRulesNow } from '../api/rules';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { Line } from './Line';
import { PendingAccepts, WaitingLeads } from './Pending';
import { useNoCustomer } from '../grabs/noCustomer';
import { ManagerLink } from '../management/ManagerLink';

export default function RoutingPage() {
  const { isManager, user } = useSession();
  const q = useRotation(ROUTING_LOG_SIZE);
  const noCustomer = useNoCustomer();
  const failed = q.isError && <LoadError what="the queue" error={q.error} onRetry={() => q.refetch()} />;
  // The forms and what waits come first; the line and the recent actions under them are built after.
  const below = useBuiltAfter(q.data ?? null);
  if (!isManager) {
    const me = q.data?.queue.find((m) => m.id === user?.uid);
    return (
      <Stack>
        <PageTitle>Round Robin</PageTitle>
        {failed || (
          <>
            <Paper withBorder p="md" radius="md">
              {q.data ? (
                <>
                  <Text size="xl" fw={700} data-testid="my-place">
                    {me ? `You are #${me.place}` : 'You are not in rotation'}
                  </Text>
                  <Text>
                    Next up: <b data-testid="next-up">{q.data.nextUp?.name ?? '—'}</b>
                  </Text>
                </>
              ) : (
                <Skeleton h={52} />
              )}
            </Paper>
            <RecentActions log={q.data?.log} />
          </>
        )}
      </Stack>
    );
  }
  return (
    <Stack>
      <PageTitle>Round Robin (Manager)</PageTitle>
      <Text size="sm" c="dimmed">
        Who gets which leads, teams, weights and caps: <ManagerLink to="routing-rules" />.
      </Text>
      {failed}
      <WaitingLeads team={q.data?.team ?? []} nextUp={q.data?.nextUp?.name} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <AssignForm nextUp={q.data?.nextUp?.name} team={q.data?.team ?? []} />
        <SkipForm team={q.data?.team ?? []} />
      </SimpleGrid>
      {!q.isError && (
        <>
          <PendingAccepts pending={q.data?.pending ?? []} team={q.data?.team ?? []} />
          <Line team={below?.team} />
          <RecentActions log={below?.log} onNoCustomer={noCustomer} />
        </>
      )}
    </Stack>
  );
}

/**
 * One action id per filled form: a double-click or a retry of the same Assign is answered once
 * by the server; the next customer gets a new id.
 */
function useActionId() {
  const [id, setId] = useState(newActionId);
  return [id, () => setId(newActionId())] as const;
}

function AssignForm({ nextUp, team }: { nextUp?: string; team: RotationView['team'] }) {
  const [actionId, renew] = useActionId();
  const form = useSchemaForm((c) => c.assignSchema, { customer: '', askedFor: '' }, { onValuesChange: renew });
  const { customer, askedFor } = form.getValues();
  const m = useMutation({
    mutationFn: (v: { customer: string; askedFor: string }) =>
      call('POST /rotation/assign', { body: { customer: v.customer, askedFor: v.askedFor || undefined, actionId } }),
    onSuccess: (r, v) => {
      notifyOk(`${v.customer} ${v.askedFor ? 'is a be-back for' : 'assigned to'} ${r.assignedTo?.name ?? 'no one'}.`);
      form.reset();
    },
    onError: (err) => showFieldError(form, err) || notifyFail('Failed to assign', err),
  });
  const submit = form.onSubmit((v) => {
    if (!m.isPending) m.mutate({ customer: v.customer.trim(), askedFor: v.askedFor ?? '' });
  });
  return (
    <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} aria-label="Assign next">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Assign next
        </Title>
        <Text size="sm" c="dimmed">
          Next up: {nextUp ?? 'no one eligible'}
        </Text>
        <TextInput label="Customer name" {...form.getInputProps('customer')} maxLength={200} />
        <Select
          label="Customer asks for"
          description="A returning customer (be-back) goes to the salesman he names; no one loses a turn."
          placeholder="No one: the next up"
          clearable
          data={team.filter((t) => t.active).map((t) => ({ value: t.id, label: t.name }))}
          {...form.getInputProps('askedFor')}
          value={askedFor || null}
          onChange={(v: string | null) => form.setFieldValue('askedFor', v ?? '')}
        />
        <Button type="submit" disabled={!customer.trim() || m.isPending} loading={m.isPending} style={{ alignSelf: 'flex-start' }}>
          {askedFor ? 'Assign be-back' : 'Assign next'}
        </Button>
      </Stack>
    </Paper>
  );
}

function SkipForm({ team }: { team: RotationView['team'] }) {
  const [actionId, renew] = useActionId();
  const form = useSchemaForm((c) => c.skipSchema, { targetUid: '', reason: '' }, { onValuesChange: renew });
  // Only someone in the queue can be skipped: the server refuses anyone else.
  const queue = team.filter((t) => t.eligible).sort((a, b) => (a.place ?? 0) - (b.place ?? 0));
  const minutes = useRulesNow().skipSnoozeMinutes;
  const m = useMutation({
    mutationFn: (v: { targetUid: string; reason: string }) =>
      call('POST /rotation/skip', { body: { targetUid: v.targetUid, reason: v.reason.trim(), minutes, actionId } }),
    onSuccess: (_r, v) => {
      notifyOk(`${team.find((t) => t.id === v.targetUid)?.name ?? 'Salesman'} skipped for ${minutes} minutes.`);
      form.reset();
    },
    onError: (err) => showFieldError(form, err) || notifyFail('Failed to skip', err),
  });
  const submit = form.onSubmit((v) => {
    if (m.isPending) return;
    if (!queue.some((t) => t.id === v.targetUid)) return form.setFieldError('targetUid', SKIP_WHOM);
    m.mutate(v);
  });
  return (
    <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} aria-label="Skip">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Skip
        </Title>
        <Select
          label="Salesman to skip"
          placeholder="Select a salesman"
          data={queue.map((t) => ({ value: t.id, label: t.name }))}
          {...form.getInputProps('targetUid')}
          value={form.getValues().targetUid || null}
          onChange={(v: string | null) => form.setFieldValue('targetUid', v ?? '')}
          searchable
        />
        <TextInput label="Reason" {...form.getInputProps('reason')} maxLength={200} />
        <NumberInput
          label="Snooze (minutes)"
          description={
            <>
              Set under <ManagerLink to="rules" />.
            </>
          }
          value={minutes}
          readOnly
        />
        <Button type="submit" color="orange" loading={m.isPending} disabled={m.isPending} style={{ alignSelf: 'flex-start' }}>
          Skip
        </Button>
      </Stack>
    </Paper>
  );
}
