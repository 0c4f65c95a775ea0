import { useEffect, useRef } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useAcceptLead, useWaitingLeads, type Lead } from '../api/leads';
import { useRotation } from '../api/rotation';
import { useSession } from '../session/SessionProvider';
import { OVERVIEW_LOG_SIZE } from '../../domain/rotation';
import { timeLeft } from '../../domain/speed';
import { heldOutText } from '../../domain/floor';
import { showLeadNotification } from './alerts';
import { useNow } from '../components/useNow';
import { useStore } from '../stores/store';

/** A lead just handed to him in the background tab: the browser says so (with his permission). */
function useAlertsFor(leads: Lead[] | undefined) {
  const { code } = useStore();
  const seen = useRef<Set<number> | null>(null);
  useEffect(() => {
    if (!leads) return;
    const known = seen.current;
    seen.current = new Set(leads.map((l) => l.id));
    // The first answer holds what was there before this screen opened: nothing to announce.
    if (!known) return;
    for (const l of leads) if (!known.has(l.id) && document.hidden) showLeadNotification(l, code);
  }, [leads, code]);
}

function WaitingLead({ lead, now }: { lead: Lead; now: Date }) {
  const accept = useAcceptLead();
  const detail = [lead.vehicle, lead.phone, lead.email].filter(Boolean).join(' · ');
  const due = lead.acceptDue ? new Date(lead.acceptDue) : null;
  const late = !!due && due <= now;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="waiting-lead" style={{ borderColor: 'var(--mantine-color-orange-filled)', borderWidth: 2 }}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Stack gap={2} miw={0} style={{ flex: '1 1 12rem' }}>
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            New lead: {lead.customer}
          </Text>
          {detail && (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {detail}
            </Text>
          )}
          <Text size="sm" fw={500} c={late ? 'red' : undefined} data-testid="accept-time-left" aria-live="off" suppressHydrationWarning>
            {!due
              ? 'Accept it when you take it on.'
              : late
                ? 'Time is up: accept now or it goes to the next salesman.'
                : `${timeLeft(due, now)} left to accept`}
          </Text>
        </Stack>
        <Button color="orange" onClick={() => accept.mutate(lead)} loading={accept.isPending} disabled={accept.isSuccess}>
          Accept
        </Button>
      </Group>
    </Paper>
  );
}

/**
 * At the top of a salesman's screens: where he stands ("You're up next", "On deck") and every
 * lead waiting for his Accept, with the time left. Live: both follow the server's events.
 */
export function UpNow() {
  const { user } = useSession();
  const staff = user?.role === 'staff';
  const waiting = useWaitingLeads(staff);
  const rotation = useRotation(OVERVIEW_LOG_SIZE, staff);
  useAlertsFor(waiting.data);
  const now = useNow(!!waiting.data?.some((l) => l.acceptDue));
  if (!staff) return null;
  const queue = rotation.data?.queue ?? [];
  const standing = queue[0]?.id === user.uid ? "You're up next" : queue[1]?.id === user.uid ? 'On deck' : null;
  const held = rotation.data?.team.find((m) => m.id === user.uid)?.pastDue ?? [];
  if (!standing && !waiting.data?.length && !held.length) return null;
  return (
    <Stack gap="xs" mb="md" aria-label="Your leads now" role="region">
      {standing && (
        <Group>
          <Badge size="lg" color={queue[0]?.id === user.uid ? 'teal' : 'indigo'} variant="filled" data-testid="up-status">
            {standing}
          </Badge>
        </Group>
      )}
      {held.length > 0 && (
        <Alert color="red" title={heldOutText(held.length)} data-testid="my-held-out">
          You get no new leads until you close or contact {held.map((l) => l.customer).join(', ')}.
        </Alert>
      )}
      {waiting.data?.map((l) => (
        <WaitingLead key={l.id} lead={l} now={now} />
      ))}
    </Stack>
  );
}
