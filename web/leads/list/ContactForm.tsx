import { useState } from 'react';
import { Button, Group, Select, Stack, Textarea } from '@mantine/core';
import { useLogContact, type Lead } from '../../api/leads';
import { contactSchema } from '../../../domain/schemas';
import { CONTACT_CHANNELS } from '../../../domain/speed';

/** The holder logs how he reached the customer; the first contact is the one the KPIs time. */
export function ContactForm({ lead }: { lead: Lead }) {
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
