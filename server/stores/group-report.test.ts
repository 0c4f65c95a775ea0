import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { FIRST_STORE_ID, insertUser } from '../users/repo';
import { addStore } from './service';
import type { Store } from '../../domain/stores';
import { dayKey } from '../../domain/time';
import { addDays } from '../../domain/hours';
import { GROUP_CSV_HEADER } from '../../domain/group-report';
import type { GroupReport } from '../../domain/contract/answers';
import { pctOf } from '../../domain/funnel';

type Row = GroupReport['stores'][number];

/**
 * The group report of a group of three stores (the first, NSH and SST): only a group manager's;
 * each store's figures are those its own screens show, the group's total their sum (close % from
 * the sums), the filter keeps to the stores named; the CSV names the store on every row. And a
 * salesman of two stores sees his sales of both, and of no other.
 */
describe.each(DIALECTS)('the group report on %s', (dialect) => {
  let t: TestApp;
  let north: Store;
  let south: Store;
  const who: Record<'group' | 'northManager' | 'northRep' | 'southRep' | 'both', string> = {
    group: '',
    northManager: '',
    northRep: '',
    southRep: '',
    both: '',
  };
  const ids: Record<string, string> = {};

  const call = (method: string, url: string, cookie: string, store?: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url: `/api${url}`, headers: { cookie, ...(store ? { 'x-store': store } : {}) }, payload });
  const report = async (query = '', cookie = who.group): Promise<GroupReport> => {
    const r = await call('GET', `/group/report${query}`, cookie);
    expect(r.statusCode, r.body).toBe(200);
    return r.json();
  };
  const sum = (rows: Row[], part: 'kpis' | 'floor' | 'sales', key: string) => rows.reduce((s, r) => s + (r[part] as Record<string, number>)[key], 0);

  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000', SIGNIN_LINKS_PER_ADDRESS: '1000' });
    north = await addStore(t.dbh, { name: 'Northside Honda', code: 'NSH', timezone: 'America/Chicago' });
    south = await addStore(t.dbh, { name: 'Southside Toyota', code: 'SST', timezone: 'Pacific/Kiritimati' });
    const add = async (email: string, role: string, stores: number[]) =>
      (await insertUser(t.db, { email, name: email.split('@')[0], role, stores, onDuty: true })).id;
    ids.northManager = await add('north.boss@dealer.test', 'manager', [north.id]);
    ids.northRep = await add('north.rep@dealer.test', 'staff', [north.id]);
    ids.southRep = await add('south.rep@dealer.test', 'staff', [south.id]);
    ids.both = await add('both@dealer.test', 'staff', [north.id, south.id]);
    for (const k of ['northManager', 'northRep', 'southRep', 'both'] as const)
      who[k] = await t.signIn(
        `${
          k === 'both'
            ? 'both'
            : k
                .replace(/([A-Z])/g, '.$1')
                .toLowerCase()
                .replace('.manager', '.boss')
        }@dealer.test`,
      );
    who.group = await t.signIn(MANAGER);

    // Leads: three in the north (one closed with a sale), four in the south (three), one skip in each.
    const assign = async (store: string, customer: string) => {
      const r = await call('POST', '/rotation/assign', who.group, store, { customer });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().leadId as number;
    };
    const north1 = await assign('NSH', 'North One');
    await assign('NSH', 'North Two');
    await assign('NSH', 'North Three');
    const south1 = [await assign('SST', 'South One'), await assign('SST', 'South Two'), await assign('SST', 'South Three')];
    await assign('SST', 'South Four');
    // Sold as a lead's Sold leaves it (the sales they made are not this report's: those come below).
    await t.db
      .updateTable('leads')
      .set({ stage: 'sold', closed: 1, status: 'closed', closed_at: Date.now() })
      .where('id', 'in', [north1, ...south1])
      .execute();
    expect((await call('POST', '/rotation/skip', who.group, 'NSH', { targetUid: ids.northRep, reason: 'At lunch' })).statusCode).toBe(200);
    expect((await call('POST', '/rotation/skip', who.group, 'SST', { targetUid: ids.southRep, reason: 'With customer' })).statusCode).toBe(200);

    // Sales this month: the salesman of both stores sells in each, the others in their own.
    const sell = async (cookie: string, store: string, frontGross: string) => {
      const today = dayKey(new Date(), store === 'NSH' ? north.timezone : south.timezone);
      const r = await call('POST', '/sales', cookie, store, { date: today, vehicleType: 'new', frontGross, split: 'full' });
      expect(r.statusCode, r.body).toBe(201);
    };
    await sell(who.northRep, 'NSH', '2500');
    await sell(who.both, 'NSH', '1500');
    await sell(who.both, 'SST', '3000');
    await sell(who.southRep, 'SST', '900');
  });
  afterAll(async () => {
    t.dbh.pool?.on('error', () => undefined);
    await t.close();
  });

  it('is for group managers only: a store manager and a salesman get 403, on the screen and as CSV', async () => {
    for (const cookie of [who.northManager, who.northRep, who.both]) {
      for (const url of ['/group/report', '/group/report?stores=NSH', '/group/report.csv']) {
        const r = await call('GET', url, cookie);
        expect(r.statusCode, url).toBe(403);
        expect(r.json().error).toMatch(/group managers|manager permissions/);
      }
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/group/report' })).statusCode).toBe(401);
  });

  it("shows each store what its own screens show, and the group's total is their sum with the close % from the sums", async () => {
    const r = await report();
    expect(r.days).toBe(30);
    expect(r.stores.map((s) => s.store.code)).toEqual(['MAIN', 'NSH', 'SST']);
    const nsh = r.stores[1];
    const sst = r.stores[2];
    expect(nsh.kpis).toEqual({ received: 3, closed: 1, skips: 1, beBacks: 0, closePct: 33 });
    expect(sst.kpis).toEqual({ received: 4, closed: 3, skips: 1, beBacks: 0, closePct: 75 });
    // 4 of 7, 57%: not the 54% average of 33% and 75%.
    expect(r.total.kpis).toEqual({ received: 7, closed: 4, skips: 2, beBacks: 0, closePct: 57 });
    for (const k of ['received', 'closed', 'skips', 'beBacks']) expect(r.total.kpis[k as 'received'], k).toBe(sum(r.stores, 'kpis', k));

    // The store's own lead KPIs and floor report say the same.
    for (const row of [nsh, sst]) {
      const kpis = (await call('GET', '/leads/kpis', who.group, row.store.code)).json();
      expect(row.kpis.received).toBe(kpis.associates.reduce((s: number, a: { received: number }) => s + a.received, 0));
      expect(row.kpis.closePct).toBe(kpis.average.closePct);
      const floor = (await call('GET', '/floor/report', who.group, row.store.code)).json().report;
      expect(row.floor).toEqual({
        day: floor.day,
        ups: floor.team.ups,
        beBacks: floor.team.beBacks,
        skips: floor.team.skips,
        handoffs: floor.team.handoffs,
        closed: floor.team.closed,
      });
    }
    // Each store's day on its own clock (Kiritimati is UTC+14, a day ahead of Chicago for most of it).
    expect(nsh.floor.day).toBe(dayKey(new Date(), north.timezone));
    expect(sst.floor.day).toBe(dayKey(new Date(), south.timezone));
    expect(nsh.floor).toMatchObject({ ups: 3, skips: 1, closed: 1 });
    expect(sst.floor).toMatchObject({ ups: 4, skips: 1, closed: 3 });
    for (const k of ['ups', 'beBacks', 'skips', 'handoffs', 'closed']) expect(r.total.floor[k as 'ups'], k).toBe(sum(r.stores, 'floor', k));

    // Sales: $2,500 (30%: $750) and $1,500 (Mini $100) in the north; $3,000 (35%: $1,050) and $900 (Mini $75) in the south.
    expect(nsh.sales).toMatchObject({ units: 2, grossCents: 4000_00, commissionCents: 850_00 });
    expect(sst.sales).toMatchObject({ units: 2, grossCents: 3900_00, commissionCents: 1125_00 });
    expect(r.total.sales).toEqual({ units: 4, grossCents: 7900_00, commissionCents: 1975_00 });
    expect(r.salesmen.map((s) => [s.name, s.stores, s.units, s.commissionCents])).toEqual([
      ['both', ['NSH', 'SST'], 2, 1150_00],
      ['north.rep', ['NSH'], 1, 750_00],
      ['south.rep', ['SST'], 1, 75_00],
    ]);
  });

  it('keeps to the stores named, the total with them', async () => {
    const one = await report('?stores=SST');
    expect(one.stores.map((s) => s.store.code)).toEqual(['SST']);
    expect(one.total.kpis).toEqual(one.stores[0].kpis);
    expect(one.total.sales).toEqual({ units: 2, grossCents: 3900_00, commissionCents: 1125_00 });
    expect(one.salesmen.map((s) => [s.name, s.stores, s.commissionCents])).toEqual([
      ['both', ['SST'], 1050_00],
      ['south.rep', ['SST'], 75_00],
    ]);
    // Lower case, spaces, the parameter repeated: the same two stores, in the order named.
    const two = await report('?stores=sst,%20nsh&stores=NSH');
    expect(two.stores.map((s) => s.store.code)).toEqual(['SST', 'NSH']);
    expect(two.total.kpis).toEqual({ received: 7, closed: 4, skips: 2, beBacks: 0, closePct: 57 });
    expect((await report('?stores=')).stores).toHaveLength(3);
  });

  it('answers 404 for a store that is not one, and 400 for a day that is not one or has not come', async () => {
    for (const q of ['?stores=NOPE', '?stores=NSH,XX9', '?stores=!!', '?stores=toolongcode']) {
      const r = await call('GET', `/group/report${q}`, who.group);
      expect([r.statusCode, r.json()], q).toEqual([404, { error: 'Store not found' }]);
    }
    for (const [q, error] of [
      ['?day=2026-02-30', 'Enter a real date (YYYY-MM-DD)'],
      ['?day=yesterday', 'Enter a real date (YYYY-MM-DD)'],
      ['?day=2999-01-01', 'Pick today or a day before it.'],
    ]) {
      const r = await call('GET', `/group/report${q}`, who.group);
      expect([r.statusCode, r.json().error], q).toEqual([400, error]);
      expect((await call('GET', `/group/report.csv${q}`, who.group)).statusCode, q).toBe(400);
    }
    expect((await call('GET', '/group/report?nonsense=1', who.group)).statusCode).toBe(400);
    expect((await call('GET', '/group/report.csv?stores=NOPE', who.group)).statusCode).toBe(404);
    // A past day: every store's floor of that day, nothing happened then.
    const past = await report('?day=2020-01-15');
    expect(past.stores.map((s) => s.floor.day)).toEqual(['2020-01-15', '2020-01-15', '2020-01-15']);
    expect(past.total.floor.ups).toBe(0);
    expect(past.total.kpis.received).toBe(7);
  });

  it('is a spreadsheet with the Store column on every row, the group total last', async () => {
    const r = await call('GET', '/group/report.csv?stores=NSH,SST', who.group);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="group-report-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = r.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(GROUP_CSV_HEADER.join(','));
    expect(lines.map((l) => l.split(',')[0])).toEqual(['Store', 'NSH', 'SST', 'Group total']);
    expect(lines[1]).toMatch(/^NSH,Northside Honda,3,1,33,1,0,/);
    expect(lines[3]).toMatch(/^Group total,Group total,7,4,57,2,0,/);
    expect(lines[3]).toMatch(/,4,7900,1975,/);
  });

  it('a salesman of two stores sees his sales of both, each naming its store, and none of a store he is not in', async () => {
    // A sale of his left in the first store, which he is not in (he was moved): not his to see here.
    await t.db
      .insertInto('sales')
      .values({
        store_id: FIRST_STORE_ID,
        user_id: ids.both,
        rep_name: 'both',
        date: '2026-01-02',
        vehicle_type: 'new',
        front_gross_cents: 100_00,
        plan_type: 'flat',
        plan_percent: null,
        plan_flat: 75,
        plan_split: 1,
        commission_cents: 75_00,
        created_at: Date.now(),
        created_by: ids.both,
      })
      .execute();
    const r = await call('GET', '/sales/all', who.both);
    expect(r.statusCode, r.body).toBe(200);
    const all = r.json();
    expect(all.stores.map((s: Store) => s.code)).toEqual(['NSH', 'SST']);
    expect(all.readOnly).toBe(true);
    expect(all.sales.map((s: { store: string; frontGrossCents: number }) => [s.store, s.frontGrossCents]).sort()).toEqual([
      ['NSH', 1500_00],
      ['SST', 3000_00],
    ]);
    expect(all.sales.every((s: { can: { edit: boolean; delete: boolean } }) => !s.can.edit && !s.can.delete)).toBe(true);
    expect(all.figures.mtd).toEqual({ units: 2, grossCents: 4500_00, commissionCents: 1150_00 });
    // A salesman of one store sees his one store's.
    expect((await call('GET', '/sales/all', who.northRep)).json().sales.map((s: { store: string }) => s.store)).toEqual(['NSH']);

    const csv = await call('GET', '/sales/export.csv?store=*', who.both);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('Date,FrontGross,Commission,VehicleType,PlanType,Percent,Flat,Split,Store');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',').at(-1))
        .sort(),
    ).toEqual(['NSH', 'SST']);
    expect((await call('GET', `/sales/export.csv?store=*&user=${ids.northRep}`, who.both)).statusCode).toBe(400);
    // One store's export names that store.
    expect((await call('GET', '/sales/export.csv?store=SST', who.both)).body.split('\r\n')[1]).toMatch(/,SST$/);
  });

  it("has each store's funnel as its own Stats → Funnel shows it, the group's total their sum, and a store manager sees no other store's", async () => {
    const cookieOf: Record<string, string> = { [ids.northRep]: who.northRep, [ids.southRep]: who.southRep, [ids.both]: who.both };
    const times: number[] = [];
    for (const [customer, store] of [
      ['North Two', 'NSH'],
      ['South Four', 'SST'],
    ]) {
      const lead = await t.db.selectFrom('leads').select(['id', 'assigned_to']).where('customer', '=', customer).executeTakeFirstOrThrow();
      const r = await call('POST', `/leads/${lead.id}/contact`, cookieOf[lead.assigned_to], store, { channel: 'Call', outcome: 'Talked' });
      expect(r.statusCode, r.body).toBe(200);
      const l = await t.db.selectFrom('leads').select(['assigned_at', 'first_contact_at']).where('id', '=', lead.id).executeTakeFirstOrThrow();
      times.push(Number(l.first_contact_at) - Number(l.assigned_at));
    }

    const r = await report();
    for (const row of r.stores) {
      const own = await call('GET', '/leads/funnel', who.group, row.store.code);
      expect(own.statusCode, own.body).toBe(200);
      const { from, to, total } = own.json();
      const { key: _, name: __, ...figures } = total;
      expect(row.funnel, row.store.code).toEqual({ from, to, ...figures });
    }
    const [main, nsh, sst] = r.stores;
    expect(main.funnel).toMatchObject({ leads: 0, soldPct: 0, medianFirstContactSeconds: null });
    // The sold leads are the funnel's sold too: one meaning of a close.
    expect(nsh.funnel).toMatchObject({ leads: 3, contacted: 1, contactedPct: 33.3, sold: 1 });
    expect(sst.funnel).toMatchObject({ leads: 4, contacted: 1, contactedPct: 25, sold: 3 });
    for (const k of ['leads', 'contacted', 'appointment', 'shown', 'sold'] as const)
      expect(r.total.funnel[k], k).toBe(r.stores.reduce((n, s) => n + s.funnel[k], 0));
    // 2 of 7: from the sums, not the 29.2% average of 33.3% and 25%; the median of both stores' times.
    expect(r.total.funnel.contactedPct).toBe(pctOf(2, 7));
    expect(r.total.funnel.medianFirstContactSeconds).toBe(Math.round((times[0] + times[1]) / 2 / 1000));

    // Any period: each store's row is its own funnel of those days; a period that is not one, 400 and nothing else.
    const to = dayKey(new Date(), north.timezone);
    const from = addDays(to, -40);
    const wide = await report(`?stores=NSH,SST&from=${from}&to=${to}`);
    for (const row of wide.stores) {
      const { total } = (await call('GET', `/leads/funnel?from=${from}&to=${to}`, who.group, row.store.code)).json();
      const { key: _, name: __, ...figures } = total;
      expect(row.funnel, row.store.code).toEqual({ from, to, ...figures });
    }
    expect(wide.total.funnel.leads).toBe(wide.stores[0].funnel.leads + wide.stores[1].funnel.leads);
    for (const [q, error] of [
      ['?from=2026-03-10&to=2026-03-01', 'From must be on or before To'],
      ['?from=nope', 'Enter a real date (YYYY-MM-DD)'],
      ['?from=2024-01-01&to=2025-06-01', 'The period can be at most 366 days'],
    ]) {
      for (const url of [`/group/report${q}`, `/group/report.csv${q}`]) {
        const r = await call('GET', url, who.group);
        expect([r.statusCode, r.json().error], url).toEqual([400, error]);
      }
    }

    // One store alone: the total is its own.
    const one = await report('?stores=NSH');
    expect(one.total.funnel).toEqual((({ from: _, to: __, ...f }) => f)(one.stores[0].funnel));

    const csv = (await call('GET', '/group/report.csv?stores=NSH,SST', who.group)).body.split('\r\n');
    expect(
      csv[0].endsWith(
        ',Funnel from,Funnel to,Funnel leads,Contacted,Contacted %,Appointment set,Appointment set %,Shown,Shown %,Sold,Closing ratio %,Median first contact (min)',
      ),
    ).toBe(true);
    expect(csv[1]).toContain(`,${nsh.funnel.from},${nsh.funnel.to},3,1,33.3,0,0,0,0,1,33.3,`);
    expect(csv[3]).toMatch(/^Group total,.*,7,2,28\.6,0,0,0,0,4,57\.1,[\d.]+$/);

    // A store manager: his own store's funnel, not another's, and no group report.
    expect((await call('GET', '/leads/funnel', who.northManager, 'NSH')).statusCode).toBe(200);
    for (const url of ['/leads/funnel', '/leads/funnel.csv', '/leads/funnel?by=source']) {
      const other = await call('GET', url, who.northManager, 'SST');
      expect([other.statusCode, other.json()], url).toEqual([404, { error: 'Store not found' }]);
    }
    for (const url of ['/group/report', '/group/report.csv']) expect((await call('GET', url, who.northManager)).statusCode, url).toBe(403);
  });
});
