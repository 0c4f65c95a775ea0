import { Modal, Skeleton, Stack, Text, Timeline } from '@mantine/core';
import { useTimeline, type Lead } from '../../api/leads';
import type { TimelineEntry } from '../../../domain/contract/answers';
import { useWhen } from '../../components/when';

function describe(e: TimelineEntry, when: (iso: string) => string): string {
  switch (e.type) {
    case 'assigned':
      return e.actorName === 'Rotation' ? `Handed to ${e.targetName} by the rotation` : `Assigned to ${e.targetName} by ${e.actorName}`;
    case 'accepted':
      return `Accepted by ${e.actorName}`;
    case 'handed_on':
      return `Taken back from ${e.actorName}: ${e.note}`;
    case 'parked':
      return 'No one accepted it: waiting in Unassigned for a manager';
    case 'contacted':
      return `${e.actorName} contacted the customer (${[e.channel, e.outcome].filter(Boolean).join(', ')})`;
    case 'appointment_set':
      return `${e.actorName} set an appointment${e.appointmentAt ? ` for ${when(e.appointmentAt)}` : ''}`;
    case 'shown':
      return `Shown, marked by ${e.actorName}`;
    case 'no_show':
      return `No-show, marked by ${e.actorName}`;
    case 'sold':
      return `Sold by ${e.actorName}`;
    case 'lost':
      return `Lost (${e.reason}), marked by ${e.actorName}`;
    case 'closed':
      return `Closed by ${e.actorName}`;
    case 'reopened':
      return `Reopened by ${e.actorName}`;
    case 'notice':
      return `${e.note ?? ''} to ${e.targetName ?? ''}`;
  }
}

/** A lead's life so far: each step with who and when. */
export function TimelineDialog({ lead, opened, onClose }: { lead: Lead; opened: boolean; onClose: () => void }) {
  const when = useWhen();
  const q = useTimeline(lead.id, opened);
  return (
    <Modal opened={opened} onClose={onClose} title={`Timeline: ${lead.customer}`} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        {q.isPending ? (
          <Skeleton h={120} />
        ) : q.isError ? (
          <Text c="red">Could not load the timeline: {q.error.message}</Text>
        ) : (
          <Timeline bulletSize={14} lineWidth={2} active={q.data.entries.length} aria-label="Timeline">
            {q.data.entries.map((e, i) => (
              <Timeline.Item key={i} title={describe(e, when)} data-testid="timeline-entry">
                {e.note && e.type !== 'handed_on' && e.type !== 'notice' && (
                  <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
                    {e.note}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {when(e.at)}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Stack>
    </Modal>
  );
}
