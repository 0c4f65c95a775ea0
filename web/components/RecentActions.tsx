import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { LogEntry } from '../api/rotation';
import { useWhen } from './when';

type Kind = LogEntry['type'] | 'override';
const COLOR: Record<Kind, string> = { assign: 'blue', skip: 'orange', beback: 'grape', closed: 'gray', reorder: 'teal', override: 'indigo' };
const LABEL: Record<Kind, string> = { assign: 'assign', skip: 'skip', beback: 'be-back', closed: 'closed', reorder: 'reorder', override: 'override' };

/** An assign with a reason is a manager's override: he named the salesman, and said why. */
const kind = (e: LogEntry): Kind => (e.type === 'assign' && e.reason ? 'override' : e.type);

/** What happened, after its badge. */
function what(e: LogEntry) {
  if (e.type === 'closed') return <b>Closed for the day</b>;
  if (e.type === 'reorder') {
    return (
      <>
        <b>{e.targetName}</b> {e.reason}
      </>
    );
  }
  return (
    <>
      <b>{e.targetName}</b> {e.type === 'skip' ? `(${e.reason})` : `→ ${e.customer}${e.reason ? ` (${e.reason})` : ''}`}
    </>
  );
}

/**
 * The latest assigns (overrides too), be-backs, skips, moves in the line and closings; `log`
 * undefined while it loads. With `onNoCustomer` (a manager's Routing screen) each assign not yet
 * marked offers "No customer" (web/grabs/noCustomer.tsx).
 */
export function RecentActions({ log, onNoCustomer }: { log: LogEntry[] | undefined; onNoCustomer?: (e: LogEntry) => void }) {
  const when = useWhen();
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Recent actions
      </Title>
      {!log ? (
        <Stack gap={8} aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={20} />
          ))}
        </Stack>
      ) : log.length === 0 ? (
        <Text c="dimmed">No recent activity.</Text>
      ) : (
        <Stack gap={10} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Recent actions">
          {log.map((e) => (
            <Group key={e.id} component="li" gap="xs" wrap="nowrap" align="flex-start" data-testid="log-entry">
              {/* The badge keeps its whole word: it never shrinks. */}
              <Badge variant="light" color={COLOR[kind(e)]} miw={64} style={{ flexShrink: 0, overflow: 'visible' }}>
                {LABEL[kind(e)]}
              </Badge>
              <div style={{ flex: 1, minWidth: 0 }}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {what(e)}
                </Text>
                <Text size="xs" c="dimmed" data-testid="log-when">
                  {when(e.createdAt)} · by {e.managerName}
                </Text>
                {e.noCustomer && (
                  <Badge variant="light" color="red" size="sm" mt={4}>
                    No customer
                  </Badge>
                )}
              </div>
              {onNoCustomer && e.type === 'assign' && !e.noCustomer && (
                <Button size="compact-xs" variant="subtle" color="red" style={{ flexShrink: 0 }} onClick={() => onNoCustomer(e)}>
                  No customer
                </Button>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
