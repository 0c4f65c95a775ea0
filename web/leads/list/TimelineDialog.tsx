import { Modal, Skeleton, Stack, Text, Timeline } from '@mantine/core';
import { useTimeline, type Lead } from '../../api/leads';
import type { TimelineEntry } from '../../../domain/contract/answers';
import { useWhen } from '../../components/when';
import { may as offers } from './may';
import { ContactForm } from './ContactForm';

function describe(e: TimelineEntry): string {
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
      return `${e.actorName} contacted the customer (${e.channel})`;
    case 'closed':
      return `Closed by ${e.actorName}`;
    case 'reopened':
      return `Reopened by ${e.actorName}`;
  }
}

/** A lead's life so far, and (for its holder, while it is open) the form that logs a contact. */
export function TimelineDialog({ lead, opened, onClose }: { lead: Lead; opened: boolean; onClose: () => void }) {
  const when = useWhen();
  const q = useTimeline(lead.id, opened);
  const may = offers(lead);
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
              <Timeline.Item key={i} title={describe(e)} data-testid="timeline-entry">
                {e.note && e.type === 'contacted' && (
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
        {may.contact && <ContactForm lead={lead} />}
      </Stack>
    </Modal>
  );
}
