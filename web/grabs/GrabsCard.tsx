import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import { useNow } from '../components/useNow';
import { useStore } from '../stores/store';
import { timeLeft } from '../../domain/speed';
import type { GrabLead } from '../../domain/grabs';

/** The store's claim pools as the reader may see them; under the 'leads' key, so every lead event refetches it. */
function useGrabs() {
  const { code: store } = useStore();
  return useQuery({ queryKey: ['leads', store, 'grabs'], queryFn: () => call('GET /grabs', { store }) });
}

function GrabRow({ lead, now }: { lead: GrabLead; now: Date }) {
  const qc = useQueryClient();
  const claim = useMutation({
    mutationFn: () => call('POST /leads/:id/claim', { params: { id: lead.id } }),
    onSuccess: (r) => notifyOk(`${r.customer} is yours.`),
    onError: (err) => notifyFail('Could not claim the lead', err),
    onSettled: () => qc.invalidateQueries({ queryKey: ['leads'] }),
  });
  const until = new Date(lead.until);
  const detail = [lead.vehicle, lead.source, lead.team ? `${lead.team.name} team` : 'Whole floor'].filter(Boolean).join(' · ');
  return (
    <Paper withBorder p="sm" radius="md" component="li" data-testid="grab-lead">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Stack gap={2} miw={0} style={{ flex: '1 1 12rem' }}>
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {lead.customer}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {detail}
          </Text>
          <Text size="sm" aria-live="off" suppressHydrationWarning>
            {until > now ? `${timeLeft(until, now)} left to claim` : 'Moving on…'}
          </Text>
        </Stack>
        {lead.canClaim ? (
          <Button
            color="teal"
            onClick={() => {
              // A double-click claims once: the second press finds it pending.
              if (!claim.isPending && !claim.isSuccess) claim.mutate();
            }}
            loading={claim.isPending}
            disabled={claim.isSuccess}
          >
            Claim
          </Button>
        ) : (
          <Badge variant="light" color="gray">
            Waiting for a claim
          </Badge>
        )}
      </Group>
    </Paper>
  );
}

/** Leads up for grabs: the first of the pool's floor to press Claim gets it. Hidden while no pool has a lead. */
export function GrabsCard() {
  const q = useGrabs();
  const now = useNow(!!q.data?.leads.length);
  if (!q.data?.leads.length) return null;
  return (
    <Paper withBorder p="md" radius="md" role="region" aria-label="Up for grabs">
      <Title order={2} size="h4" mb="xs">
        Up for grabs
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The first to press Claim gets the lead.
      </Text>
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {q.data.leads.map((l) => (
          <GrabRow key={l.id} lead={l} now={now} />
        ))}
      </Stack>
    </Paper>
  );
}
