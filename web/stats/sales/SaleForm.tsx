import { useState, type FormEvent } from 'react';
import { Button, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { commissionFor, formatCents, parseMoneyToCents, planLabel } from '../../../domain/commission';
import { MIN_SALE_DATE, saleDateError } from '../../../domain/schemas';
import { useSaveSale, type SaleDraft } from './api';

/** The commission the server will compute, from the same domain function. */
function preview(frontGross: string, split: SaleDraft['split']): string {
  if (!frontGross.trim()) return 'Enter the front gross to see the commission.';
  const cents = parseMoneyToCents(frontGross);
  if (cents === null) return 'Front gross must be a number like 1500 or 1500.50';
  const { commissionCents, plan } = commissionFor(cents, split);
  return `Commission: ${formatCents(commissionCents)} (${planLabel(plan)})`;
}

/** Add a sale, or correct one when given its id. A failed save keeps what was typed. `today` is the dealership's. */
export function SaleForm({ initial, today, id, onSaved }: { initial: SaleDraft; today: string; id?: number; onSaved?: () => void }) {
  const [d, setD] = useState(initial);
  // The server's own rule, from domain/: a typed date after today or before 2000 says so at once.
  const dateError = d.date ? saleDateError(d.date, today) : null;
  const save = useSaveSale(id);
  const set = (patch: Partial<SaleDraft>) => setD((v) => ({ ...v, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!d.frontGross.trim() || dateError || save.isPending) return;
    save.mutate(d, {
      onSuccess: () => {
        if (!id) setD((v) => ({ ...initial, date: v.date }));
        onSaved?.();
      },
    });
  };
  const name = id ? `edit-${id}` : 'add';
  return (
    <Stack component="form" onSubmit={submit} gap="sm" aria-label={id ? 'Edit sale' : 'Add Sale'}>
      <TextInput
        type="date"
        label="Date"
        required
        min={MIN_SALE_DATE}
        max={today}
        value={d.date}
        error={dateError}
        onChange={(e) => set({ date: e.currentTarget.value })}
      />
      <Radio.Group label="Vehicle type" name={`${name}-vehicle`} value={d.vehicleType} onChange={(v) => set({ vehicleType: v })}>
        <Group gap="lg" mt={4}>
          <Radio value="new" label="New" />
          <Radio value="used" label="Used" />
        </Group>
      </Radio.Group>
      <TextInput
        label="Front gross ($)"
        required
        inputMode="decimal"
        autoComplete="off"
        placeholder="1500.00"
        value={d.frontGross}
        onChange={(e) => set({ frontGross: e.currentTarget.value })}
        maxLength={20}
      />
      <Radio.Group label="Split" name={`${name}-split`} value={d.split} onChange={(v) => set({ split: v })}>
        <Group gap="lg" mt={4}>
          <Radio value="full" label="Full" />
          <Radio value="half" label="50/50" />
        </Group>
      </Radio.Group>
      <Text size="sm" aria-live="polite" data-testid={`${name}-preview`}>
        {preview(d.frontGross, d.split)}
      </Text>
      <Button type="submit" disabled={!d.frontGross.trim() || !!dateError || save.isPending} loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
        {id ? 'Save changes' : 'Add Sale'}
      </Button>
    </Stack>
  );
}
