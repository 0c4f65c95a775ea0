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

export const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

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
