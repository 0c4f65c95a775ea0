import { roundDiv } from './commission';
import { dayOfYear, daysInMonth, parseDayKey } from './time';

export type SaleRow = { date: string; frontGrossCents: number; commissionCents: number };

type Totals = { units: number; grossCents: number; commissionCents: number };

export type SalesFigures = {
  mtd: Totals;
  ytd: Totals;
  monthProjectionCents: number;
  yearProjectionCents: number;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number) => String(n).padStart(2, '0');

/** Rows dated from `from` up to and including `today`: never a future-dated sale. */
function between(rows: SaleRow[], from: string, today: string): SaleRow[] {
  return rows.filter((r) => r.date >= from && r.date <= today);
}

function totals(rows: SaleRow[]): Totals {
  return rows.reduce(
    (t, r) => ({
      units: t.units + 1,
      grossCents: t.grossCents + r.frontGrossCents,
      commissionCents: t.commissionCents + r.commissionCents,
    }),
    { units: 0, grossCents: 0, commissionCents: 0 },
  );
}

export function salesFigures(rows: SaleRow[], today: string): SalesFigures {
  const { year, month, day } = parseDayKey(today);
  const mtd = totals(between(rows, `${today.slice(0, 8)}01`, today));
  const ytd = totals(between(rows, `${today.slice(0, 5)}01-01`, today));
  return {
    mtd,
    ytd,
    monthProjectionCents: roundDiv(mtd.commissionCents * daysInMonth(year, month), day),
    yearProjectionCents: roundDiv(ytd.commissionCents * 365, dayOfYear(today)),
  };
}

/** One point per day of today's month up to today, commission in dollars. */
export function dailyCommission(rows: SaleRow[], today: string): { day: string; commission: number }[] {
  const prefix = today.slice(0, 8);
  const byDay = new Map<string, number>();
  for (const r of between(rows, `${prefix}01`, today)) {
    byDay.set(r.date, (byDay.get(r.date) ?? 0) + r.commissionCents);
  }
  return Array.from({ length: parseDayKey(today).day }, (_, i) => {
    const day = `${prefix}${pad(i + 1)}`;
    return { day, commission: (byDay.get(day) ?? 0) / 100 };
  });
}

/** One bar per month from January to today's month, front gross in dollars. */
export function monthlyGross(rows: SaleRow[], today: string): { month: string; gross: number }[] {
  const sums = new Array<number>(parseDayKey(today).month).fill(0);
  for (const r of between(rows, `${today.slice(0, 5)}01-01`, today)) {
    sums[parseDayKey(r.date).month - 1] += r.frontGrossCents;
  }
  return sums.map((cents, i) => ({ month: MONTHS[i], gross: cents / 100 }));
}
