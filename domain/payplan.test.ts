import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { commissionFor, roundDiv } from './commission';
import { DEFAULT_PAY_PLAN, MAX_TIERS, effectiveFromError, planOn, tierWords, type DatedPlan, type PayPlan } from './payplan';
import { payPlanChangeSchema, payPlanSchema } from './payplan-schema';

/** The specification's table as commission.ts had it in code before pay plans: the oracle. */
function oldCommission(frontGrossCents: number, split: 'full' | 'half') {
  const t = (() => {
    if (frontGrossCents <= 0) return { type: 'flat', percent: null, flat: 0 } as const;
    if (frontGrossCents < 1000_00) return { type: 'flat', percent: null, flat: 75 } as const;
    if (frontGrossCents < 1701_00) return { type: 'flat', percent: null, flat: 100 } as const;
    if (frontGrossCents < 2000_00) return { type: 'percent', percent: 25, flat: null } as const;
    if (frontGrossCents < 3000_00) return { type: 'percent', percent: 30, flat: null } as const;
    return { type: 'percent', percent: 35, flat: null } as const;
  })();
  const halves = split === 'half' ? 1 : 2;
  const commissionCents = t.type === 'flat' ? roundDiv(t.flat * 100 * halves, 2) : roundDiv(frontGrossCents * t.percent * halves, 200);
  return { commissionCents, plan: { ...t, split: split === 'half' ? 0.5 : 1 } };
}

const raised: PayPlan = {
  tiers: [
    { fromCents: 0, type: 'flat', flat: 150 },
    { fromCents: 1500_00, type: 'percent', percent: 28 },
    { fromCents: 2500_00, type: 'percent', percent: 40 },
  ],
  splitPercent: 40,
};

describe('the default plan', () => {
  it('pays exactly what the old table paid, for every front gross and split', () => {
    const cents = fc.oneof(
      fc.integer({ min: -1e6, max: 1e11 }),
      fc.integer({ min: 99_000, max: 301_000 }),
      fc.constantFrom(0, 1, 99999, 100000, 170099, 170100, 199999, 200000, 299999, 300000),
    );
    fc.assert(
      fc.property(cents, fc.constantFrom('full' as const, 'half' as const), (c, split) => {
        expect(commissionFor(c, split, DEFAULT_PAY_PLAN)).toEqual(oldCommission(c, split));
      }),
      { numRuns: 5000 },
    );
  });

  it('is a valid plan by its own schema', () => {
    expect(payPlanSchema.parse(DEFAULT_PAY_PLAN)).toEqual(DEFAULT_PAY_PLAN);
  });
});

describe('commission under another plan', () => {
  it.each<[number, 'full' | 'half', number, string]>([
    [0, 'full', 0, 'nothing for $0'],
    [-5000, 'full', 0, 'nothing below $0'],
    [1, 'full', 15000, 'the mini from the first cent'],
    [149999, 'half', 6000, 'the mini, split 40%'],
    [150000, 'full', 42000, '28% at the tier'],
    [249999, 'full', 70000, '28% just below the top tier: 699.9972 rounds up'],
    [250000, 'full', 100000, '40% at the top tier'],
    [250001, 'half', 40000, '40% x 40% = 400.0016 rounds down'],
  ])('%i cents %s pays %i (%s)', (cents, split, want) => {
    expect(commissionFor(cents, split, raised).commissionCents).toBe(want);
  });

  it('a flat tier pays the same whatever the gross inside it; a zero-percent tier pays nothing', () => {
    const plan: PayPlan = {
      tiers: [
        { fromCents: 0, type: 'percent', percent: 0 },
        { fromCents: 500_00, type: 'flat', flat: 200 },
      ],
      splitPercent: 50,
    };
    expect(commissionFor(499_99, 'full', plan)).toEqual({ commissionCents: 0, plan: { type: 'percent', percent: 0, flat: null, split: 1 } });
    expect(commissionFor(500_00, 'half', plan)).toEqual({ commissionCents: 10000, plan: { type: 'flat', percent: null, flat: 200, split: 0.5 } });
    expect(commissionFor(1e11, 'full', plan).commissionCents).toBe(20000);
  });

  it('agrees with exact rational arithmetic under any valid plan', () => {
    const plan = fc
      .record({
        starts: fc.uniqueArray(fc.integer({ min: 1, max: 1e8 }), { maxLength: MAX_TIERS - 1 }),
        pays: fc.array(
          fc.oneof(
            fc.record({ type: fc.constant('flat' as const), v: fc.integer({ min: 0, max: 100_000 }) }),
            fc.record({ type: fc.constant('percent' as const), v: fc.integer({ min: 0, max: 100 }) }),
          ),
          {
            minLength: MAX_TIERS,
            maxLength: MAX_TIERS,
          },
        ),
        splitPercent: fc.integer({ min: 1, max: 100 }),
      })
      .map(({ starts, pays, splitPercent }): PayPlan => {
        const froms = [0, ...starts.sort((a, b) => a - b)];
        return {
          splitPercent,
          tiers: froms.map((fromCents, i) =>
            pays[i].type === 'flat' ? { fromCents, type: 'flat', flat: pays[i].v } : { fromCents, type: 'percent', percent: pays[i].v },
          ),
        };
      });
    fc.assert(
      fc.property(plan, fc.integer({ min: -1e6, max: 1e11 }), fc.constantFrom('full' as const, 'half' as const), (p, cents, split) => {
        expect(payPlanSchema.safeParse(p).success).toBe(true);
        const { commissionCents, plan: applied } = commissionFor(cents, split, p);
        const share = BigInt(split === 'half' ? p.splitPercent : 100);
        // exact value x 10000 in BigInt, rounded half up (all positive)
        const times10000 = applied.type === 'flat' ? BigInt(applied.flat!) * 100n * 100n * share : BigInt(cents) * BigInt(applied.percent!) * share;
        expect(BigInt(commissionCents)).toBe(cents <= 0 ? 0n : (times10000 * 2n + 10000n) / 20000n);
      }),
    );
  });
});

describe('planOn: the plan a sale is paid by', () => {
  const plans: DatedPlan[] = [
    { effectiveFrom: '2026-03-01', plan: raised },
    { effectiveFrom: '2026-06-15', plan: { ...raised, splitPercent: 50 } },
  ];

  it('on the day of a change, the new plan; the day before, the old', () => {
    expect(planOn(plans, '2026-06-14')).toBe(plans[0].plan);
    expect(planOn(plans, '2026-06-15')).toBe(plans[1].plan);
    expect(planOn(plans, '2026-06-16')).toBe(plans[1].plan);
    expect(planOn(plans, '2026-02-28')).toBe(DEFAULT_PAY_PLAN);
    expect(planOn(plans, '2026-03-01')).toBe(raised);
    expect(planOn([], '2026-03-01')).toBe(DEFAULT_PAY_PLAN);
  });

  it('commission of a sale on the day of a change and the day before', () => {
    const gross = 2600_00;
    expect(commissionFor(gross, 'full', planOn(plans, '2026-02-28')).commissionCents).toBe(78000); // 30%
    expect(commissionFor(gross, 'full', planOn(plans, '2026-03-01')).commissionCents).toBe(104000); // 40%
    expect(commissionFor(gross, 'half', planOn(plans, '2026-06-14')).commissionCents).toBe(41600); // 40% of 40%
    expect(commissionFor(gross, 'half', planOn(plans, '2026-06-15')).commissionCents).toBe(52000); // 40% of 50%
  });

  it('of two plans for one day, the later made; the order of the list is not the order of the dates', () => {
    const again = { effectiveFrom: '2026-03-01', plan: DEFAULT_PAY_PLAN };
    expect(planOn([plans[1], plans[0], again], '2026-04-01')).toBe(DEFAULT_PAY_PLAN);
    expect(planOn([plans[1], again, plans[0]], '2026-04-01')).toBe(raised);
    expect(planOn([plans[1], plans[0]], '2026-07-01')).toBe(plans[1].plan);
  });

  it('is the latest plan not after the day, for any schedule', () => {
    const day = fc.integer({ min: 0, max: 400 }).map((n) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.array(day, { maxLength: 8 }), day, (days, d) => {
        const list = days.map((effectiveFrom, i) => ({ effectiveFrom, plan: { ...raised, splitPercent: i + 1 } }));
        const chosen = planOn(list, d);
        const eligible = list.filter((p) => p.effectiveFrom <= d);
        const latest = eligible.reduce<(typeof list)[number] | null>((a, b) => (!a || b.effectiveFrom >= a.effectiveFrom ? b : a), null);
        expect(chosen).toBe(latest ? latest.plan : DEFAULT_PAY_PLAN);
      }),
    );
  });
});

describe('a plan a manager sends', () => {
  const ok = {
    effectiveFrom: '2026-07-01',
    splitPercent: 50,
    tiers: [
      { fromCents: 0, type: 'flat', flat: 75 },
      { fromCents: 2000_00, type: 'percent', percent: 30 },
    ],
  };
  const message = (v: unknown) => {
    const r = payPlanChangeSchema.safeParse(v);
    return r.success ? null : r.error.issues[0].message;
  };

  it('reads a good plan', () => {
    expect(payPlanChangeSchema.parse(ok)).toEqual({
      effectiveFrom: '2026-07-01',
      plan: {
        splitPercent: 50,
        tiers: [
          { fromCents: 0, type: 'flat', flat: 75 },
          { fromCents: 200000, type: 'percent', percent: 30 },
        ],
      },
    });
  });

  it.each<[string, unknown, string]>([
    ['no tiers', { ...ok, tiers: [] }, 'A pay plan needs at least one tier'],
    [
      'too many tiers',
      { ...ok, tiers: Array.from({ length: 13 }, (_, i) => ({ fromCents: i * 100, type: 'flat', flat: 1 })) },
      'A pay plan has at most 12 tiers',
    ],
    ['a first tier above $0', { ...ok, tiers: [{ fromCents: 100, type: 'flat', flat: 75 }] }, 'The first tier must start at $0'],
    [
      'tiers going down',
      { ...ok, tiers: [ok.tiers[0], { fromCents: 500_00, type: 'flat', flat: 1 }, { fromCents: 400_00, type: 'flat', flat: 1 }] },
      'Tier 3 must start above tier 2 ($500.00): tiers go up',
    ],
    ['two tiers at one gross', { ...ok, tiers: [ok.tiers[0], { fromCents: 0, type: 'flat', flat: 1 }] }, 'Tier 2 must start above tier 1 ($0.00): tiers go up'],
    [
      'a percent over 100',
      { ...ok, tiers: [ok.tiers[0], { fromCents: 1, type: 'percent', percent: 101 }] },
      "Tier 2's percent must be a whole number from 0 to 100",
    ],
    ['a negative percent', { ...ok, tiers: [{ fromCents: 0, type: 'percent', percent: -1 }] }, "Tier 1's percent must be a whole number from 0 to 100"],
    ['a fraction of a percent', { ...ok, tiers: [{ fromCents: 0, type: 'percent', percent: 2.5 }] }, "Tier 1's percent must be a whole number from 0 to 100"],
    ['a negative amount', { ...ok, tiers: [{ fromCents: 0, type: 'flat', flat: -75 }] }, "Tier 1's flat amount must be whole dollars from $0 to $100,000"],
    ['an amount in cents', { ...ok, tiers: [{ fromCents: 0, type: 'flat', flat: 75.5 }] }, "Tier 1's flat amount must be whole dollars from $0 to $100,000"],
    ['a flat tier with no amount', { ...ok, tiers: [{ fromCents: 0, type: 'flat' }] }, "Tier 1's flat amount must be whole dollars from $0 to $100,000"],
    ['both amount and percent', { ...ok, tiers: [{ fromCents: 0, type: 'flat', flat: 75, percent: 3 }] }, 'Tier 1 pays a flat amount or a percent, not both'],
    [
      'a start in fractions of a cent',
      { ...ok, tiers: [ok.tiers[0], { fromCents: 1.5, type: 'flat', flat: 1 }] },
      'Tier 2 must start at whole cents from $0 to $1,000,000,000.00',
    ],
    ['a start as text', { ...ok, tiers: [{ fromCents: '0', type: 'flat', flat: 75 }] }, 'Each tier must start at a front gross in cents'],
    ['an unknown kind', { ...ok, tiers: [{ fromCents: 0, type: 'bonus', flat: 75 }] }, 'Each tier pays a flat amount or a percent'],
    ['a split of 0', { ...ok, splitPercent: 0 }, 'A split deal must pay a whole percent from 1 to 100 of a full one'],
    ['a split over 100', { ...ok, splitPercent: 150 }, 'A split deal must pay a whole percent from 1 to 100 of a full one'],
    ['no date', { ...ok, effectiveFrom: undefined }, 'Effective from must be a date like 2026-07-01'],
    ['a date that is none', { ...ok, effectiveFrom: '2026-02-30' }, 'Effective from must be a date like 2026-07-01'],
  ])('refuses %s', (_, v, msg) => {
    expect(message(v)).toBe(msg);
  });

  it('refuses an unknown field (the server names it)', () => {
    const r = payPlanChangeSchema.safeParse({ ...ok, commission: 5 });
    expect(r.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['commission'] });
  });

  it('may take effect today or later, never before', () => {
    expect(effectiveFromError('2026-07-01', '2026-07-01')).toBeNull();
    expect(effectiveFromError('2026-07-02', '2026-07-01')).toBeNull();
    expect(effectiveFromError('2026-06-30', '2026-07-01')).toMatch(/today or later/);
  });
});

describe('tierWords', () => {
  it('reads each tier of the default plan', () => {
    expect(DEFAULT_PAY_PLAN.tiers.map((_, i) => tierWords(DEFAULT_PAY_PLAN, i))).toEqual([
      { range: 'Up to $999.99', pays: '$75' },
      { range: '$1,000.00 – $1,700.99', pays: '$100' },
      { range: '$1,701.00 – $1,999.99', pays: '25%' },
      { range: '$2,000.00 – $2,999.99', pays: '30%' },
      { range: '$3,000.00 and up', pays: '35%' },
    ]);
    expect(tierWords({ tiers: [{ fromCents: 0, type: 'percent', percent: 20 }], splitPercent: 50 }, 0)).toEqual({
      range: 'Any front gross',
      pays: '20%',
    });
  });
});
