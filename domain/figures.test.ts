import { describe, it, expect } from 'vitest';
import { salesFigures, dailyCommission, monthlyGross, type SaleRow } from './figures';

const sale = (date: string, frontGrossCents: number, commissionCents: number): SaleRow => ({
  date,
  frontGrossCents,
  commissionCents,
});

const rows = [
  sale('2025-12-31', 500000, 175000), // last year
  sale('2026-01-15', 100000, 10000),
  sale('2026-02-28', 250000, 75000),
  sale('2026-03-01', 50000, 7500),
  sale('2026-03-10', -20000, 0),
  sale('2026-03-10', 180000, 45000),
  sale('2026-03-11', 300000, 105000), // after "today"
];

describe('salesFigures', () => {
  it('counts month and year to date, leaving out other years and future dates', () => {
    const f = salesFigures(rows, '2026-03-10');
    expect(f.mtd).toEqual({ units: 3, grossCents: 210000, commissionCents: 52500 });
    expect(f.ytd).toEqual({ units: 5, grossCents: 560000, commissionCents: 137500 });
    // 52500 / 10 days x 31 days
    expect(f.monthProjectionCents).toBe(162750);
    // 137500 / day 69 x 365 = 727355.07...
    expect(f.yearProjectionCents).toBe(727355);
  });

  it('projects the whole month from its first day', () => {
    const f = salesFigures(rows, '2026-03-01');
    expect(f.mtd).toEqual({ units: 1, grossCents: 50000, commissionCents: 7500 });
    expect(f.monthProjectionCents).toBe(7500 * 31);
    // 92500 / day 60 x 365 = 562708.33...
    expect(f.yearProjectionCents).toBe(562708);
  });

  it('projects the month as it stands on its last day', () => {
    const f = salesFigures(rows, '2026-02-28');
    expect(f.mtd.commissionCents).toBe(75000);
    expect(f.monthProjectionCents).toBe(75000);
  });

  it('handles 29 February of a leap year', () => {
    const f = salesFigures([sale('2024-02-29', 200000, 60000), sale('2024-01-10', 100, 7500)], '2024-02-29');
    expect(f.mtd.commissionCents).toBe(60000);
    expect(f.monthProjectionCents).toBe(60000);
    // 67500 / day 60 x 365 = 410625
    expect(f.yearProjectionCents).toBe(410625);
  });

  it('divides by 366 on 31 December of a leap year, still times 365', () => {
    const f = salesFigures([sale('2024-12-31', 300000, 36600)], '2024-12-31');
    expect(f.ytd.commissionCents).toBe(36600);
    expect(f.yearProjectionCents).toBe(36500);
    expect(f.monthProjectionCents).toBe(36600);
  });

  it('rounds projections to the nearest cent, halves up', () => {
    // 1 cent / day 2 x 31 days = 15.5 cents
    expect(salesFigures([sale('2026-01-01', 1, 1)], '2026-01-02').monthProjectionCents).toBe(16);
    // 10 cents / day 3 x 31 days = 103.33 cents
    expect(salesFigures([sale('2026-01-01', 1, 10)], '2026-01-03').monthProjectionCents).toBe(103);
  });

  it('is all zeros without sales', () => {
    const zero = { units: 0, grossCents: 0, commissionCents: 0 };
    expect(salesFigures([], '2026-07-04')).toEqual({
      mtd: zero,
      ytd: zero,
      monthProjectionCents: 0,
      yearProjectionCents: 0,
    });
  });
});

describe('dailyCommission', () => {
  it('has one point per day of the month up to today, in dollars', () => {
    const points = dailyCommission(rows, '2026-03-10');
    expect(points).toHaveLength(10);
    expect(points[0]).toEqual({ day: '2026-03-01', commission: 75 });
    expect(points[1]).toEqual({ day: '2026-03-02', commission: 0 });
    expect(points[9]).toEqual({ day: '2026-03-10', commission: 450 });
  });

  it('has a single point on the first of the month', () => {
    expect(dailyCommission(rows, '2026-03-01')).toEqual([{ day: '2026-03-01', commission: 75 }]);
  });

  it('covers every day through the last of the month', () => {
    const points = dailyCommission(rows, '2024-02-29');
    expect(points).toHaveLength(29);
    expect(points.at(-1)?.day).toBe('2024-02-29');
  });
});

describe('monthlyGross', () => {
  it('has one bar per month from January to this month, in dollars', () => {
    expect(monthlyGross(rows, '2026-03-10')).toEqual([
      { month: 'Jan', gross: 1000 },
      { month: 'Feb', gross: 2500 },
      { month: 'Mar', gross: 2100 },
    ]);
  });

  it('has a single bar in January and twelve in December', () => {
    expect(monthlyGross(rows, '2026-01-01')).toEqual([{ month: 'Jan', gross: 0 }]);
    const year = monthlyGross([sale('2025-12-31', 500000, 0)], '2025-12-31');
    expect(year.map((b) => b.month)).toEqual(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);
    expect(year[11].gross).toBe(5000);
  });
});
