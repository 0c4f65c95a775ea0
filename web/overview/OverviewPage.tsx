import { Alert, Badge, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { notifyFail } from '../components/notify';
import { PageTitle } from '../components/PageTitle';
import { StatCard } from '../components/StatCard';
import { RecentActions } from '../components/RecentActions';
import { useRotation } from '../api/rotation';
import { useSession } from '../session/SessionProvider';
import { OVERVIEW_LOG_SIZE } from '../../domain/rotation';

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
  const { user } = useSession();
  const q = useRotation(OVERVIEW_LOG_SIZE);
  const me = q.data?.queue.find((m) => m.id === user?.uid);
  const mine = q.data?.team.find((m) => m.id === user?.uid);

  return (
    <Stack>
      <PageTitle>Round Robin</PageTitle>
      {q.isError && <Alert color="red">Could not load the queue: {q.error.message}</Alert>}
      {mine && <MyDuty onDuty={mine.onDuty} active={mine.active} />}
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <StatCard label="Next Up" value={q.data ? (q.data.nextUp?.name ?? '—') : '…'} testId="next-up" />
        <StatCard label="Queue Size" value={q.data ? String(q.data.queue.length) : '…'} testId="queue-size" />
        <StatCard label="Your Position" value={q.data ? (me ? `#${me.place}` : 'Not in rotation') : '…'} testId="your-position" />
      </SimpleGrid>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          Eligible salesmen
        </Title>
        {q.isPending ? (
          <Skeleton h={80} />
        ) : !q.data?.queue.length ? (
          <Text c="dimmed">No one eligible.</Text>
        ) : (
          <Stack gap={6} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Eligible salesmen">
            {q.data.queue.map((m) => (
              <Group key={m.id} component="li" gap="xs" data-testid="queue-row">
                <Text fw={700} w={32}>
                  #{m.place}
                </Text>
                <Text style={{ flex: 1 }}>{m.name}</Text>
                {m.id === user?.uid && <Badge color="grape">You</Badge>}
                <Badge variant="light" color="teal">
                  On duty
                </Badge>
                <Badge variant="light" color="blue">
                  Active
                </Badge>
              </Group>
            ))}
          </Stack>
        )}
      </Paper>
      {q.data && <RecentActions log={q.data.log} />}
    </Stack>
  );
}
