import { useState } from 'react';
import { ActionIcon, Modal } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import { AvailabilityCard } from './AvailabilityCard';

/** A manager opens a person's Availability (own hours, time off) from his row. */
export function AvailabilityButton({ person }: { person: { id: string; name: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <ActionIcon variant="subtle" size="md" aria-label={`Availability of ${person.name}`} onClick={() => setOpen(true)}>
        <IconCalendarTime size={18} aria-hidden />
      </ActionIcon>
      <Modal opened={open} onClose={() => setOpen(false)} title={person.name} size="lg">
        {open && <AvailabilityCard personId={person.id} self={false} />}
      </Modal>
    </>
  );
}
