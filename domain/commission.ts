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

type Tier = { type: 'flat'; percent: null; flat: number } | { type: 'percent'; percent: number; flat: null };

function tier(frontGrossCents: number): Tier {
  if (frontGrossCents <= 0) return { type: 'flat', percent: null, flat: 0 };
  if (frontGrossCents < 1000_00) return { type: 'flat', percent: null, flat: 75 };
  if (frontGrossCents < 1701_00) return { type: 'flat', percent: null, flat: 100 };
  if (frontGrossCents < 2000_00) return { type: 'percent', percent: 25, flat: null };
  if (frontGrossCents < 3000_00) return { type: 'percent', percent: 30, flat: null };
  return { type: 'percent', percent: 35, flat: null };
}

export function commissionFor(frontGrossCents: number, split: Split): { commissionCents: number; plan: Plan } {
  if (!Number.isSafeInteger(frontGrossCents)) throw new RangeError(`Not whole cents: ${frontGrossCents}`);
  const t = tier(frontGrossCents);
  const halves = split === 'half' ? 1 : 2;
  const commissionCents = t.type === 'flat' ? roundDiv(t.flat * 100 * halves, 2) : roundDiv(frontGrossCents * t.percent * halves, 200);
  return { commissionCents, plan: { ...t, split: split === 'half' ? 0.5 : 1 } };
}

export function planLabel(plan: Plan): string {
  if (plan.type === 'flat' && !plan.flat) return '—';
  const base = plan.type === 'flat' ? `Mini $${plan.flat}` : `${plan.percent}%`;
  return plan.split === 0.5 ? `${base} · 50/50` : base;
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
