import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import { LoadError } from '../components/LoadError';
import { useWhen } from '../components/when';
import { useStores } from '../stores/api';
import { useMapDealer } from '../management/DealerMappings';
import type { Answer } from '../../domain/contract/routes';

type Waiting = Answer<'GET /group/waiting'>['leads'][number];

/** One lead waiting for a store: choose the store, and with the box ticked every lead of its dealer goes there from now on. */
function WaitingLead({ lead, stores }: { lead: Waiting; stores: { value: string; label: string }[] }) {
  const qc = useQueryClient();
  const when = useWhen();
  const [store, setStore] = useState<string | null>(null);
  const [always, setAlways] = useState(false);
  const send = useMutation({
    mutationFn: (code: string) => call('POST /group/waiting/:id/store', { params: { id: lead.id }, body: { code } }),
    onSuccess: (_r, code) => {
      notifyOk(`${lead.customer} went to ${code}.`);
      void qc.invalidateQueries({ queryKey: ['group'] });
    },
    onError: (err) => notifyFail(`Could not send ${lead.customer} to the store`, err),
  });
  const map = useMapDealer();
  const go = () => {
    if (!store) return;
    if (always && lead.mapAs) map.mutate({ dealer: lead.mapAs, store }, { onError: (err) => notifyFail('Could not map the dealer', err) });
    else send.mutate(store);
  };
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid="waiting-lead">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {lead.customer}
          </Text>
          <Text size="sm" c="dimmed">
            Came in {when(lead.receivedAt)}
          </Text>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Dealer: <b data-testid="waiting-dealer">{lead.dealer || 'not named'}</b>
          {lead.vehicle && ` · ${lead.vehicle}`} · {lead.source}
        </Text>
        <Group align="flex-end" gap="xs" wrap="wrap">
          <Select
            aria-label={`Store for ${lead.customer}`}
            placeholder="Choose a store"
            data={stores}
            value={store}
            onChange={setStore}
            allowDeselect={false}
            style={{ flex: 1, minWidth: 180 }}
          />
          <Button color="blue.8" disabled={!store} loading={send.isPending || map.isPending} onClick={go}>
            Send to store
          </Button>
        </Group>
        {lead.mapAs && (
          <Checkbox
            size="sm"
            checked={always}
            onChange={(e) => setAlways(e.currentTarget.checked)}
            label={`Send every lead of ${lead.mapAs} to this store from now on`}
          />
        )}
      </Stack>
    </Paper>
  );
}

/** The group's Unassigned: leads of a group key whose dealer no mapping claims, oldest first. */
export function WaitingForStore() {
  const q = useQuery({ queryKey: ['group', 'waiting'], queryFn: () => call('GET /group/waiting') });
  const stores = useStores();
  const options = (stores.data?.stores ?? []).map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }));
  if (q.isError) return <LoadError what="the leads waiting for a store" error={q.error} onRetry={() => q.refetch()} />;
  if (!q.data?.leads.length) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="waiting-title">
      <Title order={2} size="h4" id="waiting-title">
        Waiting for a store
      </Title>
      <Text size="sm" c="dimmed">
        No dealer mapping claims these leads. Send each to its store, or map its dealer under Manager → Integrations.
      </Text>
      <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {q.data.leads.map((l) => (
          <WaitingLead key={l.id} lead={l} stores={options} />
        ))}
      </Stack>
    </Stack>
  );
}
