import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Group, Loader, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import { useCompact } from '../components/useCompact';
import { useStores } from '../stores/api';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import type { Answer } from '../../domain/contract/routes';

type Mapping = Answer<'GET /group/dealers'>['dealers'][number];

const movedText = (n: number) => (n === 1 ? ' One lead that was waiting went there.' : n > 1 ? ` ${n} leads that were waiting went there.` : '');

/** Maps a dealer to a store (or moves its mapping); the leads waiting under it go there. Shared with the Group screen. */
export function useMapDealer(onDone?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { dealer: string; store: string }) => call('PUT /group/dealers', { body: v }),
    onSuccess: (r, v) => {
      notifyOk(`${v.dealer} now goes to ${v.store}.${movedText(r.moved)}`);
      void qc.invalidateQueries({ queryKey: ['dealers'] });
      void qc.invalidateQueries({ queryKey: ['group'] });
      onDone?.();
    },
  });
}

/** Group intake's dealer mappings: which store a group key's lead goes to, by the dealer it names. */
export function DealerMappings() {
  const qc = useQueryClient();
  const compact = useCompact();
  const stores = useStores();
  const list = useQuery({ queryKey: ['dealers'], queryFn: () => call('GET /group/dealers') });
  const form = useSchemaForm((c) => c.dealerMapSchema, { dealer: '', store: '' });
  const map = useMapDealer(() => form.reset());
  const remove = useMutation({
    mutationFn: (m: Mapping) => call('DELETE /group/dealers/:id', { params: { id: m.id } }),
    onSuccess: (_r, m) => {
      notifyOk(`${m.dealer} is no longer mapped: its leads will wait on the Group screen.`);
      void qc.invalidateQueries({ queryKey: ['dealers'] });
    },
    onError: (err) => notifyFail('Could not remove the mapping', err),
  });
  const options = (stores.data?.stores ?? []).map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }));
  const removeButton = (m: Mapping) => (
    <Button
      size="xs"
      variant="light"
      color="red"
      style={{ flexShrink: 0 }}
      aria-label={`Remove ${m.dealer}`}
      loading={remove.isPending && remove.variables.id === m.id}
      onClick={() => remove.mutate(m)}
    >
      Remove
    </Button>
  );

  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Dealers
      </Title>
      <form
        onSubmit={form.onSubmit((v) =>
          map.mutate(
            { dealer: v.dealer.trim(), store: v.store },
            { onError: (err) => showFieldError(form, err) || notifyFail('Could not map the dealer', err) },
          ),
        )}
      >
        <Group align="flex-end">
          <TextInput
            label="Dealer (name or id)"
            placeholder="e.g. Northside Honda"
            maxLength={200}
            {...form.getInputProps('dealer')}
            style={{ flex: 2, minWidth: 200 }}
          />
          <Select
            label="Store"
            placeholder="Choose a store"
            data={options}
            {...form.getInputProps('store')}
            style={{ flex: 1, minWidth: 180 }}
            allowDeselect={false}
          />
          <Button type="submit" color="blue.8" loading={map.isPending}>
            Map dealer
          </Button>
        </Group>
      </form>
      {list.isPending ? (
        <Loader aria-label="Loading dealers" />
      ) : list.isError ? (
        <Alert color="red">Could not load the dealers: {list.error.message}</Alert>
      ) : !list.data.dealers.length ? (
        <Text c="dimmed">No dealers mapped yet.</Text>
      ) : compact ? (
        <Stack component="ul" gap="xs" aria-label="Dealers" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {list.data.dealers.map((m) => (
            <Paper component="li" key={m.id} withBorder radius="md" p="sm" data-testid="dealer-row">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} miw={0}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {m.dealer}
                  </Text>
                  <Text size="sm" c="dimmed">
                    → {m.store.name} ({m.store.code})
                  </Text>
                </Stack>
                {removeButton(m)}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table striped aria-label="Dealers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Dealer</Table.Th>
              <Table.Th>Store</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.dealers.map((m) => (
              <Table.Tr key={m.id} data-testid="dealer-row">
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.dealer}</Table.Td>
                <Table.Td>
                  {m.store.name} ({m.store.code})
                </Table.Td>
                <Table.Td>{removeButton(m)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
