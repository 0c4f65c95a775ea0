import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Checkbox, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { call, newActionId } from '../api/client';
import { useRotation } from '../api/rotation';
import { useStore, useTimeZone } from '../stores/store';
import { PageTitle } from '../components/PageTitle';
import { LoadError } from '../components/LoadError';
import { notifyFail, notifyOk } from '../components/notify';
import { useCompact } from '../components/useCompact';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { formatClock, formatDay } from '../../domain/format';
import { STAGE_LABELS } from '../../domain/stages';
import { dayKey, isValidDayKey } from '../../domain/time';
import { type DeskLog, type DeskPatch, type DeskRow } from '../../domain/desk';

/** Under the "leads" key: every change to a lead (the "leads" and "rotation" topics) refetches it. */
const deskKey = (store: string, day: string) => ['leads', 'desk', store, day];

/**
 * The desk log: the desk manager logs each walk-in up (it goes to Next Up, or a be-back to the
 * salesman asked for) and follows the day's ups live: worksheet, T.O. to a manager, time out, and
 * the stage the lead has reached.
 */
export default function DeskPage() {
  const tz = useTimeZone();
  const { code: store } = useStore();
  const today = dayKey(new Date(), tz);
  const [picked, setPicked] = useState(today);
  const day = isValidDayKey(picked) ? picked : today;
  const q = useQuery({ queryKey: deskKey(store, day), queryFn: () => call('GET /desk/log', { query: { day }, store }) });

  return (
    <Stack gap="md">
      <PageTitle>Desk log</PageTitle>
      <LogUpForm />
      <Paper component="section" withBorder p="md" radius="md" aria-labelledby="desk-day-title">
        <Group justify="space-between" align="flex-end" gap="sm" mb="sm">
          <Title order={2} size="h4" id="desk-day-title">
            {day === today ? "Today's ups" : `Ups of ${formatDay(day)}`}
            {q.data ? ` (${q.data.ups.length})` : ''}
          </Title>
          <TextInput type="date" label="Day" value={day} max={today} onChange={(e) => setPicked(e.currentTarget.value || today)} w={170} />
        </Group>
        {q.isError ? (
          <LoadError what="the desk log" error={q.error} onRetry={() => void q.refetch()} />
        ) : !q.data ? (
          <Skeleton h={120} />
        ) : q.data.ups.length === 0 ? (
          <Text c="dimmed">No walk-ins logged {day === today ? 'yet today' : 'that day'}.</Text>
        ) : (
          <Ups log={q.data} />
        )}
      </Paper>
    </Stack>
  );
}

function LogUpForm() {
  const [actionId, setActionId] = useState(newActionId);
  const rotation = useRotation(1);
  const team = rotation.data?.team ?? [];
  const nextUp = rotation.data?.nextUp?.name;
  const qc = useQueryClient();
  const form = useSchemaForm(
    (c) => c.deskUpSchema,
    { customer: '', vehicle: '', tradeIn: false, askedFor: '' },
    { onValuesChange: () => setActionId(newActionId()) },
  );
  const { customer, askedFor } = form.getValues();
  const m = useMutation({
    mutationFn: (v: { customer: string; vehicle: string; tradeIn: boolean; askedFor: string }) =>
      call('POST /desk/ups', {
        body: { customer: v.customer, vehicle: v.vehicle || undefined, tradeIn: v.tradeIn, askedFor: v.askedFor || undefined, actionId },
      }),
    onSuccess: (r) => {
      notifyOk(`${r.customer} ${r.beBack ? 'is a be-back for' : 'is up with'} ${r.salesman?.name ?? 'no one'}.`);
      form.reset();
      void qc.invalidateQueries({ queryKey: ['leads', 'desk'] });
    },
    onError: (err) => showFieldError(form, err) || notifyFail('Could not log the up', err),
  });
  const submit = form.onSubmit((v) => {
    if (!m.isPending) m.mutate({ customer: v.customer.trim(), vehicle: (v.vehicle ?? '').trim(), tradeIn: !!v.tradeIn, askedFor: v.askedFor ?? '' });
  });
  return (
    <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} aria-label="Log an up">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Log an up
        </Title>
        <Text size="sm" c="dimmed">
          Next up: {nextUp ?? 'no one eligible'}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="Customer" {...form.getInputProps('customer')} maxLength={200} />
          <TextInput label="Vehicle of interest" placeholder="e.g. 2025 Tacoma" {...form.getInputProps('vehicle')} maxLength={120} />
          <Select
            label="Be-back: customer asks for"
            placeholder="No one: the next up"
            clearable
            data={team.filter((t) => t.active).map((t) => ({ value: t.id, label: t.name }))}
            {...form.getInputProps('askedFor')}
            value={askedFor || null}
            onChange={(v: string | null) => form.setFieldValue('askedFor', v ?? '')}
          />
          <Checkbox label="Trade-in" mt={{ base: 0, sm: 'xl' }} {...form.getInputProps('tradeIn', { type: 'checkbox' })} />
        </SimpleGrid>
        <Button type="submit" disabled={!customer.trim() || m.isPending} loading={m.isPending} style={{ alignSelf: 'flex-start' }}>
          {askedFor ? 'Log be-back' : 'Log up'}
        </Button>
      </Stack>
    </Paper>
  );
}

/** A write on one up; the answer replaces it in the log at once, the event stream tells the other screens. */
function useChangeUp() {
  const qc = useQueryClient();
  const { code: store } = useStore();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: DeskPatch }) => call('PATCH /desk/ups/:id', { params: { id }, body: change, store }),
    onSuccess: (row) => {
      qc.setQueriesData<DeskLog>({ queryKey: ['leads', 'desk', store] }, (log) => log && { ...log, ups: log.ups.map((u) => (u.id === row.id ? row : u)) });
    },
    onError: (err) => notifyFail('Could not change the up', err),
  });
}

function Ups({ log }: { log: DeskLog }) {
  const compact = useCompact();
  const tz = useTimeZone();
  const change = useChangeUp();
  const managers = log.managers.map((m) => ({ value: m.id, label: m.name }));
  const clock = (iso: string) => formatClock(new Date(iso), tz);
  const busy = (u: DeskRow) => change.isPending && change.variables.id === u.id;
  const set = (u: DeskRow, c: DeskPatch) => change.mutate({ id: u.id, change: c });

  const worksheet = (u: DeskRow) => (
    <Switch
      aria-label={`Worksheet for ${u.customer}`}
      label={compact ? 'Worksheet' : undefined}
      checked={u.worksheet}
      disabled={!u.mine || busy(u)}
      onChange={(e) => set(u, { worksheet: e.currentTarget.checked })}
    />
  );
  const to = (u: DeskRow) => (
    <Select
      aria-label={`T.O. for ${u.customer}`}
      label={compact ? 'T.O.' : undefined}
      placeholder="No T.O."
      clearable
      size="xs"
      w={compact ? '100%' : 160}
      data={u.toManager && !managers.some((m) => m.value === u.toManager?.id) ? [...managers, { value: u.toManager.id, label: u.toManager.name }] : managers}
      value={u.toManager?.id ?? null}
      disabled={!u.mine || busy(u)}
      onChange={(v) => set(u, { toManager: v })}
    />
  );
  const out = (u: DeskRow) =>
    u.timeOut ? (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {clock(u.timeOut)}
      </Text>
    ) : (
      <Button size="compact-sm" variant="light" aria-label={`Out: ${u.customer}`} disabled={!u.mine} loading={busy(u)} onClick={() => set(u, { out: true })}>
        Out
      </Button>
    );
  const stage = (u: DeskRow) => (
    <Badge variant="light" color={u.stage === 'sold' ? 'green' : u.stage === 'lost' ? 'gray' : 'blue'} style={{ flexShrink: 0 }}>
      {STAGE_LABELS[u.stage]}
    </Badge>
  );
  const salesman = (u: DeskRow) => `${u.salesman?.name ?? 'Unassigned'}${u.beBack ? ' (be-back)' : ''}`;

  if (compact)
    return (
      <Stack gap="sm" role="list" aria-label="Ups">
        {log.ups.map((u) => (
          <Paper key={u.id} withBorder p="sm" radius="md" role="listitem" data-up={u.id}>
            <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {u.customer}
                </Text>
                <Text size="sm" c="dimmed">
                  In {clock(u.timeIn)} · {salesman(u)}
                </Text>
              </div>
              {stage(u)}
            </Group>
            <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
              {u.vehicle ?? 'No vehicle named'} · Trade-in: {u.tradeIn ? 'yes' : 'no'}
            </Text>
            <Stack gap="xs" mt="xs">
              {worksheet(u)}
              {to(u)}
              <Group gap="xs">
                <Text size="sm">Time out:</Text>
                {out(u)}
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    );

  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Ups">
        <Table.Thead>
          <Table.Tr>
            {['Time in', 'Salesman', 'Customer', 'Vehicle', 'Trade-in', 'Worksheet', 'T.O.', 'Time out', 'Stage'].map((h) => (
              <Table.Th key={h} style={{ whiteSpace: 'nowrap' }}>
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {log.ups.map((u) => (
            <Table.Tr key={u.id} data-up={u.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{clock(u.timeIn)}</Table.Td>
              <Table.Td>{salesman(u)}</Table.Td>
              <Table.Td>{u.customer}</Table.Td>
              <Table.Td>{u.vehicle ?? '—'}</Table.Td>
              <Table.Td>{u.tradeIn ? 'Yes' : 'No'}</Table.Td>
              <Table.Td>{worksheet(u)}</Table.Td>
              <Table.Td>{to(u)}</Table.Td>
              <Table.Td>{out(u)}</Table.Td>
              <Table.Td>{stage(u)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
