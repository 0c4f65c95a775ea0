import { describe, expect, it } from 'vitest';
import { change, displayName, formatClock, formatDateTime, formatDay, formatWhen, hasDefaultName, initials, samePeriodBefore } from './format';

const NY = 'America/New_York';
const now = new Date('2026-11-20T19:44:00Z'); // Nov 20, 2:44 PM in New York

describe('formatDay', () => {
  it('writes a day as "Nov 20, 2026"', () => {
    expect(formatDay('2026-11-20')).toBe('Nov 20, 2026');
    expect(formatDay('2026-01-05')).toBe('Jan 5, 2026');
    expect(formatDay('2000-12-31')).toBe('Dec 31, 2000');
  });
});

describe('formatClock', () => {
  it('uses a 12-hour clock with plain spaces', () => {
    expect(formatClock(new Date('2026-11-20T05:00:00Z'), NY)).toBe('12:00 AM');
    expect(formatClock(new Date('2026-11-20T17:00:00Z'), NY)).toBe('12:00 PM');
    expect(formatClock(new Date('2026-11-20T19:44:00Z'), NY)).toBe('2:44 PM');
  });
});

describe('formatWhen', () => {
  it('says Today, Yesterday and Tomorrow in the dealership zone', () => {
    expect(formatWhen('2026-11-20T19:44:00Z', now, NY)).toBe('Today 2:44 PM');
    expect(formatWhen('2026-11-20T04:57:00Z', now, NY)).toBe('Yesterday 11:57 PM');
    expect(formatWhen('2026-11-21T14:00:00Z', now, NY)).toBe('Tomorrow 9:00 AM');
  });

  it('turns the day over at local midnight, not UTC midnight', () => {
    // 03:30 UTC on the 21st is still the 20th in New York.
    expect(formatWhen('2026-11-21T03:30:00Z', now, NY)).toBe('Today 10:30 PM');
    expect(formatWhen('2026-11-21T03:30:00Z', now, 'UTC')).toBe('Tomorrow 3:30 AM');
  });

  it('gives the date for older times, with the year when it is not this year', () => {
    expect(formatWhen('2026-11-19T04:10:00Z', now, NY)).toBe('Nov 18, 11:10 PM');
    expect(formatWhen('2026-11-19T20:10:00Z', new Date('2026-11-22T12:00:00Z'), NY)).toBe('Nov 19, 3:10 PM');
    expect(formatWhen('2025-12-31T13:05:00Z', now, NY)).toBe('Dec 31, 2025, 8:05 AM');
  });

  it('counts Yesterday across a month and a year boundary', () => {
    expect(formatWhen('2026-12-31T20:00:00Z', new Date('2027-01-01T15:00:00Z'), NY)).toBe('Yesterday 3:00 PM');
  });

  it('says "—" for a time that is not one', () => {
    expect(formatWhen('not a date', now, NY)).toBe('—');
  });
});

describe('formatDateTime', () => {
  it('writes the instant in full on the dealership clock, naming the zone', () => {
    expect(formatDateTime('2026-11-25T20:10:00Z', NY)).toBe('Wed, Nov 25, 3:10 PM EST');
    expect(formatDateTime(new Date('2026-07-04T16:00:00Z'), NY)).toBe('Sat, Jul 4, 12:00 PM EDT');
    expect(formatDateTime('2026-11-25T20:10:00Z', 'Asia/Tokyo')).toBe('Thu, Nov 26, 5:10 AM GMT+9');
  });

  it('takes the day and weekday from the zone, not from UTC', () => {
    // 03:30 UTC on Jan 1 is still New Year's Eve in New York.
    expect(formatDateTime('2027-01-01T03:30:00Z', NY)).toBe('Thu, Dec 31, 10:30 PM EST');
    expect(formatDateTime('2027-01-01T03:30:00Z', 'UTC')).toBe('Fri, Jan 1, 3:30 AM UTC');
  });

  it('says "—" for a time that is not one', () => {
    expect(formatDateTime('not a date', NY)).toBe('—');
  });
});

describe('names', () => {
  it('never greets anyone as "User"', () => {
    expect(displayName('User', 'diane.foster@demo-dealer.com')).toBe('diane.foster');
    expect(displayName('  ', 'marcus@x.com')).toBe('marcus');
    expect(displayName('Marcus Reed', 'marcus@x.com')).toBe('Marcus Reed');
    expect(hasDefaultName('User')).toBe(true);
    expect(hasDefaultName('Usher')).toBe(false);
  });

  it('makes up to two initials', () => {
    expect(initials('Diane Foster', 'd@x.com')).toBe('DF');
    expect(initials('Cher', 'c@x.com')).toBe('C');
    expect(initials('Mary Ann van Dyke', 'm@x.com')).toBe('MD');
    expect(initials('User', 'marcus.reed@x.com')).toBe('MR');
    expect(initials('User', '')).toBe('?');
  });
});

describe('samePeriodBefore', () => {
  const row = (date: string, gross = 100_000, commission = 10_000) => ({ date, frontGrossCents: gross, commissionCents: commission });
  const rows = [row('2026-10-01'), row('2026-10-20'), row('2026-10-21'), row('2025-11-20'), row('2025-11-21'), row('2025-01-01'), row('2026-11-02')];

  it('takes the first days of last month up to the same day, and last year up to the same date', () => {
    const { lastMonth, lastYear } = samePeriodBefore(rows, '2026-11-20');
    expect(lastMonth.units).toBe(2);
    expect(lastMonth.grossCents).toBe(200_000);
    expect(lastYear.units).toBe(2);
  });

  it('stops at the end of a shorter month and wraps January to December', () => {
    expect(samePeriodBefore([row('2026-02-28'), row('2026-03-01')], '2026-03-31').lastMonth.units).toBe(1);
    expect(samePeriodBefore([row('2025-12-15'), row('2025-12-16')], '2026-01-15').lastMonth.units).toBe(1);
    expect(samePeriodBefore([row('2027-02-28')], '2028-02-29').lastYear.units).toBe(1);
  });
});

describe('change', () => {
  it('says how a figure moved against the one before', () => {
    expect(change(120, 100)).toEqual({ text: '+20%', direction: 'up' });
    expect(change(50, 100)).toEqual({ text: '−50%', direction: 'down' });
    expect(change(7, 7)).toEqual({ text: 'same', direction: 'flat' });
    expect(change(3, 0)).toEqual({ text: 'new', direction: 'up' });
    expect(change(1001, 1000)).toEqual({ text: '+<1%', direction: 'up' });
  });
});
