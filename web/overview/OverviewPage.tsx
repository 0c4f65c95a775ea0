import { Badge, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { notifyFail } from '../components/notify';
import { PageTitle } from '../components/PageTitle';
import { StatCard } from '../components/StatCard';
import { RecentActions } from '../components/RecentActions';
import { LoadError } from '../components/LoadError';
import { useRotation } from '../api/rotation';
import { useSession } from '../session/SessionProvider';
import { OVERVIEW_LOG_SIZE } from '../../domain/rotation';
import { formatClock } from '../../domain/format';
import { useTimeZone } from '../stores/store';
import { FloorHours } from './FloorHours';
import { GrabsCard } from '../grabs/GrabsCard';
import { useBuiltAfter } from '../components/AfterDraw';

/** A salesman clocks in and out of the rotation themselves, like a showroom up-board. */
function MyDuty({ onDuty, active }: { onDuty: boolean; active: boolean }) {
  const qc = useQueryClient();
  const set = useMutation({
    mutationFn: (on: boolean) => call('POST /rotation/duty', { body: { onDuty: on } }),
    onError: (err) => notifyFail('Could not change your status', err),
    onSettled: () => qc.invalidateQueries({ queryKey: ['rotation'] }),
  });
  const value = set.isPending ? set.variables : onDuty;
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" wrap="wrap">
        <Text fw={600} id="my-duty-label">
          My status
        </Text>
        <SegmentedControl
          aria-labelledby="my-duty-label"
          value={value ? 'on' : 'off'}
          onChange={(v) => set.mutate(v === 'on')}
          disabled={set.isPending}
          color={value ? 'teal' : 'gray'}
          data={[
            { value: 'on', label: "I'm on the floor" },
            { value: 'off', label: 'Off duty' },
          ]}
        />
      </Group>
      {!active && (
        <Text size="sm" c="dimmed" mt="xs">
          You are inactive: a manager must activate you before you get leads.
        </Text>
      )}
    </Paper>
  );
}

export default function OverviewPage() {
  const { user, isManager } = useSession();
  const q = useRotation(OVERVIEW_LOG_SIZE);
  // Where the line stands comes first; the line itself and the recent actions are built after it.
  const line = useBuiltAfter(q.data ?? null);
  const tz = useTimeZone();
  const me = q.data?.queue.find((m) => m.id === user?.uid);
  const mine = q.data?.team.find((m) => m.id === user?.uid);
  const nextUp = q.data ? (q.data.nextUp?.name ?? '—') : undefined;
  const queueSize = q.data ? String(q.data.queue.length) : undefined;
  const position = q.data ? (me ? `#${me.place}` : 'Not in rotation') : undefined;
  // Why he is not in line, or how close he is.
  const why = !q.data
    ? undefined
    : me
      ? me.place === 1
        ? 'You are next up.'
        : `${me.place - 1} ahead of you.`
      : mine?.snoozeUntil && new Date(mine.snoozeUntil) > new Date()
        ? `Skipped until ${formatClock(new Date(mine.snoozeUntil), tz)}.`
        : mine && !mine.active
          ? 'A manager must activate you.'
          : mine && !mine.onDuty
            ? 'Clock in below to join the line.'
            : undefined;

  return (
    <Stack>
      <PageTitle>Round Robin</PageTitle>
      <FloorHours />
      {q.isError ? (
        <LoadError what="the queue" error={q.error} onRetry={() => q.refetch()} />
      ) : isManager ? (
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <StatCard label="Next Up" value={nextUp} testId="next-up" big />
          <StatCard label="Queue Size" value={queueSize} testId="queue-size" />
          <StatCard label="Your Position" value={position} testId="your-position" />
        </SimpleGrid>
      ) : (
        <>
          {/* A salesman on the floor wants one thing first: where he is in line. */}
          <StatCard label="Your Position" value={position} testId="your-position" hint={why} big />
          <SimpleGrid cols={2}>
            <StatCard label="Next Up" value={nextUp} testId="next-up" />
            <StatCard label="Queue Size" value={queueSize} testId="queue-size" />
          </SimpleGrid>
        </>
      )}
      {mine && <MyDuty onDuty={mine.onDuty} active={mine.active} />}
      <GrabsCard />
      {!q.isError && (
        <>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              Eligible salesmen
            </Title>
            {!line ? (
              <Stack gap={8} aria-hidden>
                {[0, 1, 2].map((i) => (
                  <Skeleton key={i} h={24} />
                ))}
              </Stack>
            ) : !line.queue.length ? (
              <Text c="dimmed">No one eligible.</Text>
            ) : (
              <Stack gap={8} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Eligible salesmen">
                {line.queue.map((m) => (
                  <Group key={m.id} component="li" gap="xs" wrap="nowrap" align="flex-start" data-testid="queue-row">
                    <Text fw={700} w={36} style={{ flexShrink: 0 }}>
                      #{m.place}
                    </Text>
                    <Group gap={6} style={{ flex: 1, minWidth: 0 }} wrap="wrap">
                      <Text fw={m.id === user?.uid ? 700 : undefined} style={{ overflowWrap: 'anywhere', marginRight: 'auto' }}>
                        {m.name}
                      </Text>
                      <Group gap={6} wrap="nowrap">
                        {m.id === user?.uid && <Badge color="grape">You</Badge>}
                        <Badge variant="light" color="teal">
                          On duty
                        </Badge>
                        <Badge variant="light" color="blue">
                          Active
                        </Badge>
                      </Group>
                    </Group>
                  </Group>
                ))}
              </Stack>
            )}
          </Paper>
          {/* Shown with the queue rather than as a placeholder: the list above grows to its real length first, and would push it down. */}
          {line && <RecentActions log={line.log} />}
        </>
      )}
    </Stack>
  );
}
