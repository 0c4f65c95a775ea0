import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { commissionFor, planLabel, parseMoneyToCents, formatCents, roundDiv, type Plan } from './commission';
import { DEFAULT_PAY_PLAN } from './payplan';

const flat = (amount: number, split = 1): Plan => ({ type: 'flat', percent: null, flat: amount, split });
const pct = (percent: number, split = 1): Plan => ({ type: 'percent', percent, flat: null, split });

describe('commissionFor at every tier boundary', () => {
  it.each<[number, number, number, Plan]>([
    // front gross cents, full, half, plan (full)
    [-100, 0, 0, flat(0)],
    [0, 0, 0, flat(0)],
    [1, 7500, 3750, flat(75)],
    [99999, 7500, 3750, flat(75)],
    [100000, 10000, 5000, flat(100)],
    [170099, 10000, 5000, flat(100)],
    [170100, 42525, 21263, pct(25)],
    [199999, 50000, 25000, pct(25)],
    [200000, 60000, 30000, pct(30)],
    [299999, 90000, 45000, pct(30)],
    [300000, 105000, 52500, pct(35)],
    [1e9, 3.5e8, 1.75e8, pct(35)],
  ])('%i cents gives %i full and %i half', (cents, full, half, plan) => {
    expect(commissionFor(cents, 'full', DEFAULT_PAY_PLAN)).toEqual({ commissionCents: full, plan });
    expect(commissionFor(cents, 'half', DEFAULT_PAY_PLAN)).toEqual({ commissionCents: half, plan: { ...plan, split: 0.5 } });
  });

  it('rounds half a cent up, with no float drift', () => {
    // 1701.01 x 25% x 0.5 = 212.62625
    expect(commissionFor(170101, 'half', DEFAULT_PAY_PLAN).commissionCents).toBe(21263);
    // 1701.02 x 25% = 425.255
    expect(commissionFor(170102, 'full', DEFAULT_PAY_PLAN).commissionCents).toBe(42526);
    // 2000.15 x 30% = 600.045, which rounding 2000.15 * 0.3 in floating point makes 600.04
    expect(commissionFor(200015, 'full', DEFAULT_PAY_PLAN).commissionCents).toBe(60005);
    // 2000.30 x 30% x 0.5 = 300.045
    expect(commissionFor(200030, 'half', DEFAULT_PAY_PLAN).commissionCents).toBe(30005);
    // 2000.05 x 30% = 600.015
    expect(commissionFor(200005, 'full', DEFAULT_PAY_PLAN).commissionCents).toBe(60002);
    // 3000.20 x 35% x 0.5 = 525.035
    expect(commissionFor(300020, 'half', DEFAULT_PAY_PLAN).commissionCents).toBe(52504);
    // 2000.03 x 30% = 600.009, below the half
    expect(commissionFor(200003, 'full', DEFAULT_PAY_PLAN).commissionCents).toBe(60001);
  });

  it('refuses anything that is not whole cents', () => {
    expect(() => commissionFor(1.5, 'full', DEFAULT_PAY_PLAN)).toThrow(RangeError);
    expect(() => commissionFor(NaN, 'full', DEFAULT_PAY_PLAN)).toThrow(RangeError);
  });

  it('agrees with exact rational arithmetic and never decreases as gross grows', () => {
    const cents = fc.integer({ min: -1e6, max: 1e11 });
    fc.assert(
      fc.property(cents, cents, fc.constantFrom('full' as const, 'half' as const), (a, b, split) => {
        const { commissionCents, plan } = commissionFor(a, split, DEFAULT_PAY_PLAN);
        const share = BigInt(split === 'half' ? 1 : 2);
        // exact value times 200, then rounded half up in BigInt
        const times200 = plan.type === 'flat' ? BigInt(plan.flat! * 100 * 100) * share : BigInt(a) * BigInt(plan.percent!) * share;
        expect(BigInt(commissionCents)).toBe((times200 * 2n + 200n) / 400n);

        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(commissionFor(lo, split, DEFAULT_PAY_PLAN).commissionCents).toBeLessThanOrEqual(commissionFor(hi, split, DEFAULT_PAY_PLAN).commissionCents);
      }),
    );
  });
});

describe('roundDiv', () => {
  it.each([
    [5, 10, 1],
    [4, 10, 0],
    [15, 10, 2],
    [-5, 10, -1],
    [-4, 10, 0],
    [-15, 10, -2],
    [20, 10, 2],
    [0, 7, 0],
  ])('%i / %i rounds to %i', (n, d, q) => {
    expect(roundDiv(n, d)).toBe(q);
  });
});

describe('planLabel', () => {
  it.each<[Plan, string]>([
    [flat(75), 'Mini $75'],
    [flat(100), 'Mini $100'],
    [flat(75, 0.5), 'Mini $75 · 50/50'],
    [flat(0), '—'],
    [flat(0, 0.5), '—'],
    [pct(25), '25%'],
    [pct(30), '30%'],
    [pct(35, 0.5), '35% · 50/50'],
    [pct(30, 0.4), '30% · split 40%'],
  ])('%o reads %s', (plan, label) => {
    expect(planLabel(plan)).toBe(label);
  });
});

describe('parseMoneyToCents', () => {
  it.each<[string | number, number]>([
    ['1,234.56', 123456],
    ['$1234.5', 123450],
    ['1500', 150000],
    ['  1500.50 ', 150050],
    ['.5', 50],
    ['5.', 500],
    ['0', 0],
    ['-0', 0],
    ['-500', -50000],
    ['-$1,000.25', -100025],
    ['$-7', -700],
    ['1,000,000', 100000000],
    ['1000000000', 100000000000],
    [1234.56, 123456],
    [0.1, 10],
    [-2.5, -250],
    [1e9, 1e11],
  ])('%s is %i cents', (input, cents) => {
    expect(parseMoneyToCents(input)).toBe(cents);
  });

  it.each<string | number>([
    '',
    '   ',
    '$',
    '.',
    '-',
    'abc',
    '12abc',
    '1.234',
    '1,23',
    '12,3456',
    '1 000',
    '--5',
    '+5',
    '1e3',
    '1000000000.01',
    '99999999999999999999',
    NaN,
    Infinity,
    -Infinity,
    1.005,
    0.1 + 0.2,
    1e21,
  ])('%s is rejected', (input) => {
    expect(parseMoneyToCents(input)).toBeNull();
  });

  it('round-trips every whole-cent amount through formatCents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e11, max: 1e11 }), (cents) => {
        expect(parseMoneyToCents(formatCents(cents))).toBe(cents);
        expect(parseMoneyToCents(cents / 100)).toBe(cents);
      }),
    );
  });
});

describe('formatCents', () => {
  it.each([
    [123456, '$1,234.56'],
    [0, '$0.00'],
    [5, '$0.05'],
    [100, '$1.00'],
    [99999, '$999.99'],
    [100000000, '$1,000,000.00'],
    [-123456, '-$1,234.56'],
  ])('%i cents reads %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });
});
