import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useNow } from '../components/useNow';
import type { RotationView } from '../api/rotation';
import { useHandOut } from '../api/leads';
import { useLeads, type Lead } from '../api/leads';
import { notifyFail } from '../components/notify';
import { timeLeft } from '../../domain/speed';
import { HAND_OUT_WHOM } from '../../domain/rotation';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';

type Team = RotationView['team'];

/**
 * Hands one lead out. A lead in Unassigned goes to Next Up unless the manager names a salesman;
 * a lead waiting for its salesman's Accept goes to the one he names. Naming someone is an
 * override: it asks why, and Recent actions shows who and why.
 */
function HandOutForm({
  lead,
  team,
  nextUp,
  onDone,
}: {
  lead: { id: number; customer: string; holder?: string };
  team: Team;
  nextUp?: string;
  onDone: () => void;
}) {
  const form = useSchemaForm((c) => c.handOutSchema, { to: '', reason: '' });
  const m = useHandOut(onDone);
  const { to } = form.getValues();
  const people = team.filter((t) => t.active && t.id !== lead.holder);
  const submit = form.onSubmit((v) => {
    if (m.isPending) return;
    if (lead.holder && !v.to) return form.setFieldError('to', HAND_OUT_WHOM);
    m.mutate({ id: lead.id, to: v.to, reason: v.reason }, { onError: (err) => showFieldError(form, err) || notifyFail('Could not hand the lead out', err) });
  });
  return (
    <form onSubmit={submit} aria-label={`Hand out ${lead.customer}`}>
      <Stack gap="xs" mt="xs">
        <Select
          label="Salesman"
          placeholder={lead.holder ? 'Choose a salesman' : `Next up: ${nextUp ?? 'no one eligible'}`}
          clearable
          searchable
          data={people.map((t) => ({ value: t.id, label: t.place ? `${t.name} (#${t.place})` : `${t.name} (${t.notInLine ?? 'not in line'})` }))}
          {...form.getInputProps('to')}
          value={to || null}
          onChange={(v: string | null) => {
            form.setFieldValue('to', v ?? '');
            if (!v) form.setFieldValue('reason', '');
          }}
        />
        {to && <TextInput label="Why this salesman" {...form.getInputProps('reason')} maxLength={200} />}
        <Group gap="xs">
          {/* A long name wraps rather than push the form past a phone's edge. */}
          <Button type="submit" size="xs" loading={m.isPending} h="auto" py={6} styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}>
            {to ? `Hand out to ${people.find((t) => t.id === to)?.name ?? 'him'}` : lead.holder ? 'Hand out' : 'Hand out to Next Up'}
          </Button>
          <Button size="xs" variant="subtle" onClick={onDone}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Which lead's hand-out form is open (one at a time). */
function useOpen() {
  const [open, setOpen] = useState<number | null>(null);
  return { open, toggle: (id: number) => setOpen((o) => (o === id ? null : id)), close: () => setOpen(null) };
}

/** Each lead waiting for its salesman's Accept: who sits on it and the time he has left, live. */
export function PendingAccepts({ pending, team }: { pending: RotationView['pending']; team: Team }) {
  const now = useNow(pending.length > 0);
  const { open, toggle, close } = useOpen();
  if (!pending.length) return null;
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Waiting for Accept
      </Title>
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Waiting for Accept">
        {pending.map((p) => (
          <li key={p.leadId} data-testid="pending-row">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                <b>{p.customer}</b> → <span data-testid="pending-salesman">{p.salesman.name}</span>
              </Text>
              <Group gap="xs" wrap="nowrap">
                <TimeLeft until={p.acceptDue} now={now} testId="time-left" />
                <Button size="xs" variant="light" onClick={() => toggle(p.leadId)} aria-expanded={open === p.leadId}>
                  Hand out
                </Button>
              </Group>
            </Group>
            {open === p.leadId && <HandOutForm lead={{ id: p.leadId, customer: p.customer, holder: p.salesman.id }} team={team} onDone={close} />}
          </li>
        ))}
      </Stack>
    </Paper>
  );
}

/** A countdown ("4:12 left", "4:12 left to claim"); a drawn page counted from the server's clock a moment before, so its text may differ. */
function TimeLeft({ until, now, testId, to }: { until: string; now: Date; testId: string; to?: string }) {
  return (
    <Text size="sm" fw={600} c="orange" data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} suppressHydrationWarning>
      {timeLeft(new Date(until), now)} left{to ? ` to ${to}` : ''}
    </Text>
  );
}

/**
 * Leads no one holds: those up for grabs, with the time salesmen have left to claim them; and
 * those that came in while no one was eligible, which the server hands out before the next one.
 * A manager may hand out either here.
 */
export function WaitingLeads({ team, nextUp }: { team: Team; nextUp?: string }) {
  const q = useLeads({ q: '', open: true, unassigned: true });
  const page = q.data?.pages[0];
  const grabbing = (l: { grabUntil: string | null }) => l.grabUntil !== null;
  const now = useNow(!!page?.leads.some(grabbing));
  if (!page?.leads.length) return null;
  const pool = page.leads.filter(grabbing);
  const waiting = page.leads.filter((l) => !grabbing(l));
  const n = `${waiting.length}${page.nextCursor ? '+' : ''}`;
  return (
    <>
      {pool.length > 0 && (
        <Alert variant="default" title={`${pool.length} up for grabs`} data-testid="grab-leads">
          <Text size="sm">A routing rule offered them to salesmen to claim. When the time is up they go on as the rule says.</Text>
          <UnassignedList
            label="Leads up for grabs"
            leads={pool}
            team={team}
            nextUp={nextUp}
            left={(l) => <TimeLeft until={l.grabUntil ?? ''} now={now} testId="grab-time-left" to="claim" />}
          />
        </Alert>
      )}
      {waiting.length > 0 && (
        <Alert variant="default" title={`${n} unassigned ${waiting.length === 1 && !page.nextCursor ? 'lead' : 'leads'} waiting`} data-testid="waiting-leads">
          <Text size="sm">They arrived while no one was eligible. The next Assign, or a salesman coming on duty, hands them out first in rotation order.</Text>
          <UnassignedList label="Unassigned leads" leads={waiting} team={team} nextUp={nextUp} />
        </Alert>
      )}
    </>
  );
}

/** Leads no one holds, ten at most, each with Hand out (and `left`: what time it has). */
function UnassignedList({ label, leads, team, nextUp, left }: { label: string; leads: Lead[]; team: Team; nextUp?: string; left?: (l: Lead) => ReactNode }) {
  const { open, toggle, close } = useOpen();
  return (
    <Stack gap="xs" mt="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={label}>
      {leads.slice(0, 10).map((l) => (
        <li key={l.id} data-testid="unassigned-row">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              {l.customer}
            </Text>
            {left?.(l)}
            <Button size="xs" variant="light" onClick={() => toggle(l.id)} aria-expanded={open === l.id}>
              Hand out
            </Button>
          </Group>
          {open === l.id && <HandOutForm lead={{ id: l.id, customer: l.customer }} team={team} nextUp={nextUp} onDone={close} />}
        </li>
      ))}
    </Stack>
  );
}
