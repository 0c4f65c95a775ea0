import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { PageTitle } from '../components/PageTitle';
import { RecentActions } from '../components/RecentActions';
import { LoadError } from '../components/LoadError';
import { useCompact } from '../components/useCompact';
import { formatClock } from '../../domain/format';
import { APP_TIMEZONE } from '../api/meta';
import { notifyFail, notifyOk } from '../components/notify';
import { useRotation, type RotationView } from '../api/rotation';
import { call, newActionId } from '../api/client';
import { useLeads } from '../api/leads';
import { useSession } from '../session/SessionProvider';
import { heldOutText } from '../../domain/floor';
import { ROUTING_LOG_SIZE, SKIP_WHOM } from '../../domain/rotation';
import { useRulesNow } from '../api/rules';
import { assignSchema, skipSchema } from '../../domain/schemas';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';

const clock = (iso: string) => formatClock(new Date(iso), APP_TIMEZONE);

export default function RoutingPage() {
  const { isManager, user } = useSession();
  const q = useRotation(ROUTING_LOG_SIZE);
  const failed = q.isError && <LoadError what="the queue" error={q.error} onRetry={() => q.refetch()} />;
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
      {failed}
      <Waiting />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <AssignForm nextUp={q.data?.nextUp?.name} team={q.data?.team ?? []} />
        <SkipForm team={q.data?.team ?? []} />
      </SimpleGrid>
      {!q.isError && (
        <>
          <TeamTable team={q.data?.team} />
          <RecentActions log={q.data?.log} />
        </>
      )}
    </Stack>
  );
}

/** Leads that came in while no one was eligible; the server hands them out before the next one. */
function Waiting() {
  const q = useLeads({ q: '', open: true, unassigned: true });
  const page = q.data?.pages[0];
  if (!page?.leads.length) return null;
  const n = `${page.leads.length}${page.nextCursor ? '+' : ''}`;
  return (
    <Alert variant="default" title={`${n} unassigned ${page.leads.length === 1 && !page.nextCursor ? 'lead' : 'leads'} waiting`} data-testid="waiting-leads">
      They arrived while no one was eligible. The next Assign, or a salesman coming on duty, hands them out first in rotation order.
    </Alert>
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
  const form = useSchemaForm(assignSchema, { customer: '', askedFor: '' }, { onValuesChange: renew });
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
  const form = useSchemaForm(skipSchema, { targetUid: '', reason: '' }, { onValuesChange: renew });
  // Only someone in the queue can be skipped: the server refuses anyone else.
  const queue = team.filter((t) => t.eligible).sort((a, b) => a.place! - b.place!);
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
        <NumberInput label="Snooze (minutes)" description="Set under Manager → Dealership rules." value={minutes} readOnly />
        <Button type="submit" color="orange" loading={m.isPending} disabled={m.isPending} style={{ alignSelf: 'flex-start' }}>
          Skip
        </Button>
      </Stack>
    </Paper>
  );
}

function TeamTable({ team }: { team: RotationView['team'] | undefined }) {
  const compact = useCompact();
  const qc = useQueryClient();
  const key = ['rotation', ROUTING_LOG_SIZE];
  const status = useMutation({
    mutationFn: (b: { uid: string; active?: boolean; onDuty?: boolean }) => call('POST /rotation/status', { body: b }),
    // The switch moves at once; the server's answer (or its refusal) settles it.
    onMutate: async ({ uid, active, onDuty }) => {
      await qc.cancelQueries({ queryKey: key });
      qc.setQueryData<RotationView>(
        key,
        (v) => v && { ...v, team: v.team.map((t) => (t.id === uid ? { ...t, active: active ?? t.active, onDuty: onDuty ?? t.onDuty } : t)) },
      );
    },
    onError: (err) => notifyFail('Failed to update', err),
    onSettled: () => qc.invalidateQueries({ queryKey: ['rotation'] }),
  });
  // While a change is on its way, the switch shows what was asked, whatever a refetch says meanwhile.
  const shown = (t: RotationView['team'][number], field: 'active' | 'onDuty') => {
    const asked = status.isPending && status.variables?.uid === t.id ? status.variables[field] : undefined;
    return asked ?? t[field];
  };
  const move = useMutation({
    mutationFn: (b: { uid: string; direction: 'up' | 'down' }) => call('POST /rotation/reorder', { body: b }),
    onError: (err) => notifyFail('Failed to reorder', err),
  });
  const activeSwitch = (t: RotationView['team'][number], label?: string) => (
    <Switch
      checked={shown(t, 'active')}
      label={label}
      aria-label={`Active: ${t.name}`}
      onChange={(e) => status.mutate({ uid: t.id, active: e.currentTarget.checked })}
    />
  );
  const dutySwitch = (t: RotationView['team'][number], label?: string) => (
    <Switch
      checked={shown(t, 'onDuty')}
      label={label}
      aria-label={`On duty: ${t.name}`}
      onChange={(e) => status.mutate({ uid: t.id, onDuty: e.currentTarget.checked })}
    />
  );
  const arrows = (t: RotationView['team'][number], i: number, n: number) => (
    <Group gap={4} wrap="nowrap">
      <ActionIcon variant="light" size="lg" disabled={i === 0} aria-label={`Move ${t.name} up`} onClick={() => move.mutate({ uid: t.id, direction: 'up' })}>
        <IconArrowUp size={18} aria-hidden />
      </ActionIcon>
      <ActionIcon
        variant="light"
        size="lg"
        disabled={i === n - 1}
        aria-label={`Move ${t.name} down`}
        onClick={() => move.mutate({ uid: t.id, direction: 'down' })}
      >
        <IconArrowDown size={18} aria-hidden />
      </ActionIcon>
    </Group>
  );
  const name = (t: RotationView['team'][number]) => (
    <Group gap={6} wrap="wrap">
      <Text size="sm" fw={t.place === 1 ? 700 : 500} style={{ overflowWrap: 'anywhere' }}>
        {t.name}
      </Text>
      {t.place === 1 && (
        <Badge color="teal" variant="filled">
          Next Up
        </Badge>
      )}
    </Group>
  );
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Associates
      </Title>
      {!team ? (
        <Stack gap={8} aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={32} />
          ))}
        </Stack>
      ) : team.length === 0 ? (
        <Text c="dimmed">No salesmen yet. Add them under Manager.</Text>
      ) : compact ? (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Associates">
          {team.map((t, i) => (
            <Paper key={t.id} component="li" withBorder p="sm" radius="md" data-testid="team-row" aria-current={t.place === 1 ? 'true' : undefined}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  {name(t)}
                  <div data-testid="place">
                    <Place member={t} />
                  </div>
                </Stack>
                {arrows(t, i, team.length)}
              </Group>
              <Group gap="lg" mt="sm">
                {activeSwitch(t, 'Active')}
                {dutySwitch(t, 'On duty')}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table striped highlightOnHover aria-label="Associates">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>In line</Table.Th>
              <Table.Th>Active</Table.Th>
              <Table.Th>On Duty</Table.Th>
              <Table.Th>Reorder</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {team.map((t, i) => (
              <Table.Tr key={t.id} data-testid="team-row" aria-current={t.place === 1 ? 'true' : undefined}>
                <Table.Td>{name(t)}</Table.Td>
                <Table.Td data-testid="place">
                  <Place member={t} />
                </Table.Td>
                <Table.Td>{activeSwitch(t)}</Table.Td>
                <Table.Td>{dutySwitch(t)}</Table.Td>
                <Table.Td>{arrows(t, i, team.length)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function HeldOut({ leads }: { leads: { customer: string }[] }) {
  return (
    <Badge color="red" variant="light" title={leads.map((l) => l.customer).join(', ')} data-testid="held-out">
      {heldOutText(leads.length)}
    </Badge>
  );
}

/** A place in line counted from Next Up (#1, as the salesman's overview shows it), or why he is not in line. */
function Place({ member: t }: { member: RotationView['team'][number] }) {
  if (t.place) return <Text size="sm">#{t.place}</Text>;
  if (t.pastDue.length && t.onDuty && t.active && !t.snoozeUntil) return <HeldOut leads={t.pastDue} />;
  const [label, color] = t.snoozeUntil ? [`Snoozed until ${clock(t.snoozeUntil)}`, 'orange'] : !t.active ? ['Inactive', 'gray'] : ['Off duty', 'gray'];
  return (
    <Badge color={color} variant="light">
      {label}
    </Badge>
  );
}
