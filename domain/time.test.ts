import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  dayKey,
  zonedStartOfDay,
  startOfMonth,
  startOfYear,
  daysInMonth,
  dayOfYear,
  isValidDayKey,
  localHour,
  parseDayKey,
  isLeapYear,
  periodsBefore,
  intlWall as intl,
  wall,
  weekdayOf,
  zoneName,
} from './time';

const NY = 'America/New_York';
const at = (iso: string) => new Date(iso);
const hours = (a: Date, b: Date) => (b.getTime() - a.getTime()) / 3_600_000;

describe('dayKey', () => {
  it('turns over at local midnight, not UTC midnight', () => {
    expect(dayKey(at('2026-03-10T03:59:59.999Z'), NY)).toBe('2026-03-09');
    expect(dayKey(at('2026-03-10T04:00:00Z'), NY)).toBe('2026-03-10');
    expect(dayKey(at('2026-01-15T04:59:59Z'), NY)).toBe('2026-01-14');
    expect(dayKey(at('2026-01-15T05:00:00Z'), NY)).toBe('2026-01-15');
    expect(dayKey(at('2026-01-15T23:59:59Z'), 'UTC')).toBe('2026-01-15');
  });

  it('crosses a month and a year boundary at local midnight', () => {
    expect(dayKey(at('2026-04-01T03:59:59.999Z'), NY)).toBe('2026-03-31');
    expect(dayKey(at('2026-04-01T04:00:00Z'), NY)).toBe('2026-04-01');
    expect(dayKey(at('2027-01-01T04:59:59Z'), NY)).toBe('2026-12-31');
    expect(dayKey(at('2027-01-01T05:00:00Z'), NY)).toBe('2027-01-01');
  });
});

describe('localHour', () => {
  it('follows the DST changes in New York', () => {
    expect(localHour(at('2026-03-08T06:59:00Z'), NY)).toBe(1);
    expect(localHour(at('2026-03-08T07:00:00Z'), NY)).toBe(3);
    expect(localHour(at('2026-11-01T05:30:00Z'), NY)).toBe(1);
    expect(localHour(at('2026-11-01T06:30:00Z'), NY)).toBe(1);
    expect(localHour(at('2026-11-01T07:30:00Z'), NY)).toBe(2);
  });

  it('reads midnight as 0, never 24', () => {
    expect(localHour(at('2026-06-01T04:00:00Z'), NY)).toBe(0);
    expect(localHour(at('2026-06-01T00:00:00Z'), 'UTC')).toBe(0);
  });
});

describe('wall', () => {
  const ZONES = [NY, 'UTC', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', 'Africa/Monrovia'];

  it("reads every instant as Intl does, across DST changes, half-hour zones and local mean time's odd seconds", () => {
    // Near each zone's changes in 2026, and any instant from the year 1 to 2200 (Monrovia kept an offset with seconds until 1972).
    const near = fc.tuple(
      fc.constantFrom(Date.UTC(2026, 2, 8, 7), Date.UTC(2026, 10, 1, 6), Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 3, 5, 1)),
      fc.integer({ min: -7_200_000, max: 7_200_000 }),
    );
    const instant = fc.oneof(
      near.map(([t, d]) => t + d),
      fc.integer({ min: Date.parse('0001-01-01T00:00:00Z'), max: Date.parse('2200-01-01T00:00:00Z') }),
    );
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), (t, tz) => {
        expect(wall(new Date(t), tz)).toEqual(intl(new Date(t), tz));
        expect(wall(new Date(t + 59_999), tz)).toEqual(intl(new Date(t + 59_999), tz));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the minute of a change on either side of it', () => {
    // 2026-03-08 2:00 AM in New York is 3:00 AM; Monrovia left its offset of -0:44:30 at 00:44:30 UTC on 1972-01-07.
    for (const [iso, tz] of [
      ['2026-03-08T06:59:30Z', NY],
      ['2026-03-08T07:00:00Z', NY],
      ['1972-01-07T00:44:00Z', 'Africa/Monrovia'],
      ['1972-01-07T00:44:59Z', 'Africa/Monrovia'],
    ] as const)
      expect(wall(at(iso), tz)).toEqual(intl(at(iso), tz));
  });
});

describe('zoneName', () => {
  it('names the zone as it stands at the instant: standard or daylight time', () => {
    expect(zoneName(at('2026-11-25T20:10:00Z'), NY)).toBe('EST');
    expect(zoneName(at('2026-07-04T16:00:00Z'), NY)).toBe('EDT');
    // The clock went back at 06:00 UTC: the second 1:30 AM is standard time.
    expect(zoneName(at('2026-11-01T05:30:00Z'), NY)).toBe('EDT');
    expect(zoneName(at('2026-11-01T06:30:00Z'), NY)).toBe('EST');
    expect(zoneName(at('2026-11-25T20:10:00Z'), 'Asia/Tokyo')).toBe('GMT+9');
    expect(zoneName(at('2026-11-25T20:10:00Z'), 'UTC')).toBe('UTC');
  });
});

describe('weekdayOf', () => {
  it('counts from Sunday, across month, year and leap days', () => {
    expect(weekdayOf('2026-11-22')).toBe(0);
    expect(weekdayOf('2026-11-25')).toBe(3);
    expect(weekdayOf('2026-12-31')).toBe(4);
    expect(weekdayOf('2027-01-01')).toBe(5);
    expect(weekdayOf('2028-02-29')).toBe(2);
  });
});

describe('zonedStartOfDay', () => {
  it('finds local midnight on either side of the DST changes in New York', () => {
    expect(zonedStartOfDay('2026-03-07', NY).toISOString()).toBe('2026-03-07T05:00:00.000Z');
    expect(zonedStartOfDay('2026-03-08', NY).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(zonedStartOfDay('2026-03-09', NY).toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(zonedStartOfDay('2026-11-01', NY).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(zonedStartOfDay('2026-11-02', NY).toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it('gives the DST days 23 and 25 hours', () => {
    expect(hours(zonedStartOfDay('2026-03-08', NY), zonedStartOfDay('2026-03-09', NY))).toBe(23);
    expect(hours(zonedStartOfDay('2026-11-01', NY), zonedStartOfDay('2026-11-02', NY))).toBe(25);
    expect(hours(zonedStartOfDay('2026-06-01', NY), zonedStartOfDay('2026-06-02', NY))).toBe(24);
  });

  it('starts a day whose midnight a DST gap swallowed at the end of the gap', () => {
    // Havana and Santiago spring forward from 00:00 to 01:00
    expect(zonedStartOfDay('2026-03-08', 'America/Havana').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(zonedStartOfDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    // Santiago falls back from 24:00 to 23:00, so the day starts at the second midnight
    expect(zonedStartOfDay('2026-04-05', 'America/Santiago').toISOString()).toBe('2026-04-05T04:00:00.000Z');
  });

  it('starts a day whose midnight happened twice at the first one', () => {
    // Tunis went back from 01:00 to 00:00 on 25 September 1988
    expect(zonedStartOfDay('1988-09-25', 'Africa/Tunis').toISOString()).toBe('1988-09-24T22:00:00.000Z');
  });

  it('always returns the first instant of that local day', () => {
    const zones = [
      NY,
      'UTC',
      'America/Santiago',
      'America/Havana',
      'America/St_Johns',
      'Asia/Kolkata',
      'Asia/Tehran',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'Pacific/Kiritimati',
      'Pacific/Pago_Pago',
      'Europe/London',
      'Africa/Tunis',
      'Africa/Casablanca',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2060-01-01T00:00:00Z'), noInvalidDate: true }),
        (tz, d) => {
          const key = dayKey(d, tz);
          const start = zonedStartOfDay(key, tz);
          expect(dayKey(start, tz)).toBe(key);
          expect(dayKey(new Date(start.getTime() - 1), tz) < key).toBe(true);
          expect(start.getTime()).toBeLessThanOrEqual(d.getTime());
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('startOfMonth and startOfYear', () => {
  it('use the local month at a month boundary', () => {
    expect(startOfMonth(at('2026-04-01T03:59:59.999Z'), NY).toISOString()).toBe('2026-03-01T05:00:00.000Z');
    expect(startOfMonth(at('2026-04-01T04:00:00Z'), NY).toISOString()).toBe('2026-04-01T04:00:00.000Z');
    expect(startOfMonth(at('2026-11-20T12:00:00Z'), NY).toISOString()).toBe('2026-11-01T04:00:00.000Z');
  });

  it('use the local year at New Year', () => {
    expect(startOfYear(at('2027-01-01T04:59:59Z'), NY).toISOString()).toBe('2026-01-01T05:00:00.000Z');
    expect(startOfYear(at('2027-01-01T05:00:00Z'), NY).toISOString()).toBe('2027-01-01T05:00:00.000Z');
  });
});

describe('calendar helpers', () => {
  it.each([
    [2026, 1, 31],
    [2026, 2, 28],
    [2024, 2, 29],
    [2000, 2, 29],
    [1900, 2, 28],
    [2026, 4, 30],
    [2026, 12, 31],
  ])('%i-%i has %i days', (y, m, n) => {
    expect(daysInMonth(y, m)).toBe(n);
  });

  it('knows leap years', () => {
    expect([2024, 2000, 2026, 1900].map(isLeapYear)).toEqual([true, true, false, false]);
  });

  it.each([
    ['2026-01-01', 1],
    ['2026-02-01', 32],
    ['2026-03-01', 60],
    ['2024-03-01', 61],
    ['2024-02-29', 60],
    ['2026-12-31', 365],
    ['2024-12-31', 366],
  ])('%s is day %i of its year', (key, n) => {
    expect(dayOfYear(key)).toBe(n);
  });

  it('parses a day key', () => {
    expect(parseDayKey('2026-03-09')).toEqual({ year: 2026, month: 3, day: 9 });
  });

  it.each(['2026-01-01', '2024-02-29', '2026-12-31', '2026-04-30'])('accepts %s', (s) => {
    expect(isValidDayKey(s)).toBe(true);
  });

  it.each([
    '2026-02-30',
    '2026-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '0000-01-01',
    '2026-1-01',
    '26-01-01',
    '2026/01/01',
    '2026-01-01T00:00',
    ' 2026-01-01',
    '',
  ])('rejects %j', (s) => {
    expect(isValidDayKey(s)).toBe(false);
  });
});

describe('periodsBefore', () => {
  it('compares today with the same weekday last week and the month so far with last month so far', () => {
    const tz = 'America/New_York';
    // Tuesday Mar 10, 2026, 11:00 AM in New York (after the clocks went forward on Mar 8).
    const p = periodsBefore(new Date('2026-03-10T15:00:00Z'), tz);
    expect(new Date(p.lastWeekDay.from).toISOString()).toBe('2026-03-03T05:00:00.000Z');
    expect(new Date(p.lastWeekDay.to).toISOString()).toBe('2026-03-03T15:00:00.000Z');
    expect(new Date(p.lastMonth.from).toISOString()).toBe('2026-02-01T05:00:00.000Z');
    // Nine days and ten hours into March (an hour shorter for the clock change) from Feb 1.
    expect(p.lastMonth.to - p.lastMonth.from).toBe(Date.parse('2026-03-10T15:00:00Z') - Date.parse('2026-03-01T05:00:00Z'));
    // March 31 against February: cut at February's end.
    const end = periodsBefore(new Date('2026-03-31T20:00:00Z'), tz);
    expect(new Date(end.lastMonth.to).toISOString()).toBe('2026-03-01T05:00:00.000Z');
  });
});
