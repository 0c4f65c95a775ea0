import { z } from 'zod';
import { addDays, floorState, MAX_TIME_OFF_NOTE, type BusinessHours } from './hours';
import { formatMonthDay } from './format';
import { dayKey, isValidDayKey, parseDayKey } from './time';
import { businessHoursSchema } from './rules';
import { isOneLine, notOneLineText } from './text';

/** A spell of time off: days on the store's clock, first and last included. */
export interface TimeOff {
  fromDay: string;
  toDay: string;
}

/** The longest time off one entry may cover: a year. */
const MAX_TIME_OFF_DAYS = 366;

/** "Off Nov 28", "Off Nov 28–30", "Off Nov 30–Dec 2", "Off Dec 30–Jan 2". */
export function offText({ fromDay, toDay }: TimeOff): string {
  if (fromDay === toDay) return `Off ${formatMonthDay(fromDay)}`;
  const a = parseDayKey(fromDay);
  const b = parseDayKey(toDay);
  const end = a.year === b.year && a.month === b.month ? String(b.day) : formatMonthDay(toDay);
  return `Off ${formatMonthDay(fromDay)}–${end}`;
}

/**
 * Why a person's own hours keep him out of every line now, in a manager's words: time off that
 * covers today ("Off Nov 28–30"), else "Off schedule" when his hours say he is not working now;
 * null when neither (no own hours: whenever the store is open).
 */
export function awayReason(hours: BusinessHours, timeOff: readonly TimeOff[], now: Date, tz: string): string | null {
  const today = dayKey(now, tz);
  const off = timeOff.filter((t) => t.fromDay <= today && today <= t.toDay).sort((x, y) => (x.fromDay < y.fromDay ? -1 : x.fromDay > y.fromDay ? 1 : 0))[0];
  if (off) return offText(off);
  if (hours && floorState(hours, now, tz).kind !== 'open') return 'Off schedule';
  return null;
}

/** Who sets or removes someone's time off. */
/** Who sets or removes time off: `whole` when his say reaches every store the person works in (the person himself, or domain/users.ts authorityOver says so). */
export interface TimeOffSetter {
  id: string;
  whole: boolean;
}

/**
 * Where new time off holds: every store the person works in (null) when the setter answers for all
 * of them; else the store it is set in alone, as a store manager answers for her floor and not
 * for another store's.
 */
export const timeOffStore = (setter: TimeOffSetter, store: number): number | null => (setter.whole ? null : store);

/** Whether the setter may remove time off that holds in `where` (null: every store): one that holds everywhere, only someone whose say reaches everywhere. */
export const mayRemoveTimeOff = (setter: TimeOffSetter, where: number | null): boolean => where !== null || setter.whole;

export const holdsEverywhereText = (name: string) =>
  `This time off holds in every store ${name} works in: he, or a manager of each of those stores, can remove it.`;

/** His hours as stored (memberships.hours): unreadable or absent is null, whenever the store is open. */
export function readHours(text: string | null | undefined): BusinessHours {
  if (!text) return null;
  try {
    const parsed = businessHoursSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const strict = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Invalid request body'),
  });

const day = (label: string) =>
  z.string({ error: `${label} must be a day like 2026-11-28` }).refine(isValidDayKey, { error: `${label} must be a day like 2026-11-28`, abort: true });

/** His own hours: the business hours' shape (seven days, Sunday first), or null: whenever the store is open. */
export const hoursChangeSchema = strict({ hours: businessHoursSchema });

/** Time off to add. */
export const timeOffSchema = strict({
  fromDay: day('First day off'),
  toDay: day('Last day off'),
  note: z
    .string({ error: 'The note must be text' })
    .trim()
    .max(MAX_TIME_OFF_NOTE, { error: `The note may be at most ${MAX_TIME_OFF_NOTE} characters`, abort: true })
    .refine(isOneLine, { error: notOneLineText('The note') })
    .optional()
    .nullable(),
})
  .refine((t) => t.toDay >= t.fromDay, { error: 'The last day off must not be before the first', path: ['toDay'] })
  .refine((t) => t.toDay < addDays(t.fromDay, MAX_TIME_OFF_DAYS), { error: 'Time off may be at most a year long', path: ['toDay'] });
