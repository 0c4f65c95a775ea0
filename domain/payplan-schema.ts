import { z } from 'zod';
import { isValidDayKey } from './time';
import { dollars, MAX_TIERS, type PayPlan, type PayTier } from './payplan';

/**
 * The pay plan's schemas (domain/payplan.ts holds the plan and its rules): apart, so a screen that
 * shows a plan loads no schema code; a form checks with them once fetched (web/forms/checks.ts).
 */

/** The largest front gross a sale may have (a billion dollars), so no tier starts beyond it. */
const MAX_FROM_CENTS = 1e9 * 100;
const MAX_FLAT = 100_000;

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
