import { Badge, Stack, Text } from '@mantine/core';
import type { Lead } from '../../api/leads';
import { useWhen } from '../../components/when';
import { STAGE_LABELS } from '../../../domain/stages';

const STAGE_COLORS: Record<Lead['stage'], string> = {
  new: 'orange',
  waiting: 'orange',
  accepted: 'blue',
  contacted: 'blue',
  appointment: 'cyan',
  shown: 'teal',
  sold: 'green',
  lost: 'gray',
  closed: 'gray',
};

/** Where the lead is in its life, in a plain word ("Waiting for accept", "Appointment set", "Sold"). */
export function Stage({ lead: l }: { lead: Lead }) {
  const when = useWhen();
  return (
    <Stack gap={2} align="flex-start" style={{ flexShrink: 0 }}>
      <Badge variant="light" color={STAGE_COLORS[l.stage]} tt="none" data-testid="lead-stage">
        {STAGE_LABELS[l.stage]}
      </Badge>
      {l.stage === 'appointment' && l.appointmentAt && (
        <Text size="xs" c="dimmed" data-testid="lead-appointment">
          {when(l.appointmentAt)}
        </Text>
      )}
      {l.stage === 'lost' && l.lostReason && (
        <Text size="xs" c="dimmed">
          {l.lostReason}
        </Text>
      )}
    </Stack>
  );
}

export function FollowUp({ lead: l }: { lead: Lead }) {
  const when = useWhen();
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm">{l.assignedTo && !l.closed ? when(l.followUpDue) : '—'}</Text>
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
