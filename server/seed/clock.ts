import { addDays } from '../../domain/hours';
import { dayKey, zonedStartOfDay } from '../../domain/time';

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/**
 * A store's days as the demo plans them: on its wall clock, where every day is 24 hours long
 * (a time is ms from today's midnight: -DAY is yesterday's), so a plan made from a seed is the
 * same whenever the clocks change; `instant` makes a planned time the moment the store's clock
 * showed it, `dayOf` the other way. Days are counted back from today (0; -1 is tomorrow).
 */
export interface Clock {
  /** Now, on the wall clock. */
  now: number;
  /** Today's key on the store's clock. */
  today: string;
  key: (d: number) => string;
  /** The wall time the store's clock shows `minutes` past midnight, `d` days ago. */
  at: (d: number, minutes: number) => number;
  /** The wall time of day `d`'s midnight. */
  start: (d: number) => number;
  /** How many days ago a wall time's day was. */
  daysAgo: (wall: number) => number;
  /** The moment the store's clock showed a wall time (a time a spring-forward skipped: the day's last moment). */
  instant: (wall: number) => number;
  /** The key of a moment's day on the store's clock. */
  dayOf: (t: number) => string;
}

/** `back`, `ahead`: the days (before today, after it) worked out from the time zone; beyond them days are 24 hours long. */
export function storeClock(now: number, tz: string, back: number, ahead: number): Clock {
  const today = dayKey(new Date(now), tz);
  const key = (d: number) => addDays(today, -d);
  // starts[i]: the moment day `back - i` ago began, oldest first. The zone is asked at every
  // fourth week's start and wherever the days between are not all 24 hours long (a clock change).
  const last = back + ahead;
  const starts = new Array<number>(last + 1);
  const ask = (i: number) => (starts[i] = zonedStartOfDay(key(back - i), tz).getTime());
  const fill = (lo: number, hi: number) => {
    if (hi - lo < 2) return;
    if (starts[hi] - starts[lo] === (hi - lo) * DAY) {
      for (let i = lo + 1; i < hi; i++) starts[i] = starts[lo] + (i - lo) * DAY;
      return;
    }
    const mid = (lo + hi) >> 1;
    ask(mid);
    fill(lo, mid);
    fill(mid, hi);
  };
  ask(0);
  for (let lo = 0; lo < last; lo += 28) {
    const hi = Math.min(lo + 28, last);
    ask(hi);
    fill(lo, hi);
  }
  const startOf = (d: number) => {
    const i = back - d;
    if (i < 0) return starts[0] + i * DAY;
    return i > last ? starts[last] + (i - last) * DAY : starts[i];
  };
  const daysAgo = (wall: number) => -Math.floor(wall / DAY);
  const dayOf = (t: number) => {
    if (t < starts[0]) return key(back + Math.ceil((starts[0] - t) / DAY));
    if (t >= starts[last]) return key(back - last - Math.floor((t - starts[last]) / DAY));
    // The last day that starts at or before t.
    let lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    return key(back - lo);
  };
  return {
    now: now - startOf(0),
    today,
    key,
    at: (d, minutes) => Math.round(-d * DAY + minutes * MIN),
    start: (d) => -d * DAY,
    daysAgo,
    instant: (wall) => {
      const d = daysAgo(wall);
      return Math.round(Math.min(startOf(d) + (wall + d * DAY), startOf(d - 1) - 1));
    },
    dayOf,
  };
}
