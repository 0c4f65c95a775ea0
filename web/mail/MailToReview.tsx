import { useState } from 'react';
import { Alert, Button, Group, Loader, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { LoadError } from '../components/LoadError';
import { useWhen } from '../components/when';
import { useLeadAddresses, useMailList, type MailMessage, type MailShow } from './api';
import { ManagerLink } from '../management/ManagerLink';
import { Outcome, StateBadge } from './Outcome';
import { MailDialog } from './MailDialog';

function MailRow({ m, all, onOpen }: { m: MailMessage; all: boolean; onOpen: () => void }) {
  const when = useWhen();
  const subject = m.subject || '(no subject)';
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid="mail-row">
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {subject}
          </Text>
          {all && <StateBadge state={m.state} />}
        </Group>
        <Group justify="space-between" align="flex-end" gap="xs" wrap="wrap">
          <Stack gap={4} style={{ flex: '1 1 260px', minWidth: 0 }}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              From {m.from || 'an unknown sender'}
            </Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {when(m.receivedAt)} · to {m.address}
            </Text>
            {all && <Outcome m={m} />}
          </Stack>
          <Button
            size="xs"
            ml="auto"
            // A shade on a light button colours its text and background alike: the shade is for the filled one only.
            variant={m.state === 'review' ? 'filled' : 'light'}
            color={m.state === 'review' ? 'blue.8' : 'blue'}
            onClick={onOpen}
            aria-label={`Open the mail "${subject}"`}
          >
            {m.state === 'review' ? 'Review' : 'Open'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Leads → Mail to review (managers): mail that made no lead, to make one by hand or dismiss; or every mail of 30 days and what became of it. */
export function MailToReview() {
  const [show, setShow] = useState<MailShow>('review');
  const [open, setOpen] = useState<MailMessage | null>(null);
  // The mail stays while the dialog fades out.
  const [opened, setOpened] = useState(false);
  const q = useMailList(show);
  const intake = useLeadAddresses();
  const all = show === 'all';
  return (
    <Stack gap="sm">
      {intake.data && !intake.data.receiver && !intake.data.imap && (
        <Alert color="yellow" data-testid="mail-intake-off">
          Mail intake is off: no lead mail reaches the portal until it is set up (<ManagerLink to="integrations" />
          ).
        </Alert>
      )}
      <SegmentedControl
        aria-label="Which mail"
        value={show}
        onChange={setShow}
        data={[
          { value: 'review', label: 'To review' },
          { value: 'all', label: 'All mail (30 days)' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <Text size="sm" c="dimmed">
        {all
          ? 'Every lead mail of the last 30 days, newest first, with what became of it.'
          : 'Mail to your lead addresses with no lead the portal could read in it. Make a lead from it, or dismiss it.'}
      </Text>
      {q.isError && !q.data ? (
        <LoadError what="the mail" error={q.error} onRetry={() => q.refetch()} />
      ) : q.isPending ? (
        <Loader aria-label="Loading the mail" />
      ) : !q.data.messages.length ? (
        <Text c="dimmed">{all ? 'No lead mail in the last 30 days.' : 'No mail waiting for review.'}</Text>
      ) : (
        <Stack component="ul" gap="xs" aria-label={all ? 'All mail' : 'Mail to review'} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {q.data.messages.map((m) => (
            <MailRow
              key={m.id}
              m={m}
              all={all}
              onOpen={() => {
                setOpen(m);
                setOpened(true);
              }}
            />
          ))}
        </Stack>
      )}
      <MailDialog mail={open} opened={opened} onClose={() => setOpened(false)} />
    </Stack>
  );
}
