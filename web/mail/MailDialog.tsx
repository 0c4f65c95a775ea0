import { useState } from 'react';
import { Alert, Box, Button, Group, List, Loader, Modal, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { formatDateTime } from '../../domain/format';
import { notifyFail, notifyOk } from '../components/notify';
import { useCompact } from '../components/useCompact';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { useTimeZone } from '../stores/store';
import { useDismissMail, useMail, useMakeLead, type MailMessage, type OpenedMail } from './api';
import { leadMadeText, Outcome, StateBadge } from './Outcome';

const blank = (s: string) => s.trim() || undefined;

function MakeLead({ mail, onDone, onDismiss }: { mail: OpenedMail; onDone: () => void; onDismiss: () => void }) {
  const form = useSchemaForm((c) => c.mailLeadSchema, { ...mail.prefill });
  const make = useMakeLead({
    onSuccess: (r, v) => {
      const lead = r.message.leads[0];
      notifyOk(lead ? leadMadeText(lead) : `Lead made for ${v.customer}.`);
      onDone();
    },
    onError: (err) => showFieldError(form, err) || notifyFail('Could not make the lead', err),
  });
  const submit = form.onSubmit((v) =>
    make.mutate({
      id: mail.id,
      customer: v.customer.trim(),
      phone: blank(v.phone),
      email: blank(v.email),
      vehicle: blank(v.vehicle),
      comments: blank(v.comments),
    }),
  );
  return (
    <form onSubmit={submit} aria-labelledby="make-lead-title">
      <Stack gap="xs">
        <Title order={3} size="h5" id="make-lead-title">
          Make a lead from this mail
        </Title>
        <TextInput label="Customer" required maxLength={200} {...form.getInputProps('customer')} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <TextInput label="Phone" type="tel" maxLength={40} {...form.getInputProps('phone')} />
          <TextInput label="E-mail" type="email" maxLength={200} {...form.getInputProps('email')} />
        </SimpleGrid>
        <TextInput label="Vehicle" maxLength={200} {...form.getInputProps('vehicle')} />
        <Textarea label="Comments" autosize minRows={2} maxRows={6} maxLength={5000} {...form.getInputProps('comments')} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onDismiss}>
            Dismiss
          </Button>
          <Button type="submit" color="blue.8" loading={make.isPending} disabled={!form.getValues().customer.trim()}>
            Make a lead
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Dismiss({ mail, onDone, onBack }: { mail: OpenedMail; onDone: () => void; onBack: () => void }) {
  const form = useSchemaForm((c) => c.dismissMailSchema, { reason: '' });
  const dismiss = useDismissMail({
    onSuccess: () => {
      notifyOk('Mail dismissed.');
      onDone();
    },
    onError: (err) => showFieldError(form, err) || notifyFail('Could not dismiss the mail', err),
  });
  const submit = form.onSubmit((v) => dismiss.mutate({ id: mail.id, reason: v.reason.trim() }));
  return (
    <form onSubmit={submit} aria-labelledby="dismiss-title">
      <Stack gap="xs">
        <Title order={3} size="h5" id="dismiss-title">
          Dismiss this mail
        </Title>
        <Textarea
          label="Reason"
          description="Why no lead comes of it, e.g. spam or a reply about an earlier lead."
          required
          autosize
          minRows={2}
          maxLength={500}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onBack}>
            Back
          </Button>
          <Button type="submit" color="red" loading={dismiss.isPending} disabled={!form.getValues().reason.trim()}>
            Dismiss mail
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Body({ mail, onClose }: { mail: OpenedMail; onClose: () => void }) {
  const tz = useTimeZone();
  const [dismissing, setDismissing] = useState(false);
  const from = mail.fromName && mail.fromName !== mail.from ? `${mail.fromName} <${mail.from}>` : mail.from;
  return (
    <Stack>
      <Stack gap={2}>
        <Group gap="xs" wrap="wrap">
          <StateBadge state={mail.state} />
          <Text size="sm" c="dimmed">
            {formatDateTime(mail.receivedAt, tz)}
          </Text>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <b>From:</b> {from || 'unknown sender'}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <b>To:</b> {mail.address}
        </Text>
      </Stack>
      {mail.problems.length > 0 ? (
        <Alert color="orange" title="Why no lead was taken" data-testid="mail-problems">
          <List size="sm" spacing={2}>
            {mail.problems.map((p, i) => (
              <List.Item key={i} style={{ overflowWrap: 'anywhere' }}>
                {p}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : (
        mail.state === 'review' && (
          <Alert color="orange" title="Why no lead was taken" data-testid="mail-problems">
            <Text size="sm">This mail holds no ADF lead: a person wrote it, or its sender sends leads in a form the portal does not read.</Text>
          </Alert>
        )
      )}
      <Box
        component="pre"
        tabIndex={0}
        aria-label="The mail's text"
        data-testid="mail-text"
        p="sm"
        bd="1px solid var(--mantine-color-default-border)"
        bg="var(--mantine-color-default-hover)"
        style={{
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          maxHeight: '40vh',
          overflowY: 'auto',
          margin: 0,
          fontSize: 'var(--mantine-font-size-sm)',
          borderRadius: 'var(--mantine-radius-sm)',
        }}
      >
        {mail.text || '(This mail has no text.)'}
      </Box>
      {mail.state !== 'review' ? (
        <Outcome m={mail} />
      ) : dismissing ? (
        <Dismiss mail={mail} onDone={onClose} onBack={() => setDismissing(false)} />
      ) : (
        <MakeLead mail={mail} onDone={onClose} onDismiss={() => setDismissing(true)} />
      )}
    </Stack>
  );
}

/** One mail opened: its text, why nothing was taken, and (while it waits) Make a lead or Dismiss. Full screen on a phone. */
export function MailDialog({ mail, opened, onClose }: { mail: MailMessage | null; opened: boolean; onClose: () => void }) {
  const compact = useCompact();
  const q = useMail(mail?.id ?? null);
  return (
    <Modal
      opened={opened && !!mail}
      onClose={onClose}
      title={mail?.subject || '(no subject)'}
      size="lg"
      fullScreen={compact}
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { overflowWrap: 'anywhere', fontWeight: 600 } }}
    >
      {q.isPending ? (
        <Loader aria-label="Loading the mail" />
      ) : q.isError ? (
        <Alert color="red" title="Could not open the mail">
          {q.error.message}
        </Alert>
      ) : (
        <Body key={q.data.id} mail={q.data} onClose={onClose} />
      )}
    </Modal>
  );
}
