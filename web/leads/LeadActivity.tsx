import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Badge, Button, Group, Modal, Select, Skeleton, Stack, Text, Textarea, Timeline } from '@mantine/core';
import { useAcceptLead, useHandOutLead, useLogContact, useTimeline, type Lead } from '../api/leads';
import { useSession } from '../session/SessionProvider';
import { contactSchema } from '../../domain/schemas';
import { CONTACT_CHANNELS } from '../../domain/speed';
import type { TimelineEntry } from '../../domain/contract/answers';
import { when } from '../components/when';

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

/** The holder logs how he reached the customer; the first contact is the one the KPIs time. */
function ContactForm({ lead }: { lead: Lead }) {
  const [channel, setChannel] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const log = useLogContact(() => {
    setChannel(null);
    setNote('');
  });
  return (
    <form
      aria-label="Log a contact"
      onSubmit={(e) => {
        e.preventDefault();
        const r = contactSchema.safeParse({ channel: channel ?? undefined, note });
        if (!r.success) return setErrors(Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message])));
        setErrors({});
        log.mutate({ id: lead.id, ...r.data });
      }}
    >
      <Stack gap="xs">
        <Select label="How did you reach the customer?" data={[...CONTACT_CHANNELS]} value={channel} onChange={setChannel} error={errors.channel} />
        <Textarea
          label="Note (optional)"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
          error={errors.note}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={log.isPending}>
            Log contact
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LeadTimeline({ lead, opened, onClose }: { lead: Lead; opened: boolean; onClose: () => void }) {
  const { user } = useSession();
  const q = useTimeline(lead.id, opened);
  const holder = !!user && lead.assignedTo === user.uid;
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
        {holder && !lead.closed && <ContactForm lead={lead} />}
      </Stack>
    </Modal>
  );
}

/** Where a lead stands in its first minutes: waiting for an Accept, handed on, or left for a manager. */
export function SpeedBadges({ lead: l }: { lead: Lead }) {
  return (
    <>
      {l.beBack && (
        <Badge size="xs" color="grape" variant="light" data-testid="lead-be-back">
          Be-back
        </Badge>
      )}
      {l.waiting && (
        <Badge size="xs" color="orange" variant="light" data-testid="lead-waiting">
          Waiting for Accept
        </Badge>
      )}
      {l.parked ? (
        <Badge size="xs" color="red" variant="light" data-testid="lead-parked">
          No one accepted
        </Badge>
      ) : (
        l.handoffs > 0 && (
          <Badge size="xs" color="gray" variant="light">
            Handed on ×{l.handoffs}
          </Badge>
        )
      )}
    </>
  );
}

/** Accept (the holder's), Timeline (managers and the holder) and Hand out (a manager's, for a lead in Unassigned). */
export function SpeedActions({ lead: l }: { lead: Lead }) {
  const { user, isManager } = useSession();
  const [params] = useSearchParams();
  // The new-lead mail links to ?lead=<id>: that lead's timeline opens.
  const [open, setOpen] = useState(() => params.get('lead') === String(l.id));
  const accept = useAcceptLead();
  const handOut = useHandOutLead();
  const holder = !!user && l.assignedTo === user.uid;
  return (
    <>
      {holder && l.waiting && (
        <Button size="xs" color="orange" onClick={() => accept.mutate(l.id)} loading={accept.isPending}>
          Accept
        </Button>
      )}
      {isManager && !l.assignedTo && !l.closed && (
        <Button size="xs" variant="light" onClick={() => handOut.mutate(l.id)} loading={handOut.isPending}>
          Hand out
        </Button>
      )}
      {(isManager || holder) && (
        <Button size="xs" variant="subtle" onClick={() => setOpen(true)}>
          Timeline
        </Button>
      )}
      {(isManager || holder) && <LeadTimeline lead={l} opened={open} onClose={() => setOpen(false)} />}
    </>
  );
}
