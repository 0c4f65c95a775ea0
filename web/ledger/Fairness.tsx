import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Badge, Group, Paper, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { call } from '../api/client';
import { LoadError } from '../components/LoadError';
import { StatCard } from '../components/StatCard';
import { useSession } from '../session/SessionProvider';
import { useStore, useTimeZone } from '../stores/store';
import { formatWhen } from '../../domain/format';
import { floorText, PERIOD_NAMES, PERIODS, periodsOf, type Figures, type Period } from '../../domain/ledger';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What does not count as a rotation up, said so: "1 hand-out by a manager, 2 be-backs, 1 “No customer”". */
function apartText(f: Figures): string {
  const parts = [
    f.overrides && plural(f.overrides, 'hand-out by a manager', 'hand-outs by a manager'),
    f.claims && plural(f.claims, 'lead claimed up for grabs', 'leads claimed up for grabs'),
    f.beBacks && plural(f.beBacks, 'be-back'),
    f.noCustomer && `${f.noCustomer} “No customer”`,
  ].filter(Boolean);
  return parts.length ? `Not counted above: ${parts.join(', ')}.` : 'No hand-outs by a manager, be-backs or “No customer” ups.';
}

function PeriodPicker({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  return <SegmentedControl aria-label="Period" value={value} onChange={onChange} data={PERIODS.map((p) => ({ value: p, label: PERIOD_NAMES[p] }))} fullWidth />;
}

/** One salesman's ledger: his ups against the team's average for his hours, and every pass and skip with why and by whom. */
function PersonFairness({ id, period, own }: { id: string; period: Period; own: boolean }) {
  const { code: store } = useStore();
  const tz = useTimeZone();
  const q = useQuery({ queryKey: ['ledger', store, id], queryFn: () => call('GET /ledger/:id', { params: { id }, store }) });
  if (q.isError) return <LoadError what="the fairness ledger" error={q.error} onRetry={() => q.refetch()} />;
  const f = q.data?.periods[period];
  const now = new Date();
  const from = periodsOf(now, tz)[period].from;
  const events = q.data?.events.filter((e) => Date.parse(e.at) >= from) ?? [];
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, xs: 3 }}>
        <StatCard label={own ? 'Your ups' : 'Ups'} value={f?.ups} testId="fairness-ups" />
        <StatCard
          label="Team average"
          value={f?.teamAverage}
          testId="fairness-average"
          hint={own ? 'Per person on the floor, for your hours' : 'Per person on the floor, for his hours'}
        />
        <StatCard label="On the floor" value={f && floorText(f.floorMs)} testId="fairness-hours" />
      </SimpleGrid>
      {f && (
        <Text size="sm" c="dimmed" data-testid="fairness-apart">
          {apartText(f)}
        </Text>
      )}
      <Title order={3} size="h5">
        Passed over and skipped
      </Title>
      {q.isPending ? (
        <Skeleton h={24} />
      ) : !events.length ? (
        <Text c="dimmed">{own ? 'You were not passed over or skipped.' : 'Not passed over or skipped.'}</Text>
      ) : (
        <Stack gap={8} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Passed over and skipped">
          {events.map((e, i) => (
            <Stack key={`${e.at}-${i}`} gap={2} component="li" data-testid="fairness-event">
              <Group gap={6} wrap="wrap">
                <Badge variant="light" color={e.kind === 'skip' ? 'orange' : 'gray'}>
                  {e.kind === 'skip' ? 'Skipped' : 'Passed over'}
                </Badge>
                <Text size="sm" c="dimmed">
                  {formatWhen(e.at, now, tz)}
                </Text>
              </Group>
              <Text style={{ overflowWrap: 'anywhere' }}>{e.text}</Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {e.by}
              </Text>
            </Stack>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The whole team side by side, with each one's hours on the floor (a manager's). */
function TeamFairness({ period, chosen, onChoose }: { period: Period; chosen: string | null; onChoose: (id: string | null) => void }) {
  const { code: store } = useStore();
  const q = useQuery({ queryKey: ['ledger', store, 'team'], queryFn: () => call('GET /ledger', { store }) });
  if (q.isError) return <LoadError what="the team's fairness ledger" error={q.error} onRetry={() => q.refetch()} />;
  if (q.isPending) return <Skeleton h={80} />;
  return (
    <Stack gap="sm">
      <Stack gap={8} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="The team's fairness">
        {q.data.people.map((p) => {
          const f = p.periods[period];
          return (
            <Paper key={p.id} component="li" withBorder p="xs" radius="sm" data-testid="fairness-person">
              <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                {p.name}
              </Text>
              <Group gap="md" wrap="wrap">
                <Text size="sm">On the floor {floorText(f.floorMs)}</Text>
                <Text size="sm">
                  {plural(f.ups, 'up')} (team average {f.teamAverage})
                </Text>
                <Text size="sm">Passed over {f.passes}</Text>
                <Text size="sm">Skipped {f.skips}</Text>
                {f.overrides + f.claims + f.beBacks + f.noCustomer > 0 && (
                  <Text size="sm" c="dimmed">
                    Apart: {f.overrides} hand-out, {f.claims} claimed, {f.beBacks} be-back, {f.noCustomer} no customer
                  </Text>
                )}
              </Group>
            </Paper>
          );
        })}
      </Stack>
      <Select
        label="See one salesman's passes"
        placeholder="Choose a salesman"
        data={q.data.people.map((p) => ({ value: p.id, label: p.name }))}
        value={chosen}
        onChange={onChoose}
        clearable
        searchable
      />
    </Stack>
  );
}

/**
 * The "Fairness" section of the salesman's page: his own ledger, or for a manager the whole
 * team's side by side and anyone's passes.
 */
export function Fairness() {
  const { user, isManager } = useSession();
  const [period, setPeriod] = useState<Period>('today');
  const [chosen, setChosen] = useState<string | null>(null);
  if (!user) return null;
  return (
    <Paper withBorder p="md" radius="md" data-testid="fairness">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Fairness
        </Title>
        <PeriodPicker value={period} onChange={setPeriod} />
        {isManager ? (
          <>
            <TeamFairness period={period} chosen={chosen} onChoose={setChosen} />
            {chosen && <PersonFairness id={chosen} period={period} own={false} />}
          </>
        ) : (
          <PersonFairness id={user.uid} period={period} own />
        )}
      </Stack>
    </Paper>
  );
}
