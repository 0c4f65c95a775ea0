import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { dayKey } from '../../domain/time';

describe.each(DIALECTS)('sales tracker on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let ann: string;
  let ben: string;
  let annId: string;
  let today: string;

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    ann = await t.signIn('ann@dealer.test');
    ben = await t.signIn('ben@dealer.test');
    annId = (await t.db.selectFrom('users').select('id').where('email', '=', 'ann@dealer.test').executeTakeFirstOrThrow()).id;
    today = dayKey(new Date(), t.config.APP_TIMEZONE);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('sales').execute();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/sales${url}`, headers: { cookie }, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const add = (cookie: string, body: object) => call('POST', '', cookie, { date: today, vehicleType: 'new', split: 'full', ...body });
  const stored = () => t.db.selectFrom('sales').selectAll().orderBy('id').execute();

  it('stores the commission the server computes, with the plan, and ignores a client commission', async () => {
    const r = await add(ann, { frontGross: '2,500.10', split: 'half', commission: 999999, commissionCents: 1, frontGrossCents: 1 });
    expect(r.statusCode).toBe(201);
    // 30% of 2500.10 = 750.03, halved = 375.015 -> 375.02
    expect(r.json()).toMatchObject({ frontGrossCents: 250010, commissionCents: 37502, planLabel: '30% · 50/50', split: 'half' });
    const [row] = await stored();
    expect(row).toMatchObject({
      front_gross_cents: 250010,
      commission_cents: 37502,
      plan_type: 'percent',
      plan_percent: 30,
      plan_flat: null,
      plan_split: 0.5,
      vehicle_type: 'new',
      rep_name: 'User',
    });
    const flat = await add(ann, { frontGross: 999.99, vehicleType: 'used' });
    expect(flat.json()).toMatchObject({ commissionCents: 7500, planLabel: 'Mini $75', vehicleType: 'used' });
    const none = await add(ann, { frontGross: '-250' });
    expect(none.json()).toMatchObject({ commissionCents: 0, frontGrossCents: -25000 });
  });

  it('lists own sales newest first with figures and chart series for today in the dealership zone', async () => {
    const first = `${today.slice(0, 8)}01`;
    await add(ann, { frontGross: '1000', date: first });
    await add(ann, { frontGross: '3000' });
    await add(ann, { frontGross: '5000', date: '2000-06-15' });
    await add(ben, { frontGross: '4000' });
    const r = await call('GET', '', ann);
    expect(r.statusCode).toBe(200);
    const v = r.json();
    expect(v.today).toBe(today);
    expect(v.readOnly).toBe(false);
    expect(v.salesmen).toBeUndefined();
    expect(v.sales.map((s: any) => s.date)).toEqual(first === today ? [today, today, '2000-06-15'] : [today, first, '2000-06-15']);
    expect(v.sales[0]).toMatchObject({ frontGrossCents: 300000, commissionCents: 105000, planLabel: '35%' });
    expect(v.figures.mtd).toEqual({ units: 2, grossCents: 400000, commissionCents: 115000 });
    expect(v.figures.ytd.units).toBe(2);
    const day = Number(today.slice(8));
    expect(v.daily).toHaveLength(day);
    expect(v.daily.at(-1)).toEqual({ day: today, commission: first === today ? 1150 : 1050 });
    expect(v.monthly).toHaveLength(Number(today.slice(5, 7)));
    expect(v.monthly.at(-1).gross).toBe(4000);
  });

  it('lets a manager view anyone read-only, and refuses staff another tracker', async () => {
    await add(ann, { frontGross: '1800' });
    const seen = await call('GET', `?user=${annId}`, boss);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ readOnly: true, owner: { id: annId, email: 'ann@dealer.test' } });
    expect(seen.json().sales).toHaveLength(1);
    expect(seen.json().salesmen.map((u: any) => u.email)).toContain('ann@dealer.test');
    const denied = await call('GET', `?user=${annId}`, ben);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe('You can only see your own sales.');
    expect((await call('GET', `/export.csv?user=${annId}`, ben)).statusCode).toBe(403);
    expect((await call('GET', '?user=nobody', boss)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/sales' })).statusCode).toBe(401);
  });

  it('lets only the owner correct or delete a sale, recomputing the commission', async () => {
    const id = (await add(ann, { frontGross: '1500' })).json().id;
    const fixed = await call('PATCH', `/${id}`, ann, { frontGross: '2000', commissionCents: 5 });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json()).toMatchObject({ frontGrossCents: 200000, commissionCents: 60000, planLabel: '30%', date: today, vehicleType: 'new' });

    for (const cookie of [ben, boss]) {
      const patch = await call('PATCH', `/${id}`, cookie, { frontGross: '1' });
      expect(patch.statusCode).toBe(403);
      expect(patch.json().error).toBe('You can only change your own sales.');
      expect((await call('DELETE', `/${id}`, cookie)).statusCode).toBe(403);
    }
    expect((await stored())[0]).toMatchObject({ front_gross_cents: 200000, commission_cents: 60000 });

    expect((await call('PATCH', '/999999', ann, { frontGross: '1' })).statusCode).toBe(404);
    expect((await call('DELETE', '/abc', ann)).statusCode).toBe(404);
    const gone = await call('DELETE', `/${id}`, ann);
    expect(gone.statusCode).toBe(200);
    expect(await stored()).toHaveLength(0);
  });

  it.each([
    ['empty', { frontGross: '' }, 'Front gross is required'],
    ['missing', { frontGross: undefined }, 'Front gross is required'],
    ['text', { frontGross: 'lots' }, 'Front gross must be a number like 1500 or 1500.50'],
    ['NaN', { frontGross: 'NaN' }, 'Front gross must be a number like 1500 or 1500.50'],
    ['1e400', { frontGross: '1e400' }, 'Front gross must be a number like 1500 or 1500.50'],
    ['too large', { frontGross: '1000000000000' }, 'Front gross must be a number like 1500 or 1500.50'],
    ['non-existent date', { frontGross: '1500', date: '2026-02-30' }, 'Enter a real date (YYYY-MM-DD)'],
    ['malformed date', { frontGross: '1500', date: '3/4/2026' }, 'Enter a real date (YYYY-MM-DD)'],
    ['vehicle type', { frontGross: '1500', vehicleType: 'boat' }, 'Vehicle type must be new or used'],
    ['split', { frontGross: '1500', split: '70/30' }, 'Split must be full or half'],
  ])('refuses %s input with a clear 400 and stores nothing', async (_name, body, message) => {
    const r = await add(ann, body);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe(message);
    expect(await stored()).toHaveLength(0);
  });

  it("asks before saving a front gross above the store's amount, saves it once he is sure, and asks nothing of a change that leaves the amount", async () => {
    const question = 'Front gross $99,999,999.00 is above $25,000.00. Check the amount, or save it as it is.';
    const asked = await add(ann, { frontGross: '99,999,999' });
    expect(asked.statusCode).toBe(422);
    expect(asked.json()).toMatchObject({ error: question, code: 'check-amount', field: 'frontGross' });
    expect(await stored()).toEqual([]);
    expect((await add(ann, { frontGross: '25000' })).statusCode).toBe(201);
    const sure = await add(ann, { frontGross: '99,999,999', sure: true });
    expect(sure.statusCode).toBe(201);
    // Its date corrected: the amount stands, nothing to ask; a new large amount is asked about again.
    expect((await call('PATCH', `/${sure.json().id}`, ann, { date: `${today.slice(0, 8)}01` })).statusCode).toBe(200);
    expect((await call('PATCH', `/${sure.json().id}`, ann, { frontGross: '30000' })).json()).toMatchObject({ code: 'check-amount' });
    expect((await stored()).map((r) => Number(r.front_gross_cents))).toEqual([2_500_000, 9_999_999_900]);
    // The store sets its amount: from 1,000 dollars; below is refused, not changed.
    expect((await t.app.inject({ method: 'PATCH', url: '/api/rules', headers: { cookie: boss }, payload: { saleCheckAbove: 999 } })).json().error).toBe(
      'The front gross to ask about must be a whole number of dollars from 1,000 to 1,000,000',
    );
    expect((await t.app.inject({ method: 'PATCH', url: '/api/rules', headers: { cookie: boss }, payload: { saleCheckAbove: 100_000 } })).statusCode).toBe(200);
    expect((await add(ann, { frontGross: '99,000' })).statusCode).toBe(201);
    await t.app.inject({ method: 'PATCH', url: '/api/rules', headers: { cookie: boss }, payload: { saleCheckAbove: 25_000 } });
  });

  it('refuses a date after today in the dealership time zone or before 2000, on add and on edit', async () => {
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    for (const [date, message] of [
      ['0001-01-01', 'Date cannot be before 2000.'],
      ['1999-12-31', 'Date cannot be before 2000.'],
      ['9999-12-31', 'Date cannot be in the future.'],
      [tomorrow, 'Date cannot be in the future.'],
    ]) {
      const r = await add(ann, { frontGross: '1500', date });
      expect(r.statusCode, date).toBe(400);
      expect(r.json().error, date).toBe(message);
    }
    expect(await stored()).toHaveLength(0);
    expect((await add(ann, { frontGross: '1500', date: '2000-01-01' })).statusCode).toBe(201);
    const id = (await add(ann, { frontGross: '1500', date: today })).json().id;
    const edit = await call('PATCH', `/${id}`, ann, { date: tomorrow });
    expect(edit.json().error).toBe('Date cannot be in the future.');
    expect((await stored()).map((x) => x.date).sort()).toEqual(['2000-01-01', today]);
  });

  it('refuses a raw 1e400 number, a non-object body, and bad edits, changing nothing', async () => {
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/sales',
      headers: { cookie: ann, 'content-type': 'application/json' },
      payload: `{"date":"${today}","frontGross":1e400}`,
    });
    expect(raw.statusCode).toBe(400);
    expect(raw.json().error).toBe('Front gross must be a number like 1500 or 1500.50');
    expect((await call('POST', '', ann, [1, 2])).statusCode).toBe(400);
    expect(await stored()).toHaveLength(0);

    const id = (await add(ann, { frontGross: '1500' })).json().id;
    for (const body of [{ frontGross: 'abc' }, { date: '2025-13-01' }, ['x']]) {
      expect((await call('PATCH', `/${id}`, ann, body)).statusCode).toBe(400);
    }
    expect((await stored())[0]).toMatchObject({ front_gross_cents: 150000, commission_cents: 10000, date: today });
  });

  it('exports the specified columns, eight in order, as an attachment, neutralising nothing numeric (no Store column for a salesman of one store)', async () => {
    await add(ann, { frontGross: '2500.10', split: 'half', date: '2026-03-02' });
    await add(ann, { frontGross: '-100', vehicleType: 'used', date: '2026-03-01' });
    const r = await call('GET', '/export.csv', ann);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toBe('attachment; filename="sales_records.csv"');
    expect(r.body).toBe(
      'Date,FrontGross,Commission,VehicleType,PlanType,Percent,Flat,Split\r\n' +
        '2026-03-02,2500.1,375.02,new,percent,30,,0.5\r\n' +
        '2026-03-01,-100,0,used,flat,,0,1\r\n',
    );
  });
});
