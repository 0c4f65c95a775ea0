import { ActionIcon, Modal } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import { AvailabilityCard } from './AvailabilityCard';

type Person = { id: string; name: string };

/** A manager opens a person's Availability (own hours, time off) from his row. */
export function AvailabilityButton({ person, onOpen }: { person: Person; onOpen: (p: Person) => void }) {
  return (
    <ActionIcon variant="subtle" size="md" aria-label={`Availability of ${person.name}`} onClick={() => onOpen(person)}>
      <IconCalendarTime size={18} aria-hidden />
    </ActionIcon>
  );
}

/**
 * The person's Availability in a dialog, kept by the whole line rather than his row: a change in
 * it may move his row (out of line, back in), and the dialog must stay open through that.
 */
export function AvailabilityDialog({ person, onClose }: { person: Person | null; onClose: () => void }) {
  return (
    <Modal opened={person !== null} onClose={onClose} title={person?.name} size="lg">
      {person && <AvailabilityCard personId={person.id} self={false} />}
    </Modal>
  );
}
