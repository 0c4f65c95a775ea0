import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { LogEntry } from '../api/rotation';

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

const COLOR: Record<LogEntry['type'], string> = { assign: 'blue', skip: 'orange', beback: 'grape' };

export function RecentActions({ log }: { log: LogEntry[] }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Recent actions
      </Title>
      {log.length === 0 ? (
        <Text c="dimmed">No recent activity.</Text>
      ) : (
        <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Recent actions">
          {log.map((e) => (
            <Group key={e.id} component="li" gap="xs" wrap="nowrap" data-testid="log-entry">
              <Badge variant="light" color={COLOR[e.type]} w={64}>
                {e.type === 'beback' ? 'be-back' : e.type}
              </Badge>
              <Text size="sm" style={{ flex: 1, minWidth: 0 }}>
                <b>{e.targetName}</b> {e.type === 'skip' ? `(${e.reason})` : `→ ${e.customer}`}
              </Text>
              <Text size="xs" c="dimmed" title={`by ${e.managerName}`}>
                {time(e.createdAt)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
