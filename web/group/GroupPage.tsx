import { Link } from 'react-router';
import { Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { PageTitle } from '../components/PageTitle';
import { StatCard } from '../components/StatCard';
import { LoadError } from '../components/LoadError';
import { useCompact } from '../components/useCompact';
import { storePath } from '../../domain/stores';
import { WaitingForStore } from './WaitingForStore';
import type { Answer } from '../../domain/contract/routes';
import { GroupReport } from './GroupReport';

type Glance = Answer<'GET /group'>['stores'][number];

/** The figures of a store's floor, in the order the table and the cards show them. */
const FIGURES: { key: 'inLine' | 'waiting' | 'pending' | 'upsToday'; label: string }[] = [
  { key: 'inLine', label: 'In line' },
  // Leads no one eligible could take yet: the store's Unassigned.
  { key: 'waiting', label: 'Waiting' },
  { key: 'pending', label: 'Accepts pending' },
  { key: 'upsToday', label: "Today's ups" },
];

/** Every store's floor at a glance (kept live by the shell's stream of every store). */
const useGroup = () => useQuery({ queryKey: ['group'], queryFn: () => call('GET /group') });

const StoreLink = ({ g }: { g: Glance }) => (
  <Anchor component={Link} to={storePath(g.store.code, '/dashboard/routing')} fw={600} style={{ overflowWrap: 'anywhere' }}>
    {g.store.name}
  </Anchor>
);

function Cards({ stores }: { stores: Glance[] }) {
  return (
    <Stack gap="sm" component="ul" aria-label="Stores" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {stores.map((g) => (
        <Paper key={g.store.code} component="li" withBorder p="sm" radius="md" data-testid="group-store" data-store={g.store.code}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <StoreLink g={g} />
            <Badge variant="light" style={{ flexShrink: 0 }}>
              {g.store.code}
            </Badge>
          </Group>
          <Text size="sm" mt={4}>
            Next Up: <b data-testid="group-next-up">{g.nextUp?.name ?? '—'}</b>
          </Text>
          <SimpleGrid cols={2} spacing="xs" mt={6}>
            {FIGURES.map((f) => (
              <div key={f.key}>
                <Text size="xs" c="dimmed">
                  {f.label}
                </Text>
                <Text fw={600} data-testid={`group-${f.key}`}>
                  {g[f.key]}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}

function StoresTable({ stores }: { stores: Glance[] }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped verticalSpacing="sm" aria-label="Stores">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Store</Table.Th>
            <Table.Th>Next Up</Table.Th>
            {FIGURES.map((f) => (
              <Table.Th key={f.key} ta="right">
                {f.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {stores.map((g) => (
            <Table.Tr key={g.store.code} data-testid="group-store" data-store={g.store.code}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <StoreLink g={g} />
                  <Badge variant="light" size="sm">
                    {g.store.code}
                  </Badge>
                </Group>
              </Table.Td>
              <Table.Td data-testid="group-next-up">{g.nextUp?.name ?? '—'}</Table.Td>
              {FIGURES.map((f) => (
                <Table.Td key={f.key} ta="right" data-testid={`group-${f.key}`}>
                  {g[f.key]}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A group manager's screen: one row (a card on a phone) per store, and the group's unassigned leads. */
export default function GroupPage() {
  const q = useGroup();
  const compact = useCompact();
  return (
    <Stack>
      <PageTitle>Group</PageTitle>
      {q.isError ? (
        <LoadError what="the group" error={q.error} onRetry={() => q.refetch()} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3 }}>
            <StatCard label="Stores" value={q.data?.stores.length} testId="group-stores" />
            <StatCard label="Unassigned" value={q.data?.unassigned} testId="group-unassigned" hint="Open leads not in any store yet." />
          </SimpleGrid>
          {!q.data ? (
            <Skeleton h={160} aria-hidden />
          ) : !q.data.stores.length ? (
            <Text c="dimmed">No stores yet.</Text>
          ) : compact ? (
            <Cards stores={q.data.stores} />
          ) : (
            <Paper withBorder radius="md" p="xs">
              <StoresTable stores={q.data.stores} />
            </Paper>
          )}
          {q.data && q.data.stores.length > 0 && <GroupReport stores={q.data.stores.map((g) => g.store)} />}
          <WaitingForStore />
        </>
      )}
    </Stack>
  );
}
