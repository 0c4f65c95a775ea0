import { describe, expect, it } from 'vitest';
import { awayReason, offText, readHours, timeOffSchema } from './availability';
import { TYPICAL_HOURS, type DayHours } from './hours';

const NY = 'America/New_York';
/** Mon–Sat 9 AM–8 PM, Sunday off. */
const HOURS = TYPICAL_HOURS;

describe('awayReason', () => {
  it('says "Off Nov 28–30" while time off covers today, on the store’s clock', () => {
    const off = [{ fromDay: '2026-11-28', toDay: '2026-11-30' }];
    // Nov 28, 00:30 in New York is still Nov 27 in Los Angeles.
    const at = new Date('2026-11-28T05:30:00Z');
    expect(awayReason(null, off, at, NY)).toBe('Off Nov 28–30');
    expect(awayReason(null, off, at, 'America/Los_Angeles')).toBeNull();
    // The last day is included; the day after is not.
    expect(awayReason(null, off, new Date('2026-12-01T04:59:00Z'), NY)).toBe('Off Nov 28–30');
    expect(awayReason(null, off, new Date('2026-12-01T05:00:00Z'), NY)).toBeNull();
    // Time off comes before his hours.
    expect(awayReason(HOURS, off, new Date('2026-11-30T15:00:00Z'), NY)).toBe('Off Nov 28–30');
  });

  it('says one day as "Off Nov 28", and a range across months and years with both months', () => {
    expect(offText({ fromDay: '2026-11-28', toDay: '2026-11-28' })).toBe('Off Nov 28');
    expect(offText({ fromDay: '2026-11-30', toDay: '2026-12-02' })).toBe('Off Nov 30–Dec 2');
    expect(offText({ fromDay: '2026-12-30', toDay: '2027-01-02' })).toBe('Off Dec 30–Jan 2');
    const across = [{ fromDay: '2026-11-30', toDay: '2026-12-02' }];
    expect(awayReason(null, across, new Date('2026-12-01T17:00:00Z'), NY)).toBe('Off Nov 30–Dec 2');
    // Of two that cover today, the one that began first.
    expect(awayReason(null, [{ fromDay: '2026-12-01', toDay: '2026-12-01' }, ...across], new Date('2026-12-01T17:00:00Z'), NY)).toBe('Off Nov 30–Dec 2');
  });

  it('says "Off schedule" outside his own hours, and nothing inside them or without hours of his own', () => {
    // Monday Nov 16 2026.
    expect(awayReason(HOURS, [], new Date('2026-11-16T15:00:00Z'), NY)).toBeNull(); // 10 AM
    expect(awayReason(HOURS, [], new Date('2026-11-16T13:59:00Z'), NY)).toBe('Off schedule'); // 8:59 AM
    expect(awayReason(HOURS, [], new Date('2026-11-17T01:00:00Z'), NY)).toBe('Off schedule'); // 8 PM
    expect(awayReason(HOURS, [], new Date('2026-11-15T16:00:00Z'), NY)).toBe('Off schedule'); // Sunday
    expect(awayReason(null, [], new Date('2026-11-15T16:00:00Z'), NY)).toBeNull();
    expect(awayReason(Array<DayHours>(7).fill(null), [], new Date('2026-11-16T15:00:00Z'), NY)).toBe('Off schedule');
  });

  it('reads his hours on the clock of the day on DST days', () => {
    // Early shift 01:00–04:00 every day. Spring forward: Sunday Mar 8 2026, 2 AM → 3 AM (EST -5 → EDT -4).
    const early = Array<DayHours>(7).fill({ open: '01:00', close: '04:00' });
    expect(awayReason(early, [], new Date('2026-03-08T06:30:00Z'), NY)).toBeNull(); // 1:30 AM EST
    expect(awayReason(early, [], new Date('2026-03-08T07:30:00Z'), NY)).toBeNull(); // 3:30 AM EDT
    expect(awayReason(early, [], new Date('2026-03-08T08:00:00Z'), NY)).toBe('Off schedule'); // 4:00 AM EDT
    // Fall back: Sunday Nov 1 2026, 2 AM → 1 AM (EDT -4 → EST -5); 4 AM is then 09:00 UTC.
    expect(awayReason(early, [], new Date('2026-11-01T08:30:00Z'), NY)).toBeNull(); // 3:30 AM EST
    expect(awayReason(early, [], new Date('2026-11-01T09:00:00Z'), NY)).toBe('Off schedule');
    // A day off on a DST day covers the whole day, 23 or 25 hours.
    const off = [{ fromDay: '2026-03-08', toDay: '2026-03-08' }];
    expect(awayReason(null, off, new Date('2026-03-08T05:00:00Z'), NY)).toBe('Off Mar 8'); // midnight EST
    expect(awayReason(null, off, new Date('2026-03-09T03:59:00Z'), NY)).toBe('Off Mar 8'); // 11:59 PM EDT
    expect(awayReason(null, off, new Date('2026-03-09T04:00:00Z'), NY)).toBeNull();
    const fall = [{ fromDay: '2026-11-01', toDay: '2026-11-01' }];
    expect(awayReason(null, fall, new Date('2026-11-02T04:59:00Z'), NY)).toBe('Off Nov 1'); // 11:59 PM EST
  });
});

describe('his hours and time off as given', () => {
  const error = (v: unknown) => timeOffSchema.safeParse(v).error?.issues[0].message;
  it('reads stored hours, and anything unreadable as whenever the store is open', () => {
    expect(readHours(JSON.stringify(HOURS))).toEqual(HOURS);
    expect(readHours(null)).toBeNull();
    expect(readHours('nonsense')).toBeNull();
    expect(readHours('[1,2]')).toBeNull();
  });
  it('takes time off of at most a year with the last day not before the first, and a short note', () => {
    expect(timeOffSchema.parse({ fromDay: '2026-11-28', toDay: '2026-11-30', note: ' Thanksgiving ' })).toEqual({
      fromDay: '2026-11-28',
      toDay: '2026-11-30',
      note: 'Thanksgiving',
    });
    expect(timeOffSchema.safeParse({ fromDay: '2026-01-01', toDay: '2026-12-31' }).success).toBe(true);
    expect(error({ fromDay: '2026-02-30', toDay: '2026-03-01' })).toBe('First day off must be a day like 2026-11-28');
    expect(error({ fromDay: '2026-11-28', toDay: 'tomorrow' })).toBe('Last day off must be a day like 2026-11-28');
    expect(error({ fromDay: '2026-11-28', toDay: '2026-11-27' })).toBe('The last day off must not be before the first');
    expect(error({ fromDay: '2026-01-01', toDay: '2027-01-02' })).toBe('Time off may be at most a year long');
    expect(error({ fromDay: '2026-11-28', toDay: '2026-11-28', note: 'x'.repeat(101) })).toBe('The note may be at most 100 characters');
    expect(error({ fromDay: '2026-11-28', toDay: '2026-11-28', extra: 1 })).toBe('Unknown field: extra');
  });
});
