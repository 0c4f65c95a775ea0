import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, NativeSelect, NumberInput, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { formatDay } from '../../domain/format';
import { ApiError } from '../../domain/errors';
import { parseMoneyToCents } from '../../domain/commission';
import { MAX_TIERS, type PayPlan } from '../../domain/payplan';
import type { PayPlansAnswer } from '../../domain/payplan-schema';
import { loadChecks, withChecks } from '../forms/schemaForm';
import { usePayPlans, useSavePayPlan } from '../api/payplans';
import { PlanTiers } from '../stats/sales/PlanCard';
import { useWhen } from '../components/when';

/** A tier as the form holds it: text while typed. */
interface TierDraft {
  from: string;
  type: 'flat' | 'percent';
  value: number | string;
}

const dollarsText = (cents: number) => (cents / 100).toFixed(2);
const toDrafts = (plan: PayPlan): TierDraft[] =>
  plan.tiers.map((t) => ({ from: dollarsText(t.fromCents), type: t.type, value: t.type === 'flat' ? t.flat : t.percent }));

/** What the form sends; text that is no number is sent as such, for the schema to name. */
function toBody(effectiveFrom: string, splitPercent: number | string, tiers: TierDraft[]) {
  return {
    effectiveFrom,
    splitPercent: typeof splitPercent === 'number' ? splitPercent : Number(splitPercent === '' ? NaN : splitPercent),
    tiers: tiers.map((t, i) => {
      const fromCents = i === 0 ? 0 : (parseMoneyToCents(t.from) ?? NaN);
      const value = typeof t.value === 'number' ? t.value : t.value === '' ? undefined : Number(t.value);
      return t.type === 'flat' ? { fromCents, type: 'flat' as const, flat: value } : { fromCents, type: 'percent' as const, percent: value };
    }),
  };
}

/** Where a message shows: under a tier's field ("tiers.1.fromCents"), a tier ("tiers.1"), a field; else above the button ("plan"). */
const fieldOf = (path: readonly PropertyKey[]) => (path.length ? path.slice(0, 3).map(String).join('.') : 'plan');

function PlanForm({ saved }: { saved: PayPlansAnswer }) {
  // Start from the latest plan set (an upcoming one, if any), effective today.
  const base = saved.plans[0]?.plan ?? saved.current.plan;
  const [effectiveFrom, setEffectiveFrom] = useState(saved.today);
  const [split, setSplit] = useState<number | string>(base.splitPercent);
  const [tiers, setTiers] = useState<TierDraft[]>(toDrafts(base));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSavePayPlan();
  const setTier = (i: number, change: Partial<TierDraft>) => setTiers((old) => old.map((t, j) => (j === i ? { ...t, ...change } : t)));

  return (
    <form
      onFocus={loadChecks}
      aria-label="Pay plan"
      onSubmit={(e) => {
        e.preventDefault();
        const unread = tiers.findIndex((t, i) => i > 0 && parseMoneyToCents(t.from) === null);
        if (unread > 0) return setErrors({ [`tiers.${unread}.fromCents`]: `Tier ${unread + 1} must start at an amount like 1500.00` });
        withChecks('Could not save the pay plan', (c) => {
          const r = c.payPlanChangeSchema.safeParse(toBody(effectiveFrom, split, tiers));
          if (!r.success) return setErrors({ [fieldOf(r.error.issues[0].path)]: r.error.issues[0].message });
          setErrors({});
          save.mutate(r.data, { onError: (err) => err instanceof ApiError && setErrors({ [err.field ?? 'plan']: err.message }) });
        });
      }}
    >
      <Stack gap="sm">
        <TextInput
          type="date"
          label="Effective from"
          description="Sales dated this day or later are paid by this plan. Sales already saved keep their commission."
          required
          min={saved.today}
          value={effectiveFrom}
          onChange={(e) => setEffectiveFrom(e.currentTarget.value)}
          error={errors.effectiveFrom}
          maw={360}
        />
        <Text size="sm" fw={600} mt="xs">
          Tiers by front gross
        </Text>
        {tiers.map((t, i) => (
          <Paper key={i} withBorder radius="sm" p="xs" maw={480}>
            <Group gap="xs" align="flex-start" wrap="wrap" role="group" aria-label={`Tier ${i + 1}`} data-testid="tier">
              <TextInput
                label={`Tier ${i + 1} from ($)`}
                value={i === 0 ? '0.00' : t.from}
                disabled={i === 0}
                inputMode="decimal"
                autoComplete="off"
                onChange={(e) => setTier(i, { from: e.currentTarget.value })}
                error={errors[`tiers.${i}.fromCents`]}
                w={130}
              />
              <NativeSelect
                label="Pays"
                data={[
                  { value: 'flat', label: 'Flat $' },
                  { value: 'percent', label: '% of gross' },
                ]}
                value={t.type}
                onChange={(e) => setTier(i, { type: e.currentTarget.value === 'percent' ? 'percent' : 'flat' })}
                w={120}
              />
              <NumberInput
                label={t.type === 'flat' ? 'Amount ($)' : 'Percent'}
                value={t.value}
                onChange={(v) => setTier(i, { value: v })}
                min={0}
                max={t.type === 'flat' ? 100_000 : 100}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                error={errors[`tiers.${i}.${t.type}`] ?? errors[`tiers.${i}`]}
                w={100}
              />
              {i > 0 && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={25}
                  size="lg"
                  aria-label={`Remove tier ${i + 1}`}
                  onClick={() => setTiers((old) => old.filter((_, j) => j !== i))}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              )}
            </Group>
          </Paper>
        ))}
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={tiers.length >= MAX_TIERS}
            onClick={() => setTiers((old) => [...old, { from: '', type: 'percent', value: '' }])}
          >
            Add tier
          </Button>
        </Group>
        <NumberInput
          label="Split deal pays (%)"
          description="What a 50/50 deal pays, in percent of a full one."
          value={split}
          onChange={setSplit}
          min={1}
          max={100}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          error={errors.splitPercent}
          maw={360}
        />
        {(errors.tiers ?? errors.plan) && (
          <Alert color="red" p="xs">
            {errors.tiers ?? errors.plan}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending} color="blue.8">
            Save pay plan
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const STATE = {
  current: { label: 'Paying now', color: 'green' },
  upcoming: { label: 'Upcoming', color: 'grape' },
  past: { label: 'Past', color: 'gray' },
} as const;

/** Manager → Pay plan: what the store's sales pay, from which day; a new plan from today or a later day. */
export function PayPlanSection() {
  const q = usePayPlans();
  const when = useWhen();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="pay-plan-section">
      <Title order={2} size="h4" mb="sm" id="pay-plan-section">
        Pay plan
      </Title>
      {q.isPending ? (
        <Skeleton h={90} />
      ) : q.isError ? (
        <Alert color="red">Could not load the pay plan: {q.error.message}</Alert>
      ) : (
        <Stack>
          <div>
            <Text size="sm" fw={600}>
              Paying now {q.data.current.effectiveFrom ? `(since ${formatDay(q.data.current.effectiveFrom)})` : '(the standard plan)'}
            </Text>
            <PlanTiers plan={q.data.current.plan} label="Plan paying now" />
          </div>
          {q.data.can.change && <PlanForm key={JSON.stringify(q.data.plans[0] ?? null)} saved={q.data} />}
          {q.data.plans.length > 0 && (
            <Stack gap={4} aria-label="Plans set">
              <Text size="sm" fw={600}>
                Plans set
              </Text>
              {q.data.plans.map((p) => (
                <Group key={p.id} gap="xs" wrap="wrap" data-testid="plan-set">
                  <Badge variant="light" color={STATE[p.state].color}>
                    {STATE[p.state].label}
                  </Badge>
                  <Text size="sm">From {formatDay(p.effectiveFrom)}</Text>
                  <Text size="xs" c="dimmed">
                    set {when(p.createdAt)} by {p.createdByName}
                  </Text>
                </Group>
              ))}
            </Stack>
          )}
        </Stack>
      )}
    </Paper>
  );
}
