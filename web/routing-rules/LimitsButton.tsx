import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Stack } from '@mantine/core';
import { call } from '../api/client';
import { notifyOk } from '../components/notify';
import { MAX_DAILY_CAP, MAX_OPEN_CAP, MAX_WEIGHT } from '../../domain/routing-terms';
import { loadChecks, withChecks } from '../forms/schemaForm';
import { useRoutingChange } from './api';

interface Person {
  id: string;
  name: string;
  weight: number;
  dailyCap: number | null;
  openCap: number | null;
}

/** What his row shows: "Weight 2 · 5 a day · 20 open", or "Weight 1". */
const limitsText = (p: Omit<Person, 'id' | 'name'>) =>
  [`Weight ${p.weight}`, p.dailyCap !== null ? `${p.dailyCap} a day` : '', p.openCap !== null ? `${p.openCap} open` : ''].filter(Boolean).join(' · ');

const num = (v: string | number) => (v === '' ? null : Number(v));

/** A manager sets a salesman's weight (ups per turn of the line) and his caps (ups a day, open leads) from his row. */
export function LimitsButton({ person }: { person: Person }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="compact-xs"
        variant="light"
        color="gray"
        aria-label={`Weight and caps of ${person.name}: ${limitsText(person)}`}
        onClick={() => setOpen(true)}
      >
        {limitsText(person)}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`${person.name}: weight and caps`}>
        {open && <LimitsForm person={person} onDone={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function LimitsForm({ person, onDone }: { person: Person; onDone: () => void }) {
  const [weight, setWeight] = useState<string | number>(person.weight);
  const [daily, setDaily] = useState<string | number>(person.dailyCap ?? '');
  const [openCap, setOpenCap] = useState<string | number>(person.openCap ?? '');
  // The schema's message under the field it is about; nothing is clamped or changed behind the manager's back.
  const [errors, setErrors] = useState<Partial<Record<'weight' | 'dailyCap' | 'openCap', string>>>({});
  const save = useRoutingChange(
    (body: { weight: number; dailyCap: number | null; openCap: number | null }, store) =>
      call('PATCH /routing/people/:id', { params: { id: person.id }, body, store }),
    'Could not save the weight and caps',
    () => {
      notifyOk(`Saved ${person.name}'s weight and caps.`);
      onDone();
    },
  );
  return (
    <form
      onFocus={loadChecks}
      aria-label={`Weight and caps of ${person.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        const body = { weight: Number(weight), dailyCap: num(daily), openCap: num(openCap) };
        withChecks('Could not save the weight and caps', (c) => {
          const r = c.limitsSchema.safeParse(body);
          setErrors(r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0] ?? 'weight'), i.message])));
          if (r.success) save.mutate(body);
        });
      }}
    >
      <Stack gap="sm">
        <NumberInput
          label="Weight"
          description={`Ups per turn of the line, 1 to ${MAX_WEIGHT}: 2 gets two leads for everyone else's one.`}
          min={1}
          max={MAX_WEIGHT}
          allowDecimal={false}
          value={weight}
          clampBehavior="none"
          error={errors.weight}
          onChange={setWeight}
        />
        <NumberInput
          label="Daily cap"
          description={`The most new leads a day, 1 to ${MAX_DAILY_CAP}; empty: no cap.`}
          min={1}
          max={MAX_DAILY_CAP}
          allowDecimal={false}
          value={daily}
          clampBehavior="none"
          error={errors.dailyCap}
          onChange={setDaily}
        />
        <NumberInput
          label="Open-leads cap"
          description={`The most open leads he holds, 1 to ${MAX_OPEN_CAP}; empty: no cap.`}
          min={1}
          max={MAX_OPEN_CAP}
          allowDecimal={false}
          value={openCap}
          clampBehavior="none"
          error={errors.openCap}
          onChange={setOpenCap}
        />
        <Group justify="flex-end">
          <Button type="submit" color="blue.8" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
