import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, atClock, closingDue, dayHoursText, floorState, hoursText, lastClosing, TYPICAL_HOURS, type DayHours } from './hours';
import { wall } from './time';
import { businessHoursSchema } from './rules';

const NY = 'America/New_York';
/** Mon–Sat 9:00 AM–8:00 PM, closed on Sunday. 2026-11-23 is a Monday. */
const HOURS = TYPICAL_HOURS;
const at = (iso: string) => new Date(iso);

describe('business hours on the dealership’s clock', () => {
  it('are open from opening until closing, and say until when', () => {
    expect(floorState(HOURS, at('2026-11-23T15:00:00Z'), NY)).toEqual({ kind: 'open', closesAt: at('2026-11-24T01:00:00Z') });
    expect(hoursText(HOURS, at('2026-11-23T15:00:00Z'), NY)).toBe('Open until 8:00 PM');
    // The opening minute is open, the closing minute is closed.
    expect(floorState(HOURS, at('2026-11-23T14:00:00Z'), NY).kind).toBe('open');
    expect(floorState(HOURS, at('2026-11-23T13:59:59Z'), NY)).toEqual({ kind: 'closed', opensAt: at('2026-11-23T14:00:00Z') });
    expect(hoursText(HOURS, at('2026-11-23T13:59:59Z'), NY)).toBe('Closed · opens at 9:00 AM');
    expect(floorState(HOURS, at('2026-11-24T01:00:00Z'), NY)).toEqual({ kind: 'closed', opensAt: at('2026-11-24T14:00:00Z') });
    expect(hoursText(HOURS, at('2026-11-24T01:00:00Z'), NY)).toBe('Closed · opens tomorrow at 9:00 AM');
  });

  it('skip a closed day: Saturday evening opens on Monday', () => {
    expect(hoursText(HOURS, at('2026-11-29T02:00:00Z'), NY)).toBe('Closed · opens Monday at 9:00 AM');
    expect(floorState(HOURS, at('2026-11-29T17:00:00Z'), NY)).toEqual({ kind: 'closed', opensAt: at('2026-11-30T14:00:00Z') });
  });

  it('are open around the clock without hours, and closed for good when no day opens', () => {
    expect(floorState(null, at('2026-11-23T15:00:00Z'), NY)).toEqual({ kind: 'always' });
    expect(hoursText(null, at('2026-11-23T15:00:00Z'), NY)).toBeNull();
    const never = Array<DayHours>(7).fill(null);
    expect(floorState(never, at('2026-11-23T15:00:00Z'), NY)).toEqual({ kind: 'closed', opensAt: null });
    expect(hoursText(never, at('2026-11-23T15:00:00Z'), NY)).toBe('Closed');
    expect(lastClosing(never, at('2026-11-23T15:00:00Z'), NY)).toBeNull();
  });

  it('cross midnight on the zone’s clock, not UTC’s', () => {
    const allDay = Array<DayHours>(7).fill({ open: '00:00', close: '23:59' });
    // 23:59:30 New York time is closed; midnight opens the next day.
    expect(floorState(allDay, at('2026-11-24T04:59:30Z'), NY)).toEqual({ kind: 'closed', opensAt: at('2026-11-24T05:00:00Z') });
    expect(hoursText(allDay, at('2026-11-24T04:59:30Z'), NY)).toBe('Closed · opens tomorrow at 12:00 AM');
    expect(floorState(allDay, at('2026-11-24T05:00:00Z'), NY).kind).toBe('open');
    // Monday 8:00 PM in New York is already Tuesday in UTC: the closing belongs to Monday.
    expect(lastClosing(HOURS, at('2026-11-24T02:00:00Z'), NY)).toEqual({ day: '2026-11-23', at: at('2026-11-24T01:00:00Z') });
  });

  it('close once per closed spell: due after closing, through a closed day, never once the floor opened again', () => {
    expect(closingDue(HOURS, at('2026-11-23T15:00:00Z'), NY)).toBeNull();
    expect(closingDue(HOURS, at('2026-11-24T01:00:00Z'), NY)).toEqual({ day: '2026-11-23', at: at('2026-11-24T01:00:00Z') });
    expect(closingDue(HOURS, at('2026-11-24T13:00:00Z'), NY)?.day).toBe('2026-11-23');
    // Saturday's closing is still due on Sunday (closed) and early Monday, not after Monday opens.
    expect(closingDue(HOURS, at('2026-11-29T17:00:00Z'), NY)?.day).toBe('2026-11-28');
    expect(closingDue(HOURS, at('2026-11-30T13:00:00Z'), NY)?.day).toBe('2026-11-28');
    expect(closingDue(HOURS, at('2026-11-30T15:00:00Z'), NY)).toBeNull();
    expect(closingDue(null, at('2026-11-24T01:00:00Z'), NY)).toBeNull();
  });

  it('keep wall-clock hours across the spring change (2026-03-08 in New York)', () => {
    // Saturday 9:00 AM is 14:00 UTC (EST); Sunday's 9:00 AM is 13:00 UTC (EDT).
    expect(atClock('2026-03-07', '09:00', NY)).toEqual(at('2026-03-07T14:00:00Z'));
    expect(atClock('2026-03-08', '09:00', NY)).toEqual(at('2026-03-08T13:00:00Z'));
    // 2:30 AM never happened: the clock read 3:30 AM then.
    expect(atClock('2026-03-08', '02:30', NY)).toEqual(at('2026-03-08T07:30:00Z'));
    const everyDay = Array<DayHours>(7).fill({ open: '09:00', close: '20:00' });
    expect(floorState(everyDay, at('2026-03-08T12:30:00Z'), NY)).toEqual({ kind: 'closed', opensAt: at('2026-03-08T13:00:00Z') });
    expect(floorState(everyDay, at('2026-03-08T13:30:00Z'), NY)).toEqual({ kind: 'open', closesAt: at('2026-03-09T00:00:00Z') });
    expect(closingDue(everyDay, at('2026-03-09T00:00:00Z'), NY)?.day).toBe('2026-03-08');
    // A closing inside the gap still happens, at the moment the clock jumps past it.
    const night = Array<DayHours>(7).fill({ open: '00:30', close: '02:30' });
    expect(closingDue(night, at('2026-03-08T07:30:00Z'), NY)?.day).toBe('2026-03-08');
  });

  it('keep wall-clock hours across the autumn change (2026-11-01 in New York)', () => {
    expect(atClock('2026-10-31', '20:00', NY)).toEqual(at('2026-11-01T00:00:00Z'));
    expect(atClock('2026-11-01', '20:00', NY)).toEqual(at('2026-11-02T01:00:00Z'));
    // 1:30 AM happened twice: the first counts.
    expect(atClock('2026-11-01', '01:30', NY)).toEqual(at('2026-11-01T05:30:00Z'));
    const everyDay = Array<DayHours>(7).fill({ open: '09:00', close: '20:00' });
    expect(hoursText(everyDay, at('2026-11-01T14:30:00Z'), NY)).toBe('Open until 8:00 PM');
    expect(floorState(everyDay, at('2026-11-01T14:30:00Z'), NY)).toEqual({ kind: 'open', closesAt: at('2026-11-02T01:00:00Z') });
  });

  it('find the instant of any clock time outside a change, in any zone', () => {
    const zones = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 3650 }),
        fc.integer({ min: 4, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (tz, n, h, m) => {
          const key = addDays('2024-01-01', n);
          const hhmm = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
          const w = wall(atClock(key, hhmm, tz), tz);
          expect([w.year, w.month, w.day, w.hour, w.minute].join()).toBe([...key.split('-').map(Number), h, m].join());
        },
      ),
    );
  });

  it('are checked by the server and the form alike', () => {
    const error = (v: unknown) => businessHoursSchema.safeParse(v).error?.issues[0].message;
    expect(error(null)).toBeUndefined();
    expect(error(HOURS)).toBeUndefined();
    expect(error(HOURS.slice(1))).toBeDefined();
    expect(error([{ open: '20:00', close: '09:00' }, ...HOURS.slice(1)])).toBe('Sunday must close after it opens');
    expect(error([null, { open: '9am', close: '20:00' }, ...HOURS.slice(2)])).toBe('Monday opening must be a time like 09:00');
    expect(error([null, { open: '09:00', close: '24:00' }, ...HOURS.slice(2)])).toBe('Monday closing must be a time like 09:00');
    expect(error([null, { open: '09:00' }, ...HOURS.slice(2)])).toBe('Monday closing must be a time like 09:00');
    expect(error([null, { open: '09:00', close: '20:00', extra: 1 }, ...HOURS.slice(2)])).toBeDefined();
    expect(error('\u0000')).toBeDefined();
  });

  it('read as a person reads them', () => {
    expect(dayHoursText({ open: '09:00', close: '20:30' })).toBe('9:00 AM – 8:30 PM');
    expect(dayHoursText({ open: '00:00', close: '12:00' })).toBe('12:00 AM – 12:00 PM');
    expect(dayHoursText(null)).toBe('Closed');
  });
});
