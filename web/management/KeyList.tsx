import { Badge, Button, Code, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { ApiKeyInfo as ApiKey } from '../../domain/contract/answers';
import { useCompact } from '../components/useCompact';
import { useWhen } from '../components/when';

function Status({ k }: { k: ApiKey }) {
  return k.revokedAt ? (
    <Badge color="gray" variant="filled">
      Revoked
    </Badge>
  ) : (
    <Badge color="teal" variant="light">
      Active
    </Badge>
  );
}

/** The integration keys: a table, or cards under 640 px so Revoke is in reach without a sideways swipe. */
export function KeyList({ keys, revoking, onRevoke }: { keys: ApiKey[]; revoking: number | undefined; onRevoke: (k: ApiKey) => void }) {
  const when = useWhen();
  const compact = useCompact();
  const revoke = (k: ApiKey) =>
    !k.revokedAt && (
      <Button size="xs" variant="light" color="red" aria-label={`Revoke ${k.name}`} loading={revoking === k.id} onClick={() => onRevoke(k)}>
        Revoke
      </Button>
    );
  if (compact) {
    return (
      <Stack component="ul" gap="xs" aria-label="API keys" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {keys.map((k) => (
          <Paper component="li" key={k.id} withBorder radius="md" p="sm" data-testid="api-key-row">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                {k.name}
              </Text>
              <Status k={k} />
            </Group>
            <Code>{k.prefix}…</Code>
            <SimpleGrid cols={2} spacing="xs" mt={6}>
              <div>
                <Text size="xs" c="dimmed">
                  Created
                </Text>
                <Text size="sm">{when(k.createdAt)}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Last used
                </Text>
                <Text size="sm" data-testid="key-last-used">
                  {when(k.lastUsedAt, 'Never')}
                </Text>
              </div>
            </SimpleGrid>
            {!k.revokedAt && <div style={{ marginTop: 8 }}>{revoke(k)}</div>}
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped aria-label="API keys">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Key</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((k) => (
            <Table.Tr key={k.id} data-testid="api-key-row">
              <Table.Td>{k.name}</Table.Td>
              <Table.Td>
                <Code>{k.prefix}…</Code>
              </Table.Td>
              <Table.Td>{when(k.createdAt)}</Table.Td>
              <Table.Td data-testid="key-last-used">{when(k.lastUsedAt, 'Never')}</Table.Td>
              <Table.Td>
                <Status k={k} />
              </Table.Td>
              <Table.Td>{revoke(k)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
