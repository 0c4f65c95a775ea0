import { dayKey, parseDayKey, wall, weekdayOf } from './time';
import { clockText, formatClock } from './format';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export type DayHours = { open: string; close: string } | null;
/** Seven days, Sunday first, or null: open around the clock. */
export type BusinessHours = readonly DayHours[] | null;

/** The longest note on a person's time off (domain/availability.ts); here, apart from its schema, for the form that shows it. */
export const MAX_TIME_OFF_NOTE = 100;

/** Mon–Sat 9:00 AM–8:00 PM, closed on Sunday: what the form offers when hours are first set. */
export const TYPICAL_HOURS: DayHours[] = WEEKDAYS.map((_, i) => (i === 0 ? null : { open: '09:00', close: '20:00' }));

const DAY_MS = 86_400_000;

/** The day key `n` days after `key` ("2026-03-08" + 1 → "2026-03-09"). */
export function addDays(key: string, n: number): string {
  const { year, month, day } = parseDayKey(key);
  return new Date(Date.UTC(year, month - 1, day) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instant the zone's clock shows `hhmm` on day `key`. In the spring gap (02:30 that never
 * happened) it is the instant the clock jumps to, later by the gap; when the clock goes back and
 * shows the time twice, the first.
 */
export function atClock(key: string, hhmm: string, tz: string): Date {
  const { year, month, day } = parseDayKey(key);
  const [h, m] = hhmm.split(':').map(Number);
  const asUtc = Date.UTC(year, month - 1, day, h, m);
  const shown = (t: number) => {
    const w = wall(new Date(t), tz);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  };
  // Try the offsets in force a day either side; the earliest instant that shows the time wins.
  const offsets = [asUtc - DAY_MS, asUtc, asUtc + DAY_MS].map((t) => shown(t) - t);
  const hits = [...new Set(offsets)].map((o) => asUtc - o).filter((t) => shown(t) === asUtc);
  if (hits.length) return new Date(Math.min(...hits));
  // The time fell in a gap: the clock read it an hour (the gap) later.
  const before = asUtc - Math.max(...offsets);
  return new Date(before + (shown(before) === asUtc ? 0 : asUtc - shown(before)));
}

export type FloorState =
  /** No business hours: open around the clock. */
  | { kind: 'always' }
  | { kind: 'open'; closesAt: Date }
  /** Closed; opensAt is null when no day of the week opens. */
  | { kind: 'closed'; opensAt: Date | null };

/** The day's opening and closing instants, or null on a closed day. */
function spanOf(hours: readonly DayHours[], key: string, tz: string) {
  const h = hours[weekdayOf(key)];
  return h ? { open: atClock(key, h.open, tz), close: atClock(key, h.close, tz) } : null;
}

/** Whether the floor is open at `now`, until when, or when it opens next. */
export function floorState(hours: BusinessHours, now: Date, tz: string): FloorState {
  if (!hours) return { kind: 'always' };
  const today = dayKey(now, tz);
  const t = now.getTime();
  const span = spanOf(hours, today, tz);
  if (span && span.open.getTime() <= t && t < span.close.getTime()) return { kind: 'open', closesAt: span.close };
  for (let i = 0; i <= 7; i++) {
    const next = spanOf(hours, addDays(today, i), tz);
    if (next && next.open.getTime() > t) return { kind: 'closed', opensAt: next.open };
  }
  return { kind: 'closed', opensAt: null };
}

/** The most recent closing at or before `now` (within a week), with its day; null when none. */
export function lastClosing(hours: BusinessHours, now: Date, tz: string): { day: string; at: Date } | null {
  if (!hours) return null;
  const today = dayKey(now, tz);
  for (let i = 0; i <= 7; i++) {
    const day = addDays(today, -i);
    const span = spanOf(hours, day, tz);
    if (span && span.close.getTime() <= now.getTime()) return { day, at: span.close };
  }
  return null;
}

/**
 * The day whose closing is due: the floor is closed now and its last closing has not been done.
 * Once the floor opens again that closing is passed over (a server that was down all night
 * must not clock out the morning's salesmen).
 */
export function closingDue(hours: BusinessHours, now: Date, tz: string): { day: string; at: Date } | null {
  if (floorState(hours, now, tz).kind !== 'closed') return null;
  const last = lastClosing(hours, now, tz);
  if (!last) return null;
  // Opened since that closing? Then it is not this closed spell's.
  const { kind } = floorState(hours, new Date(last.at.getTime() - 1), tz);
  return kind === 'open' ? last : null;
}

/**
 * What the staff read on their overview: "Open until 8:00 PM", "Closed · opens at 9:00 AM",
 * "Closed · opens Monday at 9:00 AM"; null around the clock.
 */
export function hoursText(hours: BusinessHours, now: Date, tz: string): string | null {
  const s = floorState(hours, now, tz);
  if (s.kind === 'always') return null;
  if (s.kind === 'open') return `Open until ${formatClock(s.closesAt, tz)}`;
  if (!s.opensAt) return 'Closed';
  const day = dayKey(s.opensAt, tz);
  const today = dayKey(now, tz);
  const when = day === today ? '' : day === addDays(today, 1) ? 'tomorrow ' : `${WEEKDAYS[weekdayOf(day)]} `;
  return `Closed · opens ${when}at ${formatClock(s.opensAt, tz)}`;
}

/** The hours of one weekday as a person reads them: "9:00 AM – 8:00 PM" or "Closed". */
export function dayHoursText(h: DayHours): string {
  if (!h) return 'Closed';
  const read = (hhmm: string) => clockText(Number(hhmm.slice(0, 2)), Number(hhmm.slice(3, 5)));
  return `${read(h.open)} – ${read(h.close)}`;
}
