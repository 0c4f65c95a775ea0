import { useState } from 'react';
import { Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useLogContact, type Lead } from '../../api/leads';
import { useRulesNow } from '../../api/rules';
import { useTimeZone } from '../../stores/store';
import { CONTACT_CHANNELS } from '../../../domain/speed';
import { checks } from '../../forms/schemaForm';
import { CONTACT_OUTCOMES, localTimeOf } from '../../../domain/stages';

/**
 * The holder logs how he reached the customer and how it went, and picks the next follow-up
 * (the rule's hours from now unless he changes it): the lead is no longer overdue.
 */
export function ContactForm({ lead, onDone }: { lead: Lead; onDone?: () => void }) {
  const tz = useTimeZone();
  const hours = useRulesNow().nextFollowUpHours;
  const [channel, setChannel] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [next, setNext] = useState(() => localTimeOf(new Date(Date.now() + hours * 3_600_000), tz));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const log = useLogContact(() => {
    setChannel(null);
    setOutcome(null);
    setNote('');
    onDone?.();
  });
  const submit = async () => {
    const { contactSchema } = await checks();
    const r = contactSchema.safeParse({ channel: channel ?? undefined, outcome: outcome ?? undefined, note, nextFollowUp: next || undefined });
    if (!r.success) return setErrors(Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message])));
    setErrors({});
    log.mutate({ id: lead.id, ...r.data });
  };
  return (
    <form
      aria-label="Log a contact"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <Select label="How did you reach the customer?" data={[...CONTACT_CHANNELS]} value={channel} onChange={setChannel} error={errors.channel} />
          <Select label="Outcome" placeholder="Optional" data={[...CONTACT_OUTCOMES]} value={outcome} onChange={setOutcome} clearable error={errors.outcome} />
        </SimpleGrid>
        <Textarea
          label="Note (optional)"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
          error={errors.note}
        />
        <TextInput type="datetime-local" label="Next follow-up" value={next} onChange={(e) => setNext(e.currentTarget.value)} error={errors.nextFollowUp} />
        <Group justify="flex-end">
          <Button type="submit" loading={log.isPending}>
            Log contact
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
