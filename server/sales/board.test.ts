import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { FIRST_STORE_ID, insertUser } from '../users/repo';
import { addStore } from '../stores/service';
import { BOARD_CSV_HEADER, TEAM_TOTAL } from '../../domain/board';
import type { SalesBoardAnswer } from '../../domain/contract/answers';
import { dayKey, startOfMonth, startOfYear } from '../../domain/time';
import type { Store } from '../../domain/stores';

/**
 * The team sales board: a manager's, in the store he names; a row per salesman of the store with
 * his month and year on its clock; the team's total equals a count straight over the store's
 * sales; another store's sales and leads never count; a salesman is refused, as JSON and as CSV.
 */
describe.each(DIALECTS)('the team sales board on %s', (dialect) => {
  let t: TestApp;
  let north: Store;
  let boss: string;
  let ann: string;
  let today: string;
  const ids: Record<string, string> = {};

  const call = (url: string, cookie: string, store?: string) =>
    t.app.inject({ method: 'GET', url: `/api${url}`, headers: { cookie, ...(store ? { 'x-store': store } : {}) } });
  const board = async (store?: string): Promise<SalesBoardAnswer> => {
    const r = await call('/sales/board', boss, store);
    expect(r.statusCode, r.body).toBe(200);
    return r.json();
  };

  /** A sale stored as the tracker stores one (the columns the board reads). */
  const sale = (store: number, who: string, date: string, gross: number, commission: number) =>
    t.db
      .insertInto('sales')
      .values({
        store_id: store,
        user_id: ids[who],
        rep_name: who,
        date,
        vehicle_type: 'new',
        front_gross_cents: gross,
        plan_type: 'percent',
        plan_percent: 25,
        plan_flat: null,
        plan_split: 1,
        commission_cents: commission,
        created_at: Date.now(),
        created_by: ids[who],
      })
      .execute();
  const lead = (store: number, who: string, at: number, beBack = 0, stage: 'sold' | null = null) =>
    t.db
      .insertInto('leads')
      .values({
        store_id: store,
        customer: `Customer of ${who}`,
        assigned_to: ids[who],
        assigned_to_name: who,
        assigned_by: null,
        assigned_by_name: 'Rotation',
        assigned_at: at,
        status: 'handed',
        follow_up_due: at,
        source: 'walk-in',
        be_back: beBack,
        stage,
        closed: stage ? 1 : 0,
      })
      .execute();

  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000', SIGNIN_LINKS_PER_ADDRESS: '1000' });
    north = await addStore(t.dbh, { name: 'Northside Honda', code: 'NSH', timezone: 'Pacific/Kiritimati' });
    const add = async (name: string, role: string, stores: number[]) =>
      (ids[name] = (await insertUser(t.db, { email: `${name.toLowerCase()}@dealer.test`, name, role, stores, onDuty: true })).id);
    await add('Ann', 'staff', [FIRST_STORE_ID]);
    await add('Ben', 'staff', [FIRST_STORE_ID]);
    await add('Cy', 'staff', [FIRST_STORE_ID]);
    await add('Dora', 'staff', [FIRST_STORE_ID, north.id]);
    await add('Nick', 'staff', [north.id]);
    boss = await t.signIn(MANAGER);
    ann = await t.signIn('ann@dealer.test');
    today = dayKey(new Date(), t.config.APP_TIMEZONE);
    const first = `${today.slice(0, 8)}01`;
    const jan = `${today.slice(0, 5)}01-01`;
    const lastYear = `${Number(today.slice(0, 4)) - 1}-06-15`;
    const main = FIRST_STORE_ID;
    await sale(main, 'Ann', today, 250000, 87500);
    await sale(main, 'Ann', first, 150000, 37500);
    await sale(main, 'Ann', jan, 100000, 25000);
    await sale(main, 'Ann', lastYear, 900000, 315000);
    await sale(main, 'Ann', '2999-01-01', 500000, 175000); // after today: never counted
    await sale(main, 'Ben', today, 80000, 7500);
    await sale(main, 'Dora', first, 300000, 105000);
    // Another store's sales, by its own salesman and by one of both stores: never on this board.
    await sale(north.id, 'Nick', today, 400000, 140000);
    await sale(north.id, 'Dora', first, 200000, 50000);
    // Leads: Ann 4 this month, one of them sold, and a be-back (a lead received as the funnel counts), Ben 1 earlier this year; Dora 3 in the other store.
    const now = Date.now();
    const month = startOfMonth(new Date(), t.config.APP_TIMEZONE).getTime();
    const year = startOfYear(new Date(), t.config.APP_TIMEZONE).getTime();
    for (let i = 0; i < 4; i++) await lead(main, 'Ann', now - i * 1000, 0, i === 0 ? 'sold' : null);
    await lead(main, 'Ann', now, 1);
    await lead(main, 'Ben', year);
    await lead(main, 'Ben', year - 1); // last year
    for (let i = 0; i < 3; i++) await lead(north.id, 'Dora', now);
    expect(month).toBeLessThanOrEqual(now);
  });
  afterAll(async () => {
    t.dbh.pool?.on('error', () => undefined);
    await t.close();
  });

  it('is for managers: a salesman gets 403 as JSON and as CSV, and nobody signed out gets in', async () => {
    for (const url of ['/sales/board', '/sales/board.csv']) {
      const r = await call(url, ann);
      expect(r.statusCode, url).toBe(403);
      expect(r.json().error).toMatch(/manager/i);
      expect((await t.app.inject({ method: 'GET', url: `/api${url}` })).statusCode).toBe(401);
    }
    // A store that is not one (or not his) is 404, a NUL byte 400: never a 500.
    expect((await call('/sales/board', boss, 'NOPE')).statusCode).toBe(404);
    expect((await call('/sales/board.csv?store=NOPE', boss)).statusCode).toBe(404);
    expect((await call('/sales/board.csv?store=%00', boss)).statusCode).toBe(400);
  });

  it("gives every salesman of the store his month and year on the store's clock, and the team's total is a count straight over the store's sales", async () => {
    const b = await board();
    expect(b.today).toBe(today);
    // Every salesman of the store, Cy with nothing; Nick (the other store's) not.
    expect(b.rows.map((r) => r.name).sort()).toEqual(['Ann', 'Ben', 'Cy', 'Dora']);
    const row = (name: string) => b.rows.find((r) => r.name === name)!;
    const january = today.slice(5, 7) === '01';
    const sameDay = today.slice(8) === '01';
    expect(row('Ann').mtd).toEqual(
      january ? { units: 3, grossCents: 500000, commissionCents: 150000 } : { units: 2, grossCents: 400000, commissionCents: 125000 },
    );
    expect(row('Ann').ytd).toEqual({ units: 3, grossCents: 500000, commissionCents: 150000 });
    // The closing ratio is the funnel's: her sold leads of her leads received (a unit without a lead is no closed lead).
    expect(row('Ann').closing.mtd).toEqual({ sold: 1, received: 5, pct: 20 });
    expect(row('Ann')).toMatchObject({ lastSale: today, daysSinceLastSale: 0 });
    expect(row('Ben').closing.ytd).toEqual({ sold: 0, received: 1, pct: 0 });
    expect(row('Cy')).toMatchObject({
      mtd: { units: 0 },
      ytd: { units: 0 },
      pace: 0,
      lastSale: null,
      daysSinceLastSale: null,
      closing: { mtd: { pct: null } },
    });
    // Dora's sale in the other store is not hers here; her leads there are not either.
    expect(row('Dora')).toMatchObject({ mtd: { units: 1, grossCents: 300000 }, closing: { ytd: { received: 0 } }, lastSale: `${today.slice(0, 8)}01` });
    expect(row('Dora').daysSinceLastSale).toBe(Number(today.slice(8)) - 1);
    // Most units this month first.
    expect(b.rows[0].name).toBe('Ann');
    if (!sameDay) expect(b.rows.map((r) => r.mtd.units)).toEqual([2, 1, 1, 0]);

    // The team's total, against a count straight over the store's sales of the same periods.
    for (const [period, from] of [
      ['mtd', `${today.slice(0, 8)}01`],
      ['ytd', `${today.slice(0, 5)}01-01`],
    ] as const) {
      const direct = await t.db
        .selectFrom('sales')
        .select([
          (eb) => eb.fn.countAll<number>().as('units'),
          (eb) => eb.fn.sum<number>('front_gross_cents').as('gross'),
          (eb) => eb.fn.sum<number>('commission_cents').as('commission'),
        ])
        .where('store_id', '=', FIRST_STORE_ID)
        .where('date', '>=', from)
        .where('date', '<=', today)
        .executeTakeFirstOrThrow();
      expect(b.team[period], period).toEqual({ units: Number(direct.units), grossCents: Number(direct.gross), commissionCents: Number(direct.commission) });
      for (const k of ['units', 'grossCents', 'commissionCents'] as const) expect(b.team[period][k]).toBe(b.rows.reduce((n, r) => n + r[period][k], 0));
    }
    expect(b.team.closing.mtd).toMatchObject({ sold: 1, received: 5 });
    expect(b.figures.mtd).toEqual(b.team.mtd);
    expect(b.daily).toHaveLength(Number(today.slice(8)));
    expect(b.daily.reduce((n, d) => n + Math.round(d.commission * 100), 0)).toBe(b.team.mtd.commissionCents);
    expect(b.monthly.reduce((n, m) => n + Math.round(m.gross * 100), 0)).toBe(b.team.ytd.grossCents);
    expect(b.before.lastYear.units).toBe(today.slice(5) >= '06-15' ? 1 : 0);
  });

  it("in another store counts that store's sales and salesmen only", async () => {
    const b = await board('NSH');
    expect(b.today).toBe(dayKey(new Date(), north.timezone));
    expect(b.rows.map((r) => r.name).sort()).toEqual(['Dora', 'Nick']);
    expect(b.team.ytd).toEqual({ units: 2, grossCents: 600000, commissionCents: 190000 });
    expect(b.rows.find((r) => r.name === 'Dora')!.closing.mtd.received).toBe(3);
  });

  it('exports the same figures as CSV, a row per salesman and the team total', async () => {
    const b = await board();
    const r = await call('/sales/board.csv?store=MAIN', boss);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="sales-board-MAIN-${today}.csv"`);
    const lines = r.body.split('\r\n');
    expect(lines[0]).toBe(BOARD_CSV_HEADER.join(','));
    expect(lines.slice(1, -2).map((l) => l.split(',')[0])).toEqual(b.rows.map((row) => row.name));
    const total = lines.at(-2)!.split(',');
    expect(total.slice(0, 4)).toEqual([TEAM_TOTAL, String(b.team.mtd.units), String(b.team.mtd.grossCents / 100), String(b.team.mtd.commissionCents / 100)]);
  });
});
