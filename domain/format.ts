import { DEFAULT_NAME } from './roles';
import { dayKey, parseDayKey, wall, weekdayOf, zoneName } from './time';
import type { SaleRow } from './figures';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-11-20" → "Nov 20, 2026": how every table writes a date. */
export function formatDay(key: string): string {
  const { year, month, day } = parseDayKey(key);
  if (!year || !month || !day) return key;
  return `${MONTHS[month - 1]} ${day}, ${year}`;
}

/** "2026-11-28" → "Nov 28": a day of this season, month and day only. */
export function formatMonthDay(key: string): string {
  const { month, day } = parseDayKey(key);
  return month && day ? `${MONTHS[month - 1]} ${day}` : key;
}

/** "2:44 PM" for 14:44 (plain spaces, whatever the ICU version). */
export const clockText = (hour: number, minute: number) => `${hour % 12 || 12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;

/** "2:44 PM" on the zone's clock. */
export function formatClock(d: Date, tz: string): string {
  const { hour, minute } = wall(d, tz);
  return clockText(hour, minute);
}

const dayNumber = (key: string) => {
  const { year, month, day } = parseDayKey(key);
  return Date.UTC(year, month - 1, day) / 86_400_000;
};

/**
 * An instant as a person on the floor reads it, in the dealership's zone: "Today 2:44 PM",
 * "Yesterday 11:57 PM", "Tomorrow 9:00 AM", "Nov 19, 3:10 PM", or with the year when it is not
 * this year's: "Dec 31, 2025, 8:05 AM".
 */
export function formatWhen(at: Date | string, now: Date, tz: string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(d.getTime())) return '—';
  const key = dayKey(d, tz);
  const today = dayKey(now, tz);
  const clock = formatClock(d, tz);
  const diff = dayNumber(key) - dayNumber(today);
  if (diff === 0) return `Today ${clock}`;
  if (diff === -1) return `Yesterday ${clock}`;
  if (diff === 1) return `Tomorrow ${clock}`;
  const { year, month, day } = parseDayKey(key);
  return year === parseDayKey(today).year ? `${MONTHS[month - 1]} ${day}, ${clock}` : `${MONTHS[month - 1]} ${day}, ${year}, ${clock}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * An instant in full, in the dealership's zone and naming it: "Wed, Nov 25, 3:10 PM EST". For a
 * mail, read on any device on any day, where "Today" would be wrong by the time it is read.
 */
export function formatDateTime(at: Date | string, tz: string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(d.getTime())) return '—';
  const key = dayKey(d, tz);
  const { month, day } = parseDayKey(key);
  return `${WEEKDAYS[weekdayOf(key)]}, ${MONTHS[month - 1]} ${day}, ${formatClock(d, tz)} ${zoneName(d, tz)}`;
}

/** The name to greet someone by: his own, never the default "User"; else his address's local part. */
export function displayName(name: string | null | undefined, email: string | null | undefined): string {
  const n = (name ?? '').trim();
  if (n && n !== DEFAULT_NAME) return n;
  return (email ?? '').split('@')[0] ?? '';
}

/** Whether someone still carries the default name and should be asked for his own. */
export const hasDefaultName = (name: string | null | undefined) => !(name ?? '').trim() || (name ?? '').trim() === DEFAULT_NAME;

/** Up to two initials for an avatar: "Diane Foster" → "DF", "marcus.reed@x" → "MR". */
export function initials(name: string | null | undefined, email: string | null | undefined): string {
  const words = displayName(name, email)
    .split(/[\s._-]+/)
    .filter((w) => /\p{L}|\p{N}/u.test(w));
  const letters = (words.length > 1 ? [words[0], words[words.length - 1]] : words.slice(0, 1)).map((w) => [...w.replace(/[^\p{L}\p{N}]/gu, '')][0] ?? '');
  return letters.join('').toUpperCase() || '?';
}

export type Totals = { units: number; grossCents: number; commissionCents: number };

const sum = (rows: SaleRow[], from: string, to: string): Totals =>
  rows
    .filter((r) => r.date >= from && r.date <= to)
    .reduce((t, r) => ({ units: t.units + 1, grossCents: t.grossCents + r.frontGrossCents, commissionCents: t.commissionCents + r.commissionCents }), {
      units: 0,
      grossCents: 0,
      commissionCents: 0,
    });

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The same stretch a period earlier, for the stat cards: month to date against the first `day`
 * days of last month (its last day when it is shorter), year to date against last year up to the
 * same date (Feb 28 for a Feb 29).
 */
export function samePeriodBefore(rows: SaleRow[], today: string): { lastMonth: Totals; lastYear: Totals } {
  const { year, month, day } = parseDayKey(today);
  const [py, pm] = month === 1 ? [year - 1, 12] : [year, month - 1];
  const lastMonthEnd = `${py}-${pad(pm)}-${pad(Math.min(day, lastDay(py, pm)))}`;
  const lastYearEnd = `${year - 1}-${pad(month)}-${pad(Math.min(day, lastDay(year - 1, month)))}`;
  return {
    lastMonth: sum(rows, `${py}-${pad(pm)}-01`, lastMonthEnd),
    lastYear: sum(rows, `${year - 1}-01-01`, lastYearEnd),
  };
}

/** A figure against the one before: "+12%", "−5%", "same", or "new" when there was nothing before. */
export function change(now: number, before: number): { text: string; direction: 'up' | 'down' | 'flat' } {
  if (now === before) return { text: 'same', direction: 'flat' };
  if (before === 0) return { text: 'new', direction: now > 0 ? 'up' : 'down' };
  const pct = Math.round(((now - before) / Math.abs(before)) * 100);
  if (pct === 0) return { text: now > before ? '+<1%' : '−<1%', direction: now > before ? 'up' : 'down' };
  return { text: `${pct > 0 ? '+' : '−'}${Math.abs(pct)}%`, direction: pct > 0 ? 'up' : 'down' };
}
