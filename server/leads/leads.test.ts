import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { myCounts } from './service';
import { LEAD_SOURCE } from '../../domain/leads';

const HOUR = 60 * 60 * 1000;

describe.each(DIALECTS)('leads on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let ann: { id: string; cookie: string };
  let ben: { id: string; cookie: string };

  async function addLead(customer: string, to: { id: string }, name: string, at: number, closed = false) {
    const r = await t.db
      .insertInto('leads')
      .values({
        customer,
        assigned_to: to.id,
        assigned_to_name: name,
        assigned_by: null,
        assigned_by_name: 'Boss',
        assigned_at: at,
        status: closed ? 'closed' : 'handed',
        follow_up_due: at + 24 * HOUR,
        closed: closed ? 1 : 0,
        source: LEAD_SOURCE,
        closed_at: null,
        closed_by_id: null,
        closed_by_name: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    const a = await insertUser(t.db, { email: 'ann.lead@dealer.test', name: 'Ann Archer', onDuty: true });
    const b = await insertUser(t.db, { email: 'ben.lead@dealer.test', name: 'Ben Booker', onDuty: true });
    ann = { id: a.id, cookie: await t.signIn('ann.lead@dealer.test') };
    ben = { id: b.id, cookie: await t.signIn('ben.lead@dealer.test') };
    const now = Date.now();
    // 250 leads, alternating between Ann and Ben, one minute apart, newest last.
    for (let i = 0; i < 250; i++) {
      const to = i % 2 ? ben : ann;
      await addLead(i === 7 ? 'Zelda McGuire' : `Customer ${i}`, to, to === ann ? 'Ann Archer' : 'Ben Booker', now - (250 - i) * 60_000, i % 5 === 0);
    }
  });
  afterAll(() => t.close());

  const get = (qs: string, cookie = boss) => t.app.inject({ method: 'GET', url: `/api/leads?${qs}`, headers: { cookie } });

  it('lists newest first, 100 at a time, and pages to the end', async () => {
    const seen: number[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page++) {
      const r = (await get(`open=0${cursor ? `&cursor=${cursor}` : ''}`)).json();
      seen.push(...r.leads.map((l: any) => l.id));
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
    }
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    const first = (await get('open=0')).json();
    expect(first.leads).toHaveLength(100);
    expect(first.leads[0].customer).toBe('Customer 249');
  });

  it('filters to open leads', async () => {
    const r = (await get('open=1&limit=100')).json();
    // 200 of the 250 are open: a full page, none of them closed.
    expect(r.leads).toHaveLength(100);
    expect(r.leads.filter((l: any) => l.closed || l.status !== 'handed')).toEqual([]);
  });

  it('searches customers and assignees, case-insensitively, in the database', async () => {
    const byCustomer = (await get('open=0&q=mcguire')).json();
    expect(byCustomer.leads.map((l: any) => l.customer)).toEqual(['Zelda McGuire']);
    const byAssignee = (await get('open=0&q=BOOKER&limit=100')).json();
    expect(byAssignee.leads).toHaveLength(100);
    expect(byAssignee.leads.filter((l: any) => l.assignedToName !== 'Ben Booker')).toEqual([]);
    const short = (await get('open=0&q=ze')).json();
    expect(short.leads.map((l: any) => l.customer)).toContain('Zelda McGuire');
    expect((await get('open=0&q=%25')).json().leads).toHaveLength(0);
    expect((await get('open=0&q=nobody-like-this')).json().leads).toHaveLength(0);
  });

  it('marks overdue follow-ups', async () => {
    const id = await addLead('Old Overdue', ann, 'Ann Archer', Date.now() - 30 * HOUR);
    const lead = (await get('open=1&q=old overdue')).json().leads[0];
    expect(lead).toMatchObject({ id, overdue: true });
  });

  it('loses a lead with its reason and reopens it to Contacted, the closer recorded, then cleared', async () => {
    const id = await addLead('Close Me', ann, 'Ann Archer', Date.now());
    const closed = await t.app.inject({
      method: 'POST',
      url: `/api/leads/${id}/lost`,
      headers: { cookie: boss },
      payload: { reason: 'Bought elsewhere', note: 'Went to the Ford store' },
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().lead).toMatchObject({ closed: true, status: 'closed', stage: 'lost', lostReason: 'Bought elsewhere', closedByName: 'User' });
    expect(closed.json().lead.closedAt).not.toBeNull();
    expect((await get('open=1&q=close me')).json().leads).toHaveLength(0);
    const reopened = await t.app.inject({ method: 'POST', url: `/api/leads/${id}/reopen`, headers: { cookie: boss } });
    expect(reopened.json().lead).toMatchObject({ closed: false, status: 'handed', stage: 'contacted', lostReason: null, closedAt: null, closedByName: null });
    const timeline = (await t.app.inject({ method: 'GET', url: `/api/leads/${id}/timeline`, headers: { cookie: boss } })).json().entries;
    expect(timeline.slice(-2)).toMatchObject([
      { type: 'lost', actorName: 'User', reason: 'Bought elsewhere', note: 'Went to the Ford store' },
      { type: 'reopened', actorName: 'User' },
    ]);
  });

  it('lets a salesman see and close only their own leads', async () => {
    const mine = await addLead('Ann Only', ann, 'Ann Archer', Date.now());
    expect((await get('open=1', ann.cookie)).statusCode).toBe(403);
    const list = (await t.app.inject({ method: 'GET', url: '/api/leads/mine?open=0', headers: { cookie: ann.cookie } })).json();
    expect(list.leads.map((l: any) => l.customer)).toContain('Ann Only');
    expect(list.leads.filter((l: any) => l.assignedTo !== ann.id)).toEqual([]);
    const lost = { reason: 'Not in market' };
    const other = await t.app.inject({ method: 'POST', url: `/api/leads/${mine}/lost`, headers: { cookie: ben.cookie }, payload: lost });
    expect(other.statusCode).toBe(403);
    expect((await t.db.selectFrom('leads').select('closed').where('id', '=', mine).executeTakeFirstOrThrow()).closed).toBe(0);
    const own = await t.app.inject({ method: 'POST', url: `/api/leads/${mine}/lost`, headers: { cookie: ann.cookie }, payload: lost });
    expect(own.statusCode).toBe(200);
    // She may take back her own close (the Undo), but not reopen one a manager closed.
    expect((await t.app.inject({ method: 'POST', url: `/api/leads/${mine}/reopen`, headers: { cookie: ann.cookie } })).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: `/api/leads/${mine}/lost`, headers: { cookie: boss }, payload: lost });
    const notHers = await t.app.inject({ method: 'POST', url: `/api/leads/${mine}/reopen`, headers: { cookie: ann.cookie } });
    expect(notHers.statusCode).toBe(403);
    expect(notHers.json().error).toBe('Only a manager can reopen a lead someone else closed.');
    for (const id of ['abc', '0x10', '1e1', '+1', '01', '%201', '999999']) {
      const r = await t.app.inject({ method: 'POST', url: `/api/leads/${id}/lost`, headers: { cookie: boss }, payload: lost });
      expect(r.statusCode, id).toBe(404);
      expect(r.json().error).toBe('Lead not found');
    }
  });

  it("takes a lost reason only from the store's list, which holds only clean one-line text", async () => {
    const id = await addLead('Odd Reason', ann, 'Ann Archer', Date.now());
    const r = await t.app.inject({ method: 'POST', url: `/api/leads/${id}/lost`, headers: { cookie: ann.cookie }, payload: { reason: 'Abducted by aliens' } });
    expect([r.statusCode, r.json().error]).toEqual([
      400,
      "Pick one of this store's lost reasons: Bought elsewhere, Not in market, No response, Credit, Duplicate.",
    ]);
    expect((await t.db.selectFrom('leads').select('closed').where('id', '=', id).executeTakeFirstOrThrow()).closed).toBe(0);
    // Case aside, the store's own spelling is kept.
    const ok = await t.app.inject({ method: 'POST', url: `/api/leads/${id}/lost`, headers: { cookie: ann.cookie }, payload: { reason: 'credit' } });
    expect(ok.json().lead.lostReason).toBe('Credit');
    for (const bad of ['Price\ttoo high', 'Price\ntoo high', '\u202Eecirp', 'Price\u2069', 'Pri\uFEFFce', 'Price\u0007']) {
      const rules = await t.app.inject({ method: 'PATCH', url: '/api/rules', headers: { cookie: boss }, payload: { lostReasons: ['Credit', bad] } });
      expect([rules.statusCode, rules.json().error], JSON.stringify(bad)).toEqual([400, 'A lost reason may not hold tabs, line breaks or hidden characters']);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: { cookie: boss } })).json().rules.lostReasons).toHaveLength(5);
  });

  it('losing a lost lead says so and keeps the first closer, time and reason', async () => {
    const id = await addLead('Twice Closed', ann, 'Ann Archer', Date.now());
    const first = await t.app.inject({ method: 'POST', url: `/api/leads/${id}/lost`, headers: { cookie: ann.cookie }, payload: { reason: 'Credit' } });
    expect(first.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: `/api/leads/${id}/lost`, headers: { cookie: boss }, payload: { reason: 'Duplicate' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This lead is lost. Reopen it first.');
    const row = await t.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ closed_by_id: ann.id, lost_reason: 'Credit', closed_at: Date.parse(first.json().lead.closedAt) });
  });

  it('counts Assigned Today and Total Month in the dealership time zone, across midnight and month end', async () => {
    const u = await insertUser(t.db, { email: 'tz.rep@dealer.test', name: 'Tz Rep', onDuty: true });
    const tz = 'America/New_York';
    // 2026-03-01 00:30 in New York is 05:30 UTC; 2026-02-28 23:30 New York is 04:30 UTC on Mar 1.
    const now = new Date('2026-03-01T15:00:00Z');
    await addLead('Just after midnight', u, 'Tz Rep', Date.parse('2026-03-01T05:30:00Z'));
    await addLead('Just before midnight', u, 'Tz Rep', Date.parse('2026-03-01T04:30:00Z'));
    await addLead('Mid February', u, 'Tz Rep', Date.parse('2026-02-15T12:00:00Z'));
    // Sunday a week before, 9 AM in New York: the same weekday last week, before this time of day.
    await addLead('Last Sunday', u, 'Tz Rep', Date.parse('2026-02-22T14:00:00Z'));
    expect(await myCounts(t.db, 1, u.id, tz, now)).toEqual({ assignedToday: 1, assignedMonth: 1, sameDayLastWeek: 1, lastMonthSoFar: 0 });
    expect(await myCounts(t.db, 1, u.id, 'UTC', now)).toEqual({ assignedToday: 2, assignedMonth: 2, sameDayLastWeek: 1, lastMonthSoFar: 0 });
    // 11:45 PM on Feb 28 in New York: February so far against January so far.
    expect(await myCounts(t.db, 1, u.id, tz, new Date('2026-03-01T04:45:00Z'))).toEqual({
      assignedToday: 1,
      assignedMonth: 3,
      sameDayLastWeek: 0,
      lastMonthSoFar: 0,
    });
    // Mid-March against February up to the same point: the Feb 15 and Feb 22 leads.
    expect((await myCounts(t.db, 1, u.id, tz, new Date('2026-03-25T15:00:00Z'))).lastMonthSoFar).toBe(2);
  });

  it('reports KPIs: managers see everyone, staff themselves beside the team average', async () => {
    await t.db
      .insertInto('rotation_log')
      .values({
        store_id: 1,
        type: 'skip',
        customer: null,
        target_id: ann.id,
        target_name: 'Ann Archer',
        reason: 'Lunch',
        manager_id: null,
        manager_name: 'Boss',
        pointer_pos_after: 0,
        lead_id: null,
        created_at: Date.now(),
      })
      .execute();
    // One of Ann's leads sold, one lost: a close is a sale (the funnel's rule), a lost lead none.
    const recent = () =>
      t.db
        .selectFrom('leads')
        .selectAll()
        .where('assigned_to', '=', ann.id)
        .where('assigned_at', '>=', Date.now() - 30 * 24 * HOUR)
        .orderBy('id')
        .execute();
    const [first, second] = await recent();
    for (const [l, stage] of [
      [first, 'sold'],
      [second, 'lost'],
    ] as const)
      await t.db.updateTable('leads').set({ stage, closed: 1, status: 'closed' }).where('id', '=', l.id).execute();
    const all = (await t.app.inject({ method: 'GET', url: '/api/leads/kpis', headers: { cookie: boss } })).json();
    const annRow = all.associates.find((a: any) => a.name === 'Ann Archer');
    const annLeads = await recent();
    expect(annRow.received).toBe(annLeads.length);
    expect(annRow.closed).toBe(annLeads.filter((l) => l.stage === 'sold').length);
    expect(annRow.closed).toBeGreaterThan(0);
    expect(annRow.closed).toBeLessThan(annLeads.filter((l) => l.closed).length);
    expect(annRow.closePct).toBe(Math.round((annRow.closed / annRow.received) * 100));
    expect(annRow.skips).toBe(1);
    expect(all.skipReasons).toEqual([{ reason: 'Lunch', count: 1 }]);
    const mine = (await t.app.inject({ method: 'GET', url: '/api/leads/kpis', headers: { cookie: ben.cookie } })).json();
    expect(mine.associates.map((a: any) => a.name)).toEqual(['Ben Booker']);
    expect(mine.average).toEqual(all.average);
    expect(mine.skipReasons).toEqual([]);
  });
});
