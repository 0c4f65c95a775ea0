import { useState } from 'react';
import { Button, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { isQuestion } from '../../components/notify';
import { commissionFor, formatCents, parseMoneyToCents, planLabel } from '../../../domain/commission';
import { MIN_SALE_DATE } from '../../../domain/commission';
import { showFieldError, useSchemaForm } from '../../forms/schemaForm';
import { useSaveSale, type SaleDraft } from './api';
import { planOn, type PayPlan } from '../../../domain/payplan';
import { usePayPlans } from '../../api/payplans';

/** The commission the server will compute, from the same domain function, under the store's plan on the sale's date. */
function preview(frontGross: string, split: SaleDraft['split'], payPlan: PayPlan): string {
  if (!frontGross.trim()) return 'Enter the front gross to see the commission.';
  const cents = parseMoneyToCents(frontGross);
  if (cents === null) return 'Front gross must be a number like 1500 or 1500.50';
  const { commissionCents, plan } = commissionFor(cents, split, payPlan);
  return `Commission: ${formatCents(commissionCents)} (${planLabel(plan)})`;
}

/** How a form's sale is saved: the tracker's own save, or a lead's Sold (which stores it with the lead). */
export interface SaveSale {
  mutate: (v: SaleDraft, o: { onSuccess: () => void; onError: (err: Error) => void }) => void;
  isPending: boolean;
}

/** Add a sale, or correct one when given its id. A failed save keeps what was typed. `today` is the dealership's. */
export function SaleForm({
  initial,
  today,
  id,
  onSaved,
  save: given,
  action,
}: {
  initial: SaleDraft;
  today: string;
  id?: number;
  onSaved?: () => void;
  save?: SaveSale;
  action?: string;
}) {
  // The server's own rules, from domain/: a typed date after today or before 2000 says so at once.
  const form = useSchemaForm((c) => c.saleSchemaOn(today), initial, { validateInputOnChange: ['date'] });
  const d = form.getValues();
  const dateError = form.errors.date;
  const own = useSaveSale(id);
  const save = given ?? own;
  const payPlan = planOn(usePayPlans().data?.plans ?? [], d.date);
  // The store's question about a large front gross, under the field until the amount changes or he answers it.
  const [question, setQuestion] = useState<string | null>(null);
  const asking = question !== null && form.errors.frontGross === question;
  const send = (v: SaleDraft) => {
    if (save.isPending) return;
    save.mutate(v, {
      onSuccess: () => {
        if (!id) form.setValues({ ...initial, date: form.getValues().date });
        onSaved?.();
      },
      onError: (err) => {
        setQuestion(isQuestion(err) ? err.message : null);
        showFieldError(form, err);
      },
    });
  };
  const submit = form.onSubmit((v) => send(v));
  const name = id ? `edit-${id}` : 'add';
  return (
    <Stack
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      gap="sm"
      aria-label={id ? 'Edit sale' : 'Add Sale'}
    >
      <TextInput type="date" label="Date" required min={MIN_SALE_DATE} max={today} {...form.getInputProps('date')} />
      {!given && <TextInput label="Customer (optional)" maxLength={200} autoComplete="off" {...form.getInputProps('customer')} />}
      <Radio.Group label="Vehicle type" name={`${name}-vehicle`} {...form.getInputProps('vehicleType')}>
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
        {...form.getInputProps('frontGross')}
        maxLength={20}
      />
      {asking && (
        <Button
          variant="light"
          color="orange"
          onClick={() => send({ ...form.getValues(), sure: true })}
          loading={save.isPending}
          style={{ alignSelf: 'flex-start' }}
        >
          The amount is right: save it
        </Button>
      )}
      <Radio.Group label="Split" name={`${name}-split`} {...form.getInputProps('split')}>
        <Group gap="lg" mt={4}>
          <Radio value="full" label="Full" />
          <Radio value="half" label={payPlan.splitPercent === 50 ? '50/50' : `Split (${payPlan.splitPercent}%)`} />
        </Group>
      </Radio.Group>
      <Text size="sm" aria-live="polite" data-testid={`${name}-preview`}>
        {preview(d.frontGross, d.split, payPlan)}
      </Text>
      <Button type="submit" disabled={!d.frontGross.trim() || !!dateError || save.isPending} loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
        {action ?? (id ? 'Save changes' : 'Add Sale')}
      </Button>
    </Stack>
  );
}
