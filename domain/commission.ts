import { tierFor, type PayPlan } from './payplan';

/** The earliest day a sale may be dated. */
export const MIN_SALE_DATE = '2000-01-01';

export type Split = 'full' | 'half';

export type Plan = {
  type: 'flat' | 'percent';
  percent: number | null;
  flat: number | null;
  split: number;
};

const MAX_CENTS = 1e9 * 100;

/** num / den rounded to an integer, halves away from zero, exact for safe integers. */
export function roundDiv(num: number, den: number): number {
  const r = num % den;
  const q = (num - r) / den;
  if (2 * Math.abs(r) >= Math.abs(den)) return q + Math.sign(num) * Math.sign(den);
  return q + 0;
}

/**
 * A sale's commission under `plan` (domain/payplan.ts): its tier's flat amount or percent of the
 * front gross, times the split (a split deal pays the plan's split percent), rounded to the cent,
 * halves away from zero, exactly. With the specification's table (DEFAULT_PAY_PLAN) it pays what
 * the table says. The plan answered is the tier applied, as a sale stores it.
 */
export function commissionFor(frontGrossCents: number, split: Split, payPlan: PayPlan): { commissionCents: number; plan: Plan } {
  if (!Number.isSafeInteger(frontGrossCents)) throw new RangeError(`Not whole cents: ${frontGrossCents}`);
  const share = split === 'half' ? payPlan.splitPercent : 100;
  const splitOf = share / 100;
  const t = tierFor(payPlan, frontGrossCents);
  if (!t) return { commissionCents: 0, plan: { type: 'flat', percent: null, flat: 0, split: splitOf } };
  // flat dollars x 100 cents x share / 100; gross cents x percent / 100 x share / 100
  const commissionCents = t.type === 'flat' ? roundDiv(t.flat * 100 * share, 100) : roundDiv(frontGrossCents * t.percent * share, 10000);
  const plan: Plan =
    t.type === 'flat' ? { type: 'flat', percent: null, flat: t.flat, split: splitOf } : { type: 'percent', percent: t.percent, flat: null, split: splitOf };
  return { commissionCents, plan };
}

export function planLabel(plan: Plan): string {
  if (plan.type === 'flat' && !plan.flat) return '—';
  const base = plan.type === 'flat' ? `Mini $${plan.flat}` : `${plan.percent}%`;
  if (plan.split === 1) return base;
  return plan.split === 0.5 ? `${base} · 50/50` : `${base} · split ${Math.round(plan.split * 100)}%`;
}

const MONEY = /^(-)?\$?(-)?((?:\d{1,3}(?:,\d{3})+)|\d*)(?:\.(\d{0,2}))?$/;

/** Accepts "1,234.56", "$1234.5", "-500", 1234.56; null for anything else or over a billion dollars. */
export function parseMoneyToCents(input: string | number): number | null {
  if (typeof input === 'number' && !Number.isFinite(input)) return null;
  const text = String(input).trim();
  const match = MONEY.exec(text);
  if (!match) return null;
  const [, sign1, sign2, whole, frac] = match;
  if (sign1 && sign2) return null;
  const digits = whole.replaceAll(',', '');
  if (!digits && !frac) return null;
  const dollars = Number(digits || '0');
  if (dollars > 1e9) return null;
  const cents = dollars * 100 + Number((frac ?? '').padEnd(2, '0'));
  if (cents > MAX_CENTS) return null;
  return sign1 || sign2 ? -cents + 0 : cents;
}

export function formatCents(cents: number): string {
  const abs = Math.abs(Math.round(cents));
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = String(abs % 100).padStart(2, '0');
  return `${cents < 0 && abs > 0 ? '-' : ''}$${dollars}.${rest}`;
}
