import { Badge, Stack, Text } from '@mantine/core';
import type { MailMessage } from './api';

const STATE: Record<MailMessage['state'], { label: string; color: string }> = {
  received: { label: 'Being read', color: 'gray' },
  taken: { label: 'Taken', color: 'teal' },
  review: { label: 'Review', color: 'orange' },
  dismissed: { label: 'Dismissed', color: 'gray' },
  failed: { label: 'Failed', color: 'red' },
  test: { label: 'Test', color: 'blue' },
};

export function StateBadge({ state }: { state: MailMessage['state'] }) {
  const s = STATE[state];
  return (
    <Badge color={s.color} variant="light" data-testid="mail-state">
      {s.label}
    </Badge>
  );
}

const madeTo = (l: MailMessage['leads'][number]) =>
  l.status === 'assigned' && l.assignedTo
    ? `assigned to ${l.assignedTo}`
    : l.status === 'unassigned'
      ? 'waiting in Unassigned'
      : l.status === 'duplicate'
        ? 'a duplicate of an open lead'
        : `refused${l.error ? `: ${l.error}` : ''}`;

/** "Lead made for {customer}: assigned to {name}", or "… waiting in Unassigned". */
export const leadMadeText = (l: MailMessage['leads'][number]) => `Lead made for ${l.customer}: ${madeTo(l)}`;

/** What became of a mail: its leads and who got them, why it was dismissed (and by whom), why it failed, what a test read. */
export function Outcome({ m }: { m: MailMessage }) {
  const lines =
    m.state === 'dismissed'
      ? [`${m.reason ?? 'No reason given'}${m.handledBy ? ` (dismissed by ${m.handledBy})` : ''}`]
      : m.state === 'failed'
        ? [m.reason ?? 'It could not be read.']
        : m.leads.map((l) => `${l.customer}: ${madeTo(l)}`);
  // A test says what was read in it.
  if (m.state === 'test' && m.reason) lines.push(m.reason);
  if (!lines.length) return null;
  return (
    <Stack gap={0} data-testid="mail-outcome">
      {lines.map((t, i) => (
        <Text key={i} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t}
        </Text>
      ))}
      {m.state === 'taken' && m.handledBy && (
        <Text size="xs" c="dimmed">
          Made by hand by {m.handledBy}
        </Text>
      )}
    </Stack>
  );
}
