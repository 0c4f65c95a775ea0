import { z } from 'zod';
import { isValidDayKey } from './time';

/**
 * A store's pay plan: what a sale pays its salesman. Tiers by front gross, lowest first: a sale
 * whose front gross is at least a tier's `fromCents` (and below the next tier's) pays that tier's
 * flat amount (whole dollars: the "mini") or percent of the front gross (whole percent). A front
 * gross of $0 or less pays nothing, whatever the plan (SPEC). A split deal (50/50) pays
 * `splitPercent` of that.
 */
export type PayTier = { fromCents: number; type: 'flat'; flat: number } | { fromCents: number; type: 'percent'; percent: number };
export interface PayPlan {
  tiers: PayTier[];
  /** What a split deal pays, in percent of a full one; 50 is 50/50. */
  splitPercent: number;
}

/** A plan and the day it takes effect on the store's clock: sales dated that day or later are paid by it. */
export interface DatedPlan {
  effectiveFrom: string;
  plan: PayPlan;
}

/** The specification's table: what every store pays until a manager sets a plan. */
export const DEFAULT_PAY_PLAN: PayPlan = {
  tiers: [
    { fromCents: 0, type: 'flat', flat: 75 },
    { fromCents: 1000_00, type: 'flat', flat: 100 },
    { fromCents: 1701_00, type: 'percent', percent: 25 },
    { fromCents: 2000_00, type: 'percent', percent: 30 },
    { fromCents: 3000_00, type: 'percent', percent: 35 },
  ],
  splitPercent: 50,
};

export const MAX_TIERS = 12;
/** The largest front gross a sale may have (a billion dollars), so no tier starts beyond it. */
const MAX_FROM_CENTS = 1e9 * 100;
const MAX_FLAT = 100_000;

const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const tierInput = z.strictObject(
  {
    fromCents: z.number({ error: 'Each tier must start at a front gross in cents' }),
    type: z.enum(['flat', 'percent'], { error: 'Each tier pays a flat amount or a percent' }),
    flat: z.number({ error: 'A flat amount must be a number of dollars' }).optional(),
    percent: z.number({ error: 'A percent must be a number' }).optional(),
  },
  { error: 'Each tier must be an object with fromCents, type and flat or percent' },
);

type TierInput = z.output<typeof tierInput>;

/** The first thing wrong with the tiers, in words a manager reads; null when they make a plan. */
function tiersError(tiers: readonly TierInput[]): { message: string; path: (string | number)[] } | null {
  if (tiers.length === 0) return { message: 'A pay plan needs at least one tier', path: [] };
  if (tiers.length > MAX_TIERS) return { message: `A pay plan has at most ${MAX_TIERS} tiers`, path: [] };
  for (const [i, t] of tiers.entries()) {
    const n = i + 1;
    if (!Number.isSafeInteger(t.fromCents) || t.fromCents < 0 || t.fromCents > MAX_FROM_CENTS)
      return { message: `Tier ${n} must start at whole cents from $0 to ${dollars(MAX_FROM_CENTS)}`, path: [i, 'fromCents'] };
    if (i === 0 && t.fromCents !== 0) return { message: 'The first tier must start at $0', path: [i, 'fromCents'] };
    const prev = tiers[i - 1];
    if (prev && t.fromCents <= prev.fromCents)
      return { message: `Tier ${n} must start above tier ${i} (${dollars(prev.fromCents)}): tiers go up`, path: [i, 'fromCents'] };
    const paid = t.type === 'flat' ? t.flat : t.percent;
    const other = t.type === 'flat' ? t.percent : t.flat;
    if (other !== undefined) return { message: `Tier ${n} pays a flat amount or a percent, not both`, path: [i] };
    if (t.type === 'flat' && (paid === undefined || !Number.isSafeInteger(paid) || paid < 0 || paid > MAX_FLAT))
      return { message: `Tier ${n}'s flat amount must be whole dollars from $0 to $${MAX_FLAT.toLocaleString('en-US')}`, path: [i, 'flat'] };
    if (t.type === 'percent' && (paid === undefined || !Number.isInteger(paid) || paid < 0 || paid > 100))
      return { message: `Tier ${n}'s percent must be a whole number from 0 to 100`, path: [i, 'percent'] };
  }
  return null;
}

const SPLIT_MSG = 'A split deal must pay a whole percent from 1 to 100 of a full one';

const planFields = {
  tiers: z.array(tierInput, { error: 'Tiers must be a list' }).max(100, { error: `A pay plan has at most ${MAX_TIERS} tiers` }),
  splitPercent: z.number({ error: SPLIT_MSG }).int({ error: SPLIT_MSG }).min(1, { error: SPLIT_MSG }).max(100, { error: SPLIT_MSG }),
};

const toPlan = (v: { tiers: TierInput[]; splitPercent: number }): PayPlan => ({
  splitPercent: v.splitPercent,
  tiers: v.tiers.map((t): PayTier =>
    t.type === 'flat' ? { fromCents: t.fromCents, type: 'flat', flat: t.flat ?? 0 } : { fromCents: t.fromCents, type: 'percent', percent: t.percent ?? 0 },
  ),
});

const checkTiers = (v: { tiers: TierInput[] }, ctx: z.RefinementCtx) => {
  const err = tiersError(v.tiers);
  if (err) ctx.addIssue({ code: 'custom', message: err.message, path: ['tiers', ...err.path] });
};

/** A pay plan as stored and as answered. */
export const payPlanSchema = z.strictObject(planFields, { error: 'A pay plan must be an object' }).superRefine(checkTiers).transform(toPlan);

const EFFECTIVE_MSG = 'Effective from must be a date like 2026-07-01';

/** A manager's new plan: its tiers, its split, and the day it takes effect (today or later: the server checks). */
export const payPlanChangeSchema = z
  .strictObject(
    {
      effectiveFrom: z.string({ error: EFFECTIVE_MSG }).refine(isValidDayKey, { error: EFFECTIVE_MSG }),
      ...planFields,
    },
    { error: 'Invalid request body' },
  )
  .superRefine(checkTiers)
  .transform((v) => ({ effectiveFrom: v.effectiveFrom, plan: toPlan(v) }));

/** Why a plan may not take effect on `day` when the store's today is `today`; null when it may. */
export function effectiveFromError(day: string, today: string): string | null {
  if (day < today) return 'Effective from must be today or later: a new plan never changes the commission of sales already made';
  return null;
}

/**
 * The plan a sale dated `day` is paid by: of the plans effective on or before that day, the one
 * with the latest date (of two on one day, the later made: `plans` in the order they were made);
 * the default when none is. A sale dated the day of a change is paid by the new plan.
 */
export function planOn(plans: readonly DatedPlan[], day: string): PayPlan {
  return currentOf(plans, day)?.plan ?? DEFAULT_PAY_PLAN;
}

/** The dated plan in force on `day`, or undefined when none is (the default pays). */
export function currentOf<P extends DatedPlan>(plans: readonly P[], day: string): P | undefined {
  let best: P | undefined;
  for (const p of plans) if (p.effectiveFrom <= day && (!best || p.effectiveFrom >= best.effectiveFrom)) best = p;
  return best;
}

/** The tier a front gross falls in; undefined for $0 or less, which pays nothing. */
export function tierFor(plan: PayPlan, frontGrossCents: number): PayTier | undefined {
  if (frontGrossCents <= 0) return undefined;
  let found: PayTier | undefined;
  for (const t of plan.tiers) if (frontGrossCents >= t.fromCents) found = t;
  return found;
}

/** One tier in words: "Up to $999.99: $75", "$1,701.00 – $1,999.99: 25%", "$3,000.00 and up: 35%". */
export function tierWords(plan: PayPlan, i: number): { range: string; pays: string } {
  const t = plan.tiers[i];
  const next = plan.tiers.at(i + 1);
  const pays = t.type === 'flat' ? `$${t.flat.toLocaleString('en-US')}` : `${t.percent}%`;
  if (!next) return { range: t.fromCents === 0 ? 'Any front gross' : `${dollars(t.fromCents)} and up`, pays };
  return { range: t.fromCents === 0 ? `Up to ${dollars(next.fromCents - 1)}` : `${dollars(t.fromCents)} – ${dollars(next.fromCents - 1)}`, pays };
}

/** A plan as the server answers it: already checked, so its shape only. */
const planShape = z.object({
  tiers: z.array(
    z.discriminatedUnion('type', [
      z.object({ fromCents: z.number().int(), type: z.literal('flat'), flat: z.number().int() }),
      z.object({ fromCents: z.number().int(), type: z.literal('percent'), percent: z.number() }),
    ]),
  ),
  splitPercent: z.number().int(),
});

/** A store's plans: the one paying today's sales (effectiveFrom null: the default, never changed) and the list, latest date first. */
export const payPlansAnswer = z.object({
  today: z.string(),
  current: z.object({ effectiveFrom: z.string().nullable(), plan: planShape }),
  plans: z.array(
    z.object({
      id: z.number().int(),
      effectiveFrom: z.string(),
      plan: planShape,
      createdByName: z.string(),
      createdAt: z.iso.datetime({ offset: true }),
      /** current: pays today's sales; upcoming: from a later day; past: paid sales until a later one took over. */
      state: z.enum(['current', 'upcoming', 'past']),
    }),
  ),
  /** Whether the reader may add a plan (a manager). */
  can: z.object({ change: z.boolean() }),
});
export type PayPlansAnswer = z.infer<typeof payPlansAnswer>;
