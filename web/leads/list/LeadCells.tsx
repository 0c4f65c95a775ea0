import { Badge, Stack, Text } from '@mantine/core';
import type { Lead } from '../../api/leads';
import { useWhen } from '../../components/when';

const statusColor = (l: Lead) => (l.closed ? 'gray' : l.status === 'new' ? 'orange' : 'blue');

export function Status({ lead: l }: { lead: Lead }) {
  return (
    <Badge variant="light" color={statusColor(l)} style={{ flexShrink: 0 }}>
      {l.status}
    </Badge>
  );
}

export function FollowUp({ lead: l }: { lead: Lead }) {
  const when = useWhen();
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm">{l.assignedTo ? when(l.followUpDue) : '—'}</Text>
      {l.overdue && (
        <Badge color="red" variant="filled" size="sm">
          Overdue
        </Badge>
      )}
    </Stack>
  );
}

export function Assignee({ lead: l }: { lead: Lead }) {
  return l.assignedTo ? (
    <>{l.assignedToName}</>
  ) : (
    <Badge variant="filled" color="red.9">
      Unassigned
    </Badge>
  );
}
