import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, freshDb, testApp, type TestApp } from '../test/harness';
import { FIRST_STORE_ID, insertUser } from '../users/repo';
import { migrate } from '../db/migrations';
import { dayKey, zonedStartOfDay } from '../../domain/time';
import { addDays } from '../../domain/hours';
import type { FunnelRow } from '../../domain/funnel';

const HOUR = 3_600_000;

/**
 * The funnel through the API: leads walked through the real routes (contact, appointment, shown,
 * sold, lost), then the route's counts held to a count made here by hand over the same rows, per
 * salesman and per source; the period, a salesman's own view, the CSV and bad input.
 */
describe.each(DIALECTS)('the lead funnel on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let ann: { id: string; cookie: string };
  let ben: { id: string; cookie: string };
  let tz = '';

  const call = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie }, payload });
  const ok = async (cookie: string, url: string, payload: object) => {
    const r = await call(cookie, 'POST', url, payload);
    expect(r.statusCode, r.body).toBe(200);
  };
  const local = (hours: number) => {
    const d = new Date(Date.now() + hours * HOUR);
    const w = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
    return `${dayKey(d, tz)}T${w}`;
  };
  const today = () => dayKey(new Date(), tz);

  /** A lead handed to whoever is Next Up; its id and holder. */
  const assign = async (customer: string) => {
    const r = await call(boss, 'POST', '/rotation/assign', { customer });
    expect(r.statusCode, r.body).toBe(200);
    return { id: r.json().leadId as number, to: r.json().assignedTo.id as string };
  };
  const cookieOf = (id: string) => (id === ann.id ? ann.cookie : ben.cookie);

  type Walk = 'none' | 'contacted' | 'appointment' | 'noShow' | 'shown' | 'sold' | 'lostAfterShown';
  async function walk(lead: { id: number; to: string }, to: Walk) {
    const c = cookieOf(lead.to);
    if (to === 'none') return;
    await ok(c, `/leads/${lead.id}/contact`, { channel: 'Call', outcome: 'Talked', nextFollowUp: local(30) });
    if (to === 'contacted') return;
    await ok(c, `/leads/${lead.id}/appointment`, { at: local(48) });
    if (to === 'appointment') return;
    // Its day has come: Shown and No-show are marked from then on.
    await t.db
      .updateTable('leads')
      .set({ appointment_at: Date.now() - 60_000 })
      .where('id', '=', lead.id)
      .execute();
    if (to === 'noShow') return ok(boss, `/leads/${lead.id}/shown`, { shown: false });
    await ok(boss, `/leads/${lead.id}/shown`, { shown: true });
    if (to === 'shown') return;
    if (to === 'lostAfterShown') return ok(c, `/leads/${lead.id}/lost`, { reason: 'Bought elsewhere' });
    await ok(c, `/leads/${lead.id}/sold`, { actionId: `sold-${lead.id}`, date: today(), frontGross: '1,500', vehicleType: 'new', split: 'full' });
  }

  /** The funnel counted by hand from the stored rows of the leads received from..to (inclusive days). */
  async function direct(from: string, to: string, key: 'assigned_to' | 'source', only?: string) {
    const since = zonedStartOfDay(from, tz).getTime();
    const until = zonedStartOfDay(addDays(to, 1), tz).getTime();
    const leads = (await t.db.selectFrom('leads').selectAll().where('store_id', '=', t.store.store.id).execute()).filter(
      (l) => Number(l.assigned_at) >= since && Number(l.assigned_at) < until && (!only || l.assigned_to === only),
    );
    const events = await t.db.selectFrom('lead_events').select(['lead_id', 'type']).execute();
    const sales = await t.db.selectFrom('sales').select('lead_id').execute();
    const has = (id: number, type: string) => events.some((e) => e.lead_id === id && e.type === type);
    const out = new Map<string, { leads: number; contacted: number; appointment: number; shown: number; sold: number }>();
    for (const l of leads) {
      const r = out.get(l[key]) ?? { leads: 0, contacted: 0, appointment: 0, shown: 0, sold: 0 };
      r.leads++;
      if (l.first_contact_at !== null || has(l.id, 'contacted')) r.contacted++;
      if (has(l.id, 'appointment_set')) r.appointment++;
      if (has(l.id, 'shown')) r.shown++;
      if (l.stage === 'sold' || sales.some((s) => s.lead_id === l.id)) r.sold++;
      out.set(l[key], r);
    }
    const ms = leads.filter((l) => l.first_contact_at !== null).map((l) => Number(l.first_contact_at) - Number(l.assigned_at));
    return { rows: out, contactTimes: ms.sort((a, b) => a - b) };
  }
  const counts = (r: FunnelRow) => ({ leads: r.leads, contacted: r.contacted, appointment: r.appointment, shown: r.shown, sold: r.sold });

  beforeAll(async () => {
    t = await testApp(dialect);
    tz = t.store.config.APP_TIMEZONE;
    boss = await t.signIn(MANAGER);
    const a = await insertUser(t.db, { email: 'ann.funnel@dealer.test', name: 'Ann Funnel', onDuty: true });
    const b = await insertUser(t.db, { email: 'ben.funnel@dealer.test', name: 'Ben Funnel', onDuty: true });
    ann = { id: a.id, cookie: await t.signIn('ann.funnel@dealer.test') };
    ben = { id: b.id, cookie: await t.signIn('ben.funnel@dealer.test') };
    const plan: Walk[] = ['sold', 'sold', 'lostAfterShown', 'shown', 'noShow', 'appointment', 'contacted', 'contacted', 'none', 'none', 'sold', 'none'];
    for (const [n, step] of plan.entries()) await walk(await assign(`Funnel ${n}`), step);
    // Another source, one whose name a spreadsheet would run, and a lead from last month.
    await t.db.updateTable('leads').set({ source: '=HYPERLINK("x")' }).where('customer', 'in', ['Funnel 0', 'Funnel 9']).execute();
    const old = zonedStartOfDay(addDays(`${today().slice(0, 8)}01`, -3), tz).getTime();
    await t.db.updateTable('leads').set({ assigned_at: old }).where('customer', '=', 'Funnel 11').execute();
  });
  afterAll(() => t.close());

  it("counts per salesman what a direct count over the same rows does, and the total's median first contact", async () => {
    const r = await call(boss, 'GET', '/leads/funnel');
    expect(r.statusCode, r.body).toBe(200);
    const f = r.json();
    const from = `${today().slice(0, 8)}01`;
    expect(f).toMatchObject({ from, to: today(), by: 'salesman' });
    const d = await direct(from, today(), 'assigned_to');
    expect(f.rows).toHaveLength(2);
    for (const row of f.rows as FunnelRow[]) expect(counts(row)).toEqual(d.rows.get(row.key));
    expect(f.total).toMatchObject({ name: 'Total', leads: 11, contacted: 9, appointment: 7, shown: 5, sold: 3 });
    expect(f.total.soldPct).toBe(27.3);
    expect(f.total.contactedPct).toBe(81.8);
    const ms = d.contactTimes;
    const mid = ms.length % 2 ? ms[(ms.length - 1) / 2] : (ms[ms.length / 2 - 1] + ms[ms.length / 2]) / 2;
    expect(ms).toHaveLength(9);
    expect(f.total.medianFirstContactSeconds).toBe(Math.round(mid / 1000));
    expect(f.rows.map((x: FunnelRow) => x.name).sort()).toEqual(['Ann Funnel', 'Ben Funnel']);
  });

  it('counts per source, and the period decides which leads count', async () => {
    const f = (await call(boss, 'GET', '/leads/funnel?by=source')).json();
    const d = await direct(`${today().slice(0, 8)}01`, today(), 'source');
    expect(f.rows).toHaveLength(d.rows.size);
    for (const row of f.rows as FunnelRow[]) expect(counts(row)).toEqual(d.rows.get(row.key));
    expect(f.rows.find((x: FunnelRow) => x.key === '=HYPERLINK("x")')).toMatchObject({ leads: 2, sold: 1, soldPct: 50 });

    const from = addDays(`${today().slice(0, 8)}01`, -10);
    const wide = (await call(boss, 'GET', `/leads/funnel?from=${from}&to=${today()}`)).json();
    expect(wide.total.leads).toBe(12);
    const before = (await call(boss, 'GET', `/leads/funnel?from=${from}&to=${addDays(`${today().slice(0, 8)}01`, -1)}`)).json();
    expect(before.total).toMatchObject({ leads: 1, contacted: 0, medianFirstContactSeconds: null });
    const d2 = await direct(from, today(), 'assigned_to');
    for (const row of wide.rows as FunnelRow[]) expect(counts(row)).toEqual(d2.rows.get(row.key));
  });

  it('shows a salesman the funnel of his own leads only', async () => {
    const f = (await call(ben.cookie, 'GET', '/leads/funnel')).json();
    expect(f.rows.map((x: FunnelRow) => x.key)).toEqual([ben.id]);
    const d = await direct(`${today().slice(0, 8)}01`, today(), 'assigned_to', ben.id);
    expect(counts(f.total)).toEqual(d.rows.get(ben.id));
    const bySource = (await call(ben.cookie, 'GET', '/leads/funnel?by=source')).json();
    expect(bySource.total.leads).toBe(f.total.leads);
    const csv = await call(ben.cookie, 'GET', '/leads/funnel.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain('Ann Funnel');
  });

  it('gives the CSV with the closing ratio, formulas neutralised', async () => {
    const r = await call(boss, 'GET', `/leads/funnel.csv?by=source&store=${t.store.store.code}`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/csv');
    const lines = r.body.trim().split('\r\n');
    expect(lines[0]).toBe('Source,Leads,Contacted,Contacted %,Appointment set,Appointment set %,Shown,Shown %,Sold,Closing ratio %,Median first contact (min)');
    expect(r.body).toContain(`"'=HYPERLINK(""x"")",2,`);
    expect(lines.at(-1)).toMatch(/^Total,11,9,81\.8,7,63\.6,5,45\.5,3,27\.3,/);
    expect((await t.app.inject({ method: 'GET', url: '/api/leads/funnel.csv' })).statusCode).toBe(401);
  });

  it('refuses a period that is not one, with a clear 400', async () => {
    const bad: [string, string][] = [
      ['from=2026-02-30', 'Enter a real date (YYYY-MM-DD)'],
      ['to=yesterday', 'Enter a real date (YYYY-MM-DD)'],
      ['from=2026-03-10&to=2026-03-09', 'From must be on or before To'],
      ['from=2025-01-01&to=2026-01-02', 'The period can be at most 366 days'],
      ['by=team', 'By is salesman or source'],
    ];
    for (const [q, error] of bad) {
      for (const url of [`/leads/funnel?${q}`, `/leads/funnel.csv?${q}`]) {
        const r = await call(boss, 'GET', url);
        expect(r.statusCode, url).toBe(400);
        expect(r.json().error, url).toBe(error);
      }
    }
    expect((await call(boss, 'GET', '/leads/funnel?from=2024-01-01&to=2024-12-31')).statusCode).toBe(200);
    expect((await call(boss, 'GET', '/leads/funnel?from=2026-01-01%00')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/leads/funnel' })).statusCode).toBe(401);
  });

  it('takes the median of many spread, tied and odd and even counts of times to first contact exactly', async () => {
    // March 2024: its own period. Times from 0 to days, many the same, per salesman odd and even in number.
    const start = zonedStartOfDay('2024-03-01', tz).getTime();
    let seed = 7;
    const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const values = Array.from({ length: 301 }, (_, i) => {
      const r = rand();
      const ms = r < 0.2 ? 60_000 : r < 0.3 ? 0 : Math.floor(rand() ** 3 * 5 * 86_400_000);
      return {
        assigned_to: i % 3 ? ann.id : ben.id,
        assigned_to_name: i % 3 ? 'Ann Funnel' : 'Ben Funnel',
        at: start + i * 3_600_000,
        ms: i % 7 === 0 ? null : ms,
      };
    });
    for (const v of values)
      await t.db
        .insertInto('leads')
        .values({
          store_id: t.store.store.id,
          customer: 'Spread',
          assigned_to: v.assigned_to,
          assigned_to_name: v.assigned_to_name,
          assigned_by_name: 'Boss',
          assigned_at: v.at,
          status: 'handed',
          follow_up_due: v.at,
          closed: 0,
          source: 'Spread',
          first_contact_at: v.ms === null ? null : v.at + v.ms,
        } as never)
        .execute();
    const f = (await call(boss, 'GET', '/leads/funnel?from=2024-03-01&to=2024-03-31')).json();
    const mid = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const times = (who?: string) => values.filter((v) => v.ms !== null && (!who || v.assigned_to === who)).map((v) => v.ms!);
    expect(f.total.leads).toBe(301);
    expect(f.total.medianFirstContactSeconds).toBe(Math.round(mid(times()) / 1000));
    for (const who of [ann.id, ben.id]) {
      expect(f.rows.find((r: FunnelRow) => r.key === who).medianFirstContactSeconds).toBe(Math.round(mid(times(who)) / 1000));
    }
    expect(times(ann.id).length).toBeGreaterThan(100);
  });
});

describe.each(DIALECTS)('the funnel migration on %s', (dialect) => {
  it('fills when each lead first had an appointment set and first showed from its timeline', async () => {
    const h = await freshDb(dialect, { before: '027_funnel' });
    try {
      const lead = async (customer: string) => {
        const r = await h.db
          .insertInto('leads')
          .values({
            store_id: FIRST_STORE_ID,
            customer,
            assigned_to: 'u1',
            assigned_to_name: 'Ann',
            assigned_by_name: 'Boss',
            assigned_at: 1_000,
            status: 'handed',
            follow_up_due: 2_000,
            closed: 0,
            source: 'Web',
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        return Number(r.id);
      };
      const [a, b, c] = [await lead('A'), await lead('B'), await lead('C')];
      const step = (id: number, type: 'appointment_set' | 'shown' | 'no_show', at: number) =>
        h.db.insertInto('lead_events').values({ lead_id: id, type, actor_id: null, actor_name: 'x', channel: null, note: null, created_at: at }).execute();
      await step(a, 'appointment_set', 5_000);
      await step(a, 'no_show', 6_000);
      await step(a, 'appointment_set', 7_000);
      await step(a, 'shown', 8_000);
      await step(b, 'appointment_set', 4_000);
      // Marked as run by freshDb (with every later one); this one runs now, as on an upgrade.
      await sql`delete from kysely_migration where name = '027_funnel'`.execute(h.db);
      await migrate(h.db, dialect);
      const rows = await h.db.selectFrom('leads').select(['id', 'appointment_set_at', 'shown_at']).orderBy('id').execute();
      expect(
        rows.map((r) => [Number(r.id), r.appointment_set_at === null ? null : Number(r.appointment_set_at), r.shown_at === null ? null : Number(r.shown_at)]),
      ).toEqual([
        [a, 5_000, 8_000],
        [b, 4_000, null],
        [c, null, null],
      ]);
    } finally {
      await h.close();
    }
  });
});
