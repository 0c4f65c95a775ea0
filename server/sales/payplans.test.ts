import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { dayKey } from '../../domain/time';
import { DEFAULT_PAY_PLAN } from '../../domain/payplan';
import { addStore } from '../stores/service';
import { insertUser } from '../users/repo';

/** `day` moved by `n` days (calendar days, as the store's clock names them). */
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Pays more: a $150 mini, 28% from $1,500, 40% from $2,500; a split deal pays 40%. */
const RAISED = {
  tiers: [
    { fromCents: 0, type: 'flat', flat: 150 },
    { fromCents: 1500_00, type: 'percent', percent: 28 },
    { fromCents: 2500_00, type: 'percent', percent: 40 },
  ],
  splitPercent: 40,
};

describe.each(DIALECTS)('pay plans on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let ann: string;
  let today: string;
  let yesterday: string;

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    ann = await t.signIn('ann@dealer.test');
    today = dayKey(new Date(), t.config.APP_TIMEZONE);
    yesterday = shift(today, -1);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('sales').execute();
    await t.db.deleteFrom('pay_plans').execute();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie: string, payload?: unknown, store?: string) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: { cookie, ...(store ? { 'x-store': store } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const sell = async (date: string, frontGross: string, split: 'full' | 'half' = 'full') => {
    const r = await call('POST', '/sales', ann, { date, vehicleType: 'new', frontGross, split });
    expect(r.statusCode, r.body).toBe(201);
    return r.json<{ id: number; commissionCents: number; planLabel: string }>();
  };
  const stored = async () => (await t.db.selectFrom('sales').selectAll().orderBy('id').execute()).map((r) => ({ ...r, plan_split: Number(r.plan_split) }));
  const setPlan = (effectiveFrom: string, plan: object = RAISED, cookie = boss) => call('POST', '/payplans', cookie, { effectiveFrom, ...plan });

  it('before any change, every store pays the specification table, and everyone may read it', async () => {
    for (const cookie of [ann, boss]) {
      const r = await call('GET', '/payplans', cookie);
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ today, current: { effectiveFrom: null, plan: DEFAULT_PAY_PLAN }, plans: [], can: { change: cookie === boss } });
    }
    expect((await sell(today, '2500')).commissionCents).toBe(75000);
  });

  it('a plan change leaves past commission unchanged; a sale dated the day of the change is paid by the new plan', async () => {
    const before = [await sell(yesterday, '2600'), await sell(today, '2600'), await sell(yesterday, '999', 'half')];
    expect(before.map((s) => [s.commissionCents, s.planLabel])).toEqual([
      [78000, '30%'],
      [78000, '30%'],
      [3750, 'Mini $75 · 50/50'],
    ]);
    const rowsBefore = await stored();

    const r = await setPlan(today);
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({
      current: { effectiveFrom: today, plan: RAISED },
      plans: [{ effectiveFrom: today, state: 'current', createdByName: expect.any(String) }],
    });

    // Nothing stored changed, today's sale made before the change included.
    expect(await stored()).toEqual(rowsBefore);
    const listed = (await call('GET', '/sales', ann)).json<{ sales: { id: number; commissionCents: number; planLabel: string }[] }>().sales;
    expect(Object.fromEntries(listed.map((s) => [s.id, s.commissionCents]))).toEqual(Object.fromEntries(before.map((s) => [s.id, s.commissionCents])));

    // The day of the change: the new plan. The day before: the old one.
    expect(await sell(today, '2600')).toMatchObject({ commissionCents: 104000, planLabel: '40%' });
    expect(await sell(today, '999', 'half')).toMatchObject({ commissionCents: 6000, planLabel: 'Mini $150 · split 40%' });
    expect(await sell(yesterday, '2600')).toMatchObject({ commissionCents: 78000, planLabel: '30%' });
    const last = (await stored()).at(-1);
    expect(last).toMatchObject({ plan_type: 'percent', plan_percent: 30, plan_split: 1, commission_cents: 78000 });
  });

  it('a corrected sale is paid by the plan in force on its date, the new date when it moves', async () => {
    await setPlan(today);
    const old = await sell(yesterday, '2600');
    expect(old.commissionCents).toBe(78000);
    // Still dated before the change: the old plan, on the corrected gross.
    const fixed = await call('PATCH', `/sales/${old.id}`, ann, { frontGross: '3000' });
    expect(fixed.json()).toMatchObject({ commissionCents: 105000, planLabel: '35%' });
    // Moved to the day of the change: the new plan.
    const moved = await call('PATCH', `/sales/${old.id}`, ann, { date: today });
    expect(moved.json()).toMatchObject({ commissionCents: 120000, planLabel: '40%' });
    // And back.
    const back = await call('PATCH', `/sales/${old.id}`, ann, { date: yesterday, split: 'half' });
    expect(back.json()).toMatchObject({ commissionCents: 52500, planLabel: '35% · 50/50' });
  });

  it('a plan from a later day pays nothing until then; a second plan for one day replaces the first', async () => {
    const tomorrow = shift(today, 1);
    expect((await setPlan(tomorrow)).statusCode).toBe(201);
    expect((await sell(today, '2600')).commissionCents).toBe(78000);
    const r = await call('GET', '/payplans', ann);
    expect(r.json()).toMatchObject({
      current: { effectiveFrom: null, plan: DEFAULT_PAY_PLAN },
      plans: [{ effectiveFrom: tomorrow, state: 'upcoming', plan: RAISED }],
    });

    const flat = { tiers: [{ fromCents: 0, type: 'flat', flat: 200 }], splitPercent: 50 };
    expect((await setPlan(today, flat)).statusCode).toBe(201);
    expect((await sell(today, '2600')).commissionCents).toBe(20000);
    const again = { tiers: [{ fromCents: 0, type: 'flat', flat: 250 }], splitPercent: 50 };
    const replaced = await setPlan(today, again);
    expect(replaced.json()).toMatchObject({
      current: { effectiveFrom: today, plan: again },
      plans: [
        { effectiveFrom: tomorrow, state: 'upcoming' },
        { effectiveFrom: today, state: 'current', plan: again },
      ],
    });
    expect(replaced.json().plans).toHaveLength(2);
    expect((await sell(today, '2600')).commissionCents).toBe(25000);
    expect((await stored()).map((s) => s.commission_cents)).toEqual([78000, 20000, 25000]);
  });

  it('only a manager changes the plan; a salesman is refused and nothing is stored', async () => {
    const r = await setPlan(today, RAISED, ann);
    expect(r.statusCode).toBe(403);
    const anon = await t.app.inject({ method: 'POST', url: '/api/payplans', payload: { effectiveFrom: today, ...RAISED } });
    expect(anon.statusCode).toBe(401);
    expect(await t.db.selectFrom('pay_plans').selectAll().execute()).toEqual([]);
  });

  it('bad input is a 400 that says what is wrong, and stores nothing', async () => {
    const tier = RAISED.tiers;
    const cases: [unknown, string][] = [
      [{ ...RAISED, effectiveFrom: yesterday }, 'Effective from must be today or later: a new plan never changes the commission of sales already made'],
      [{ ...RAISED, effectiveFrom: '2026-13-01' }, 'Effective from must be a date like 2026-07-01'],
      [{ ...RAISED }, 'Effective from must be a date like 2026-07-01'],
      [{ effectiveFrom: today, ...RAISED, tiers: [] }, 'A pay plan needs at least one tier'],
      [{ effectiveFrom: today, ...RAISED, tiers: [tier[1]] }, 'The first tier must start at $0'],
      [{ effectiveFrom: today, ...RAISED, tiers: [tier[0], tier[2], tier[1]] }, 'Tier 3 must start above tier 2 ($2,500.00): tiers go up'],
      [{ effectiveFrom: today, ...RAISED, tiers: [tier[0], { ...tier[1], percent: 120 }] }, "Tier 2's percent must be a whole number from 0 to 100"],
      [{ effectiveFrom: today, ...RAISED, tiers: [{ ...tier[0], flat: -1 }] }, "Tier 1's flat amount must be whole dollars from $0 to $100,000"],
      [
        { effectiveFrom: today, ...RAISED, tiers: Array.from({ length: 13 }, (_, i) => ({ fromCents: i, type: 'flat', flat: 1 })) },
        'A pay plan has at most 12 tiers',
      ],
      [
        { effectiveFrom: today, ...RAISED, tiers: Array.from({ length: 500 }, (_, i) => ({ fromCents: i, type: 'flat', flat: 1 })) },
        'A pay plan has at most 12 tiers',
      ],
      [{ effectiveFrom: today, ...RAISED, splitPercent: 0 }, 'A split deal must pay a whole percent from 1 to 100 of a full one'],
      [{ effectiveFrom: today, ...RAISED, tiers: 'lots' }, 'Tiers must be a list'],
      [{ effectiveFrom: today, ...RAISED, tiers: [null] }, 'Each tier must be an object with fromCents, type and flat or percent'],
      [{ effectiveFrom: today, ...RAISED, bonus: 1 }, 'Unknown field: bonus'],
      [{ effectiveFrom: `${today}\u0000`, ...RAISED }, 'Text must be valid Unicode (UTF-8) without NUL characters.'],
      [[], 'Invalid request body'],
    ];
    for (const [body, message] of cases) {
      const r = await call('POST', '/payplans', boss, body);
      expect(r.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.json().error, JSON.stringify(body).slice(0, 80)).toBe(message);
    }
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/payplans',
      headers: { cookie: boss, 'content-type': 'application/json' },
      payload: '{"effectiveFrom":',
    });
    expect(raw.statusCode).toBe(400);
    expect(await t.db.selectFrom('pay_plans').selectAll().execute()).toEqual([]);
  });

  it("a store's plan pays that store's sales only", async () => {
    const other = await addStore(t.dbh, { name: `Other ${dialect}`, code: dialect === 'sqlite' ? 'OTS' : 'OTP', timezone: t.config.APP_TIMEZONE });
    await insertUser(t.db, { email: `rep.${dialect}@dealer.test`, name: 'Other Rep', role: 'staff', stores: [other.id], onDuty: true });
    const rep = await t.signIn(`rep.${dialect}@dealer.test`);
    expect((await setPlan(today, RAISED, boss)).statusCode).toBe(201);
    const there = await call('POST', '/sales', rep, { date: today, vehicleType: 'new', frontGross: '2600', split: 'full' }, other.code);
    expect(there.json()).toMatchObject({ commissionCents: 78000 });
    expect((await call('GET', '/payplans', rep, undefined, other.code)).json()).toMatchObject({ current: { effectiveFrom: null }, plans: [] });
    expect((await sell(today, '2600')).commissionCents).toBe(104000);
  });
});
