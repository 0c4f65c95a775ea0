import { useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useLeadStep, useSellLead, type Lead } from '../../api/leads';
import { notifyOk } from '../../components/notify';
import { useRulesNow } from '../../api/rules';
import { useTimeZone } from '../../stores/store';
import { ContactForm } from './ContactForm';
import { ReachLinks } from './LeadDetails';
import { SaleForm } from '../../stats/sales/SaleForm';
import { dayKey } from '../../../domain/time';
import { localTimeOf } from '../../../domain/stages';

type Props = { lead: Lead; opened: boolean; onClose: () => void };

/** Logging a contact, with the ways to reach the customer and what he asked about at hand. */
export function ContactDialog({ lead, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Log contact: ${lead.customer}`} closeButtonProps={{ 'aria-label': 'Close' }}>
      {(lead.phone || lead.email || lead.vehicle) && (
        <Stack gap={2} mb="sm">
          <ReachLinks lead={lead} />
          {lead.vehicle && (
            <Text size="xs" c="dimmed">
              {lead.vehicle}
            </Text>
          )}
        </Stack>
      )}
      <ContactForm lead={lead} onDone={onClose} />
    </Modal>
  );
}

/** An appointment on the dealership's clock; a new one moves it. */
export function AppointmentDialog({ lead, opened, onClose }: Props) {
  const tz = useTimeZone();
  const [at, setAt] = useState(() => (lead.appointmentAt ? localTimeOf(new Date(lead.appointmentAt), tz) : ''));
  const [error, setError] = useState<string | undefined>();
  const step = useLeadStep(onClose);
  return (
    <Modal opened={opened} onClose={onClose} title={`Appointment: ${lead.customer}`} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!at) return setError('Choose the day and time');
          step.mutate({ id: lead.id, step: 'appointment', body: { at } }, { onError: (err) => setError(err.message) });
        }}
      >
        <Stack>
          <TextInput
            type="datetime-local"
            label="Day and time"
            required
            value={at}
            onChange={(e) => setAt(e.currentTarget.value)}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button type="submit" loading={step.isPending}>
              Set appointment
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Close asks Sold or Lost: Sold is the sale form filled from the lead; Lost asks why. */
export function CloseDialog({ lead, opened, onClose }: Props) {
  const [outcome, setOutcome] = useState<'sold' | 'lost'>(lead.can.sell ? 'sold' : 'lost');
  return (
    <Modal opened={opened} onClose={onClose} title={`Mark Closed: ${lead.customer}`} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        {lead.can.sell && lead.can.lose && (
          <SegmentedControl
            aria-label="Outcome"
            value={outcome}
            onChange={(v) => setOutcome(v === 'sold' ? 'sold' : 'lost')}
            data={[
              { value: 'sold', label: 'Sold' },
              { value: 'lost', label: 'Lost' },
            ]}
          />
        )}
        {outcome === 'sold' ? <SoldForm lead={lead} onDone={onClose} /> : <LostForm lead={lead} onDone={onClose} />}
      </Stack>
    </Modal>
  );
}

function SoldForm({ lead, onDone }: { lead: Lead; onDone: () => void }) {
  const tz = useTimeZone();
  const today = dayKey(new Date(), tz);
  // One action per dialog: a double-click or a retry sells once.
  const [actionId] = useState(() => crypto.randomUUID());
  const sell = useSellLead(lead.id, actionId);
  return (
    <Stack gap="xs">
      <Text size="sm">
        Customer: <b>{lead.customer}</b>
        {lead.vehicle && <> · {lead.vehicle}</>}
      </Text>
      <SaleForm initial={{ date: today, vehicleType: 'new', frontGross: '', split: 'full' }} today={today} save={sell} action="Save sale" onSaved={onDone} />
    </Stack>
  );
}

function LostForm({ lead, onDone }: { lead: Lead; onDone: () => void }) {
  const reasons = useRulesNow().lostReasons;
  const [reason, setReason] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const reopen = useLeadStep();
  // Said, with an Undo for whoever may reopen it (the salesman who lost it, a manager).
  const step = useLeadStep((lost) => {
    onDone();
    notifyOk(`${lost.customer} is lost (${lost.lostReason}).`, lost.can.reopen ? () => reopen.mutate({ id: lost.id, step: 'reopen' }) : undefined);
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!reason) return setError('Choose why the lead was lost');
        step.mutate({ id: lead.id, step: 'lost', body: { reason, note: note.trim() || undefined } }, { onError: (err) => setError(err.message) });
      }}
    >
      <Stack gap="xs">
        <Select label="Why was it lost?" placeholder="Choose a reason" data={reasons} value={reason} onChange={setReason} error={error} required />
        <Textarea label="Note (optional)" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={500} autosize minRows={2} />
        <Group justify="flex-end">
          <Button type="submit" color="red" loading={step.isPending}>
            Mark lost
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
