import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useSession } from '../session/SessionProvider';
import { useCompact } from '../components/useCompact';
import { useStore } from './store';
import { useStores, type Store } from './api';
import { StoreDialog } from './StoreDialog';

/** Manager → Stores: the group's stores (his own, for a store's manager); a group manager adds and edits them. */
export function StoresSection() {
  const { user } = useSession();
  const here = useStore();
  const q = useStores();
  const compact = useCompact();
  const [dialog, setDialog] = useState<{ store: Store | null } | null>(null);
  const canEdit = !!user?.groupManager;
  const edit = (s: Store) =>
    canEdit && (
      <Button size="xs" variant="light" aria-label={`Edit ${s.name}`} onClick={() => setDialog({ store: s })}>
        Edit
      </Button>
    );
  const current = (s: Store) =>
    s.code === here.code && (
      <Badge size="sm" variant="outline" color="teal">
        This store
      </Badge>
    );

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="stores-title">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="stores-title">
            Stores
          </Title>
          {q.data?.can.add && (
            <Button color="blue.8" onClick={() => setDialog({ store: null })}>
              Add store
            </Button>
          )}
        </Group>
        {q.isPending ? (
          <Skeleton h={60} />
        ) : q.isError ? (
          <Alert color="red">Could not load the stores: {q.error.message}</Alert>
        ) : !q.data.stores.length ? (
          <Text c="dimmed">No stores yet.</Text>
        ) : compact ? (
          <Stack gap="xs" component="ul" aria-label="Stores" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {q.data.stores.map((s) => (
              <Paper key={s.code} component="li" withBorder p="sm" radius="md" data-testid="store-row">
                <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                  <Stack gap={2} miw={0}>
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {s.name}
                    </Text>
                    <Group gap={6}>
                      <Badge variant="light">{s.code}</Badge>
                      {current(s)}
                    </Group>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {s.timezone}
                    </Text>
                  </Stack>
                  {edit(s)}
                </Group>
              </Paper>
            ))}
          </Stack>
        ) : (
          <Table striped verticalSpacing="xs" aria-label="Stores">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Code</Table.Th>
                <Table.Th>Time zone</Table.Th>
                {canEdit && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.stores.map((s) => (
                <Table.Tr key={s.code} data-testid="store-row">
                  <Table.Td>
                    <Group gap={6}>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {s.name}
                      </Text>
                      {current(s)}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light">{s.code}</Badge>
                  </Table.Td>
                  <Table.Td>{s.timezone}</Table.Td>
                  {canEdit && <Table.Td>{edit(s)}</Table.Td>}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <StoreDialog opened={!!dialog} store={dialog?.store ?? null} onClose={() => setDialog(null)} />
    </Paper>
  );
}
