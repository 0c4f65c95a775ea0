export type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The zone's wall clock at instant d (24-hour), as Intl reads it: what `wall` answers, the slow way. */
export function intlWall(d: Date, tz: string): Wall {
  const w: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(d)) {
    if (p.type !== 'literal') w[p.type] = Number(p.value);
  }
  return { year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second };
}

const MINUTE = 60_000;
/** Before this (with a day to spare for any zone), Date.UTC would not read Intl's year back: such instants are Intl's alone. */
const EARLIEST = Date.parse('1000-01-02T00:00:00Z');

/** How far the zone's wall clock is ahead of UTC at instant t, in ms, as Intl reads it. */
function intlOffset(t: number, tz: string): number {
  const w = intlWall(new Date(t), tz);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - (t - (((t % 1000) + 1000) % 1000));
}

/** A minute of a zone: its offset from UTC all through it (null: it changes within the minute, or the minute is before EARLIEST), and its short name. */
type Minute = { offset: number | null; name?: string };

/**
 * Per zone, the minutes asked of lately. Intl's formatToParts costs tens of microseconds, and an
 * assign reads several instants' wall clocks (its day, its mail's due times); within a minute
 * whose offset holds, the wall clock is arithmetic.
 */
const minutes = new Map<string, Map<number, Minute>>();

function minuteOf(t: number, tz: string): Minute {
  const start = Math.floor(t / MINUTE) * MINUTE;
  let zone = minutes.get(tz);
  if (!zone) minutes.set(tz, (zone = new Map<number, Minute>()));
  let m = zone.get(start);
  if (!m) {
    const offset = start >= EARLIEST ? intlOffset(start, tz) : null;
    m = { offset: offset !== null && offset === intlOffset(start + MINUTE - 1000, tz) ? offset : null };
    if (zone.size >= 1024) zone.clear();
    zone.set(start, m);
  }
  return m;
}

/** The zone's wall clock at instant d (24-hour). */
export function wall(d: Date, tz: string): Wall {
  const t = d.getTime();
  const { offset } = minuteOf(t, tz);
  if (offset === null) return intlWall(d, tz);
  const u = new Date(t + offset);
  return {
    year: u.getUTCFullYear(),
    month: u.getUTCMonth() + 1,
    day: u.getUTCDate(),
    hour: u.getUTCHours(),
    minute: u.getUTCMinutes(),
    second: u.getUTCSeconds(),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function keyOf(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

export function parseDayKey(key: string): { year: number; month: number; day: number } {
  const [year, month, day] = key.split('-').map(Number);
  return { year, month, day };
}

export function dayKey(d: Date, tz: string): string {
  const w = wall(d, tz);
  return keyOf(w.year, w.month, w.day);
}

export function localHour(d: Date, tz: string): number {
  return wall(d, tz).hour;
}

const zoneNames = new Map<string, Intl.DateTimeFormat>();

function intlZoneName(d: Date, tz: string): string {
  let f = zoneNames.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'short' });
    zoneNames.set(tz, f);
  }
  return f.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? tz;
}

/** The zone's short name at instant d, as a reader of a mail knows it: "EST", "EDT", or "GMT+9" where it has none in English. */
export function zoneName(d: Date, tz: string): string {
  const m = minuteOf(d.getTime(), tz);
  if (m.offset === null) return intlZoneName(d, tz);
  return (m.name ??= intlZoneName(d, tz));
}

/** How far the zone's wall clock is ahead of UTC at instant t, in ms. */
const offsetAt = (t: number, tz: string): number => minuteOf(t, tz).offset ?? intlOffset(t, tz);

/**
 * The first instant of the local day: local midnight (the earlier one when the clock went back
 * over it), or the end of a DST gap that swallowed it.
 */
export function zonedStartOfDay(key: string, tz: string): Date {
  const { year, month, day } = parseDayKey(key);
  const midnightUtc = Date.UTC(year, month - 1, day);
  const startsDay = (t: number) => dayKey(new Date(t), tz) === key && dayKey(new Date(t - 1), tz) < key;

  const first = midnightUtc - offsetAt(midnightUtc, tz);
  const second = midnightUtc - offsetAt(first, tz);
  for (const t of [second, first]) if (startsDay(t)) return new Date(t);

  // Rare: the clock went back over midnight, so it happened twice. Search for the day's first instant.
  let lo = midnightUtc - 15 * 3_600_000;
  let hi = midnightUtc + 15 * 3_600_000;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (dayKey(new Date(mid), tz) >= key) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

export function startOfMonth(d: Date, tz: string): Date {
  return zonedStartOfDay(`${dayKey(d, tz).slice(0, 8)}01`, tz);
}

export function startOfYear(d: Date, tz: string): Date {
  return zonedStartOfDay(`${dayKey(d, tz).slice(0, 5)}01-01`, tz);
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month1to12: number): number {
  return month1to12 === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month1to12 - 1];
}

/** 0 for Sunday … 6 for Saturday, of a day key. */
export function weekdayOf(key: string): number {
  const { year, month, day } = parseDayKey(key);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

export function dayOfYear(key: string): number {
  const { year, month, day } = parseDayKey(key);
  let n = day;
  for (let m = 1; m < month; m++) n += daysInMonth(year, m);
  return n;
}

export function isValidDayKey(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const { year, month, day } = parseDayKey(s);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * The periods a stat card compares with, in the dealership's time zone: today so far against the
 * same weekday last week up to the same time, and this month so far against last month up to the
 * same point (cut at last month's end).
 */
export function periodsBefore(now: Date, tz: string) {
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  const month = startOfMonth(now, tz).getTime();
  const lastMonth = startOfMonth(new Date(month - 1), tz).getTime();
  return {
    lastWeekDay: { from: zonedStartOfDay(dayKey(weekAgo, tz), tz).getTime(), to: weekAgo.getTime() },
    lastMonth: { from: lastMonth, to: Math.min(month, lastMonth + (now.getTime() - month)) },
  };
}
