import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, PG_AVAILABLE, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { withRotationLock, openDb } from '../db';
import { buildApp } from '../app';
import { inStore } from '../context';
import { sweep } from '../rotation/handout';
import { speedReport } from './speed';
import { LEAD_SOURCE } from '../../domain/leads';
import { DEFAULT_RULES } from '../../domain/rules';
import { setPlaces } from '../test/places';

const MIN = 60_000;

describe.each(DIALECTS)('speed to lead on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  const rep: Record<string, { id: string; email: string; cookie: string }> = {};

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    for (const name of ['Ann', 'Ben', 'Cal']) {
      const email = `${name.toLowerCase()}.speed@dealer.test`;
      const u = await withRotationLock(t.dbh, (trx) => insertUser(trx, { email, name: `${name} Speed`, onDuty: true }));
      rep[name] = { id: u.id, email, cookie: await t.signIn(email) };
    }
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie = boss, payload?: object) =>
    t.app.inject({ method, url: `/api/${url}`, headers: { cookie }, payload });
  const lead = async (id: number) => t.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const holder = async (id: number) => (await lead(id)).assigned_to_name;

  beforeEach(async () => {
    // Everyone on the floor and awake; the window back to its default.
    await setPlaces(t.db, { snooze_until: null, on_duty: 1, active: 1 }, (u) => u.where('role', '=', 'staff'));
    expect((await call('PATCH', 'rules', boss, { responseWindowMinutes: 10 })).statusCode).toBe(200);
    // Earlier tests' leads are accepted, so only this test's leads can be overdue.
    await t.db.updateTable('leads').set({ accept_due: null, accepted_at: Date.now() }).where('accepted_at', 'is', null).execute();
  });

  async function assign(customer: string) {
    const r = await call('POST', 'rotation/assign', boss, { customer });
    expect(r.statusCode).toBe(200);
    return r.json<{ leadId: number; assignedTo: { id: string; name: string } }>();
  }

  it('keeps the rules in one record: managers change them, every change is in the history, bad input changes nothing', async () => {
    const read = await call('GET', 'rules', rep.Ann.cookie);
    expect(read.json()).toEqual({ rules: DEFAULT_RULES, can: { change: false }, history: [] });
    expect((await call('PATCH', 'rules', rep.Ann.cookie, { responseWindowMinutes: 5 })).statusCode).toBe(403);
    expect((await call('PATCH', 'rules', boss, {})).json().error).toBe('Say which rule to change');
    for (const bad of [{ responseWindowMinutes: 121 }, { responseWindowMinutes: -1 }, { responseWindowMinutes: 1.5 }, { responseWindowMinutes: '5' }]) {
      const r = await call('PATCH', 'rules', boss, bad);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('Response window must be a whole number from 1 to 120 minutes, or 0 for off');
    }
    expect((await call('PATCH', 'rules', boss, { responseWindowMinutes: 5, more: 1 })).json().error).toBe('Unknown field: more');
    const saved = await call('PATCH', 'rules', boss, { responseWindowMinutes: 7 });
    expect(saved.json().rules).toEqual({ ...DEFAULT_RULES, responseWindowMinutes: 7 });
    expect(saved.json().history[0]).toMatchObject({ actorName: expect.any(String), changes: { responseWindowMinutes: { from: 10, to: 7 } } });
  });

  it('starts the window at the assign; a lead not accepted at window + 1 s is handed on once, to the next salesman, with its history', async () => {
    const a = await assign('Hanna Window');
    const first = a.assignedTo;
    const l = await lead(a.leadId);
    expect(Number(l.accept_due) - Number(l.offered_at)).toBe(10 * MIN);
    const due = Number(l.accept_due);

    // One second before the end nothing moves; one second after, it is handed on once.
    expect(await sweep(t.store, new Date(due - 1000))).toEqual([]);
    expect(await holder(a.leadId)).toBe(first.name);
    const seen = Object.fromEntries(Object.values(rep).map((r) => [r.email, t.smtp.count(r.email)]));
    const moved = await sweep(t.store, new Date(due + 1000));
    expect(moved).toHaveLength(1);
    expect(moved[0].missed.id).toBe(first.id);
    expect(moved[0].to?.id).not.toBe(first.id);
    expect(await sweep(t.store, new Date(due + 2000))).toEqual([]);

    const after = await lead(a.leadId);
    expect(after.assigned_to).toBe(moved[0].to!.id);
    expect(after.handoffs).toBe(1);
    expect(Number(after.accept_due)).toBe(due + 1000 + 10 * MIN);
    // The one who missed it is skipped with the reason and snoozed, as a manager's skip does.
    const skipRow = await t.db.selectFrom('rotation_log').selectAll().where('type', '=', 'skip').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(skipRow).toMatchObject({ target_id: first.id, reason: 'No response in 10 min', manager_name: 'Rotation' });
    const missed = await t.db
      .selectFrom('memberships')
      .select('snooze_until')
      .where('user_id', '=', first.id)
      .where('store_id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(missed.snooze_until)).toBe(due + 1000 + 30 * MIN);
    // The new salesman gets his own mail, which links straight to the lead.
    const to = Object.values(rep).find((r) => r.id === moved[0].to!.id)!;
    const mail = await t.smtp.mailTo(to.email, 5000, seen[to.email]);
    expect(mail.text).toContain(`/dashboard/associates?lead=${a.leadId}`);

    const timeline = (await call('GET', `leads/${a.leadId}/timeline`)).json().entries;
    expect(timeline.map((e: { type: string; targetName: string | null }) => [e.type, e.targetName])).toEqual([
      ['assigned', first.name],
      ['handed_on', null],
      ['assigned', moved[0].to!.name],
    ]);
  });

  it('never moves an accepted lead; accepting is the holder’s alone, and once', async () => {
    const a = await assign('Ike Accept');
    const owner = Object.values(rep).find((r) => r.id === a.assignedTo.id)!;
    const other = Object.values(rep).find((r) => r.id !== a.assignedTo.id)!;
    const byOther = await call('POST', `leads/${a.leadId}/accept`, other.cookie);
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().error).toBe('Only the salesman who holds this lead can accept it.');
    expect(byOther.body).not.toContain(a.assignedTo.name);
    expect((await call('POST', `leads/${a.leadId}/accept`, boss)).statusCode).toBe(403);
    const ok = await call('POST', `leads/${a.leadId}/accept`, owner.cookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().lead).toMatchObject({ waiting: false, acceptDue: null, acceptedAt: expect.any(String) });
    const again = await call('POST', `leads/${a.leadId}/accept`, owner.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('You already accepted this lead.');
    expect(await sweep(t.store, new Date(Date.now() + 24 * 60 * MIN))).toEqual([]);
    expect(await holder(a.leadId)).toBe(a.assignedTo.name);
  });

  it('never hands a lead back to a salesman who let it pass, and parks it after three people, not three passes', async () => {
    await setPlaces(t.db, { on_duty: 0 }, (u) => u.where('id', '=', rep.Cal.id));
    const a = await assign('Rita Returned');
    const first = a.assignedTo.id;
    let now = Number((await lead(a.leadId)).accept_due) + 1000;
    const [moved] = await sweep(t.store, new Date(now));
    const second = moved.to!.id;
    expect(second).not.toBe(first);
    // The first one's snooze is over when the second lets it pass too: it waits rather than go back.
    await setPlaces(t.db, { snooze_until: null }, (u) => u.where('role', '=', 'staff'));
    now = Number((await lead(a.leadId)).accept_due) + 1000;
    expect(await sweep(t.store, new Date(now))).toMatchObject([{ leadId: a.leadId, to: null, parked: false }]);
    await setPlaces(t.db, { snooze_until: null }, (u) => u.where('role', '=', 'staff'));
    // Both are awake and on the floor; the waiting lead is theirs to take no more, though a new one is.
    await sweep(t.store, new Date(now + 1000));
    expect(await lead(a.leadId)).toMatchObject({ assigned_to: '', handoffs: 2 });
    expect((await assign('Next Walk-in')).assignedTo.id).toMatch(new RegExp(`^(${first}|${second})$`));
    expect(await lead(a.leadId)).toMatchObject({ assigned_to: '' });
    // Someone who has not had it comes on the floor and gets it; when he lets it pass, three people have: parked.
    expect((await call('POST', 'rotation/status', boss, { uid: rep.Cal.id, onDuty: true })).statusCode).toBe(200);
    expect(await holder(a.leadId)).toBe('Cal Speed');
    now = Number((await lead(a.leadId)).accept_due) + 1000;
    const told = t.smtp.count(MANAGER);
    expect((await sweep(t.store, new Date(now))).find((m) => m.leadId === a.leadId)).toMatchObject({ to: null, parked: true });
    expect((await t.smtp.mailTo(MANAGER, 5000, told)).subject).toBe('No one accepted: Rita Returned');
    const passes = await t.db
      .selectFrom('lead_events')
      .select('actor_id')
      .where('lead_id', '=', a.leadId)
      .where('type', '=', 'handed_on')
      .orderBy('id')
      .execute();
    expect(passes.map((p) => p.actor_id)).toEqual([first, second, rep.Cal.id]);
    expect(await lead(a.leadId)).toMatchObject({ assigned_to: '', handoffs: 3 });
  });

  it('logs a contact, which accepts a waiting lead, and shows both in the timeline to the holder only', async () => {
    const a = await assign('Cora Contact');
    const owner = Object.values(rep).find((r) => r.id === a.assignedTo.id)!;
    const other = Object.values(rep).find((r) => r.id !== a.assignedTo.id)!;
    expect((await call('POST', `leads/${a.leadId}/contact`, owner.cookie, { channel: 'Fax' })).json().error).toBe('Choose how you contacted the customer');
    const r = await call('POST', `leads/${a.leadId}/contact`, owner.cookie, { channel: 'Call', note: 'Wants a test drive Saturday' });
    expect(r.statusCode).toBe(200);
    expect(r.json().lead).toMatchObject({ waiting: false, firstContactAt: expect.any(String) });
    expect((await call('GET', `leads/${a.leadId}/timeline`, other.cookie)).statusCode).toBe(403);
    const entries = (await call('GET', `leads/${a.leadId}/timeline`, owner.cookie)).json().entries;
    expect(entries.map((e: { type: string }) => e.type)).toEqual(['assigned', 'accepted', 'contacted']);
    expect(entries[2]).toMatchObject({ actorName: a.assignedTo.name, channel: 'Call', note: 'Wants a test drive Saturday' });
  });

  it('after 3 hand-offs the lead waits in Unassigned, every manager is told, and only a manager hands it out again', async () => {
    const a = await assign('Pat Parked');
    const managerMails = t.smtp.count(MANAGER);
    let now = Number((await lead(a.leadId)).accept_due) + 1000;
    for (let i = 0; i < 3; i++) {
      // Each miss snoozes the salesman; wake everyone so the lead keeps finding someone.
      await setPlaces(t.db, { snooze_until: null }, (u) => u.where('role', '=', 'staff'));
      const moved = await sweep(t.store, new Date(now));
      expect(moved).toHaveLength(1);
      expect(moved[0].parked).toBe(i === 2);
      now += 10 * MIN + 1000;
    }
    const parked = await lead(a.leadId);
    expect(parked).toMatchObject({ assigned_to: '', handoffs: 3, accept_due: null });
    const mail = await t.smtp.mailTo(MANAGER, 5000, managerMails);
    expect(mail.subject).toBe('No one accepted: Pat Parked');
    // The waiting-lead sweep leaves it for the manager.
    await sweep(t.store);
    expect((await lead(a.leadId)).assigned_to).toBe('');
    expect((await call('POST', `leads/${a.leadId}/handout`, rep.Ann.cookie, {})).statusCode).toBe(403);
    const out = await call('POST', `leads/${a.leadId}/handout`, boss, {});
    expect(out.statusCode).toBe(200);
    expect(out.json().lead).toMatchObject({ waiting: true, parked: false });
    const twice = await call('POST', `leads/${a.leadId}/handout`, boss, {});
    expect(twice.statusCode).toBe(409);
  });

  it('gives leads from the intake API the same window, and hands them on the same way', async () => {
    const key = (await call('POST', 'integrations/keys', boss, { name: 'Website' })).json().key as string;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { 'x-api-key': key },
      payload: { customer: 'Web Wendy', email: 'wendy@example.com' },
    });
    expect(sent.statusCode).toBe(201);
    const id = sent.json().leads[0].id as number;
    const l = await lead(id);
    expect(Number(l.accept_due) - Number(l.offered_at)).toBe(10 * MIN);
    const moved = await sweep(t.store, new Date(Number(l.accept_due) + 1000));
    expect(moved.map((m) => m.leadId)).toEqual([id]);
    expect((await lead(id)).assigned_to).toBe(moved[0].to!.id);
  });

  it('with the window off nothing waits to be handed on, and turning it off releases the leads waiting', async () => {
    const pending = await assign('Ola Off');
    expect((await call('PATCH', 'rules', boss, { responseWindowMinutes: 0 })).statusCode).toBe(200);
    expect((await lead(pending.leadId)).accept_due).toBeNull();
    const a = await assign('Otto Off');
    expect((await lead(a.leadId)).accept_due).toBeNull();
    expect(await sweep(t.store, new Date(Date.now() + 24 * 60 * MIN))).toEqual([]);
    expect(await holder(a.leadId)).toBe(a.assignedTo.name);
  });

  it('counts time to accept and to first contact per day and month in APP_TIMEZONE, across midnight and a month end', async () => {
    const tz = 'America/New_York';
    const put = async (offered: string, accepted: string | null, contacted: string | null, to = rep.Ben) => {
      await t.db
        .insertInto('leads')
        .values({
          customer: 'Kpi Lead',
          assigned_to: to.id,
          assigned_to_name: 'Ben Speed',
          assigned_by: null,
          assigned_by_name: 'Boss',
          assigned_at: Date.parse(offered),
          status: 'handed',
          follow_up_due: Date.parse(offered) + 24 * 60 * MIN,
          closed: 0,
          source: LEAD_SOURCE,
          closed_at: null,
          closed_by_id: null,
          closed_by_name: null,
          offered_at: Date.parse(offered),
          accepted_at: accepted ? Date.parse(accepted) : null,
          first_contact_at: contacted ? Date.parse(contacted) : null,
        })
        .execute();
    };
    await t.db.deleteFrom('leads').execute();
    // Offered 11:58 PM on Jan 31 in New York (04:58 UTC Feb 1), accepted 2 min later: after midnight, so Feb 1.
    await put('2027-02-01T04:58:00Z', '2027-02-01T05:00:00Z', '2027-02-01T05:10:00Z');
    // Accepted 11:59 PM Jan 31 New York: January, not today and not this month.
    await put('2027-02-01T04:50:00Z', '2027-02-01T04:59:00Z', null);
    // Earlier on Feb 1 in New York, accepted 30 s after.
    await put('2027-02-01T14:00:00Z', '2027-02-01T14:00:30Z', null);
    const r = await speedReport(t.db, 1, tz, new Date('2027-02-01T20:00:00Z'));
    expect(r.today.team.accept).toEqual({ count: 2, median: 30, p90: 120 });
    expect(r.today.team.contact).toEqual({ count: 1, median: 720, p90: 720 });
    expect(r.month.team.accept.count).toBe(2);
    const ben = r.today.associates.find((x) => x.id === rep.Ben.id)!;
    expect(ben.accept.count).toBe(2);
    // Next day at 00:30 New York (05:30 UTC Feb 2): nothing today, both still this month.
    const next = await speedReport(t.db, 1, tz, new Date('2027-02-02T05:30:00Z'));
    expect(next.today.team.accept.count).toBe(0);
    expect(next.month.team.accept.count).toBe(2);
    // March 1: a new month.
    expect((await speedReport(t.db, 1, tz, new Date('2027-03-01T06:00:00Z'))).month.team.accept.count).toBe(0);
  });
});

describe.runIf(PG_AVAILABLE)('two app servers on one PostgreSQL database', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof buildApp>>;
  let secondDb: Awaited<ReturnType<typeof openDb>>;

  beforeAll(async () => {
    t = await testApp('postgres');
    secondDb = await openDb({ databaseUrl: t.dbh.url!, dataDir: t.dbh.dir });
    second = await buildApp({ config: t.config, dbh: secondDb });
    await second.ready();
    for (const name of ['Dee', 'Eli', 'Flo']) {
      await withRotationLock(t.dbh, (trx) => insertUser(trx, { email: `${name.toLowerCase()}.two@dealer.test`, name: `${name} Two`, onDuty: true }));
    }
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
    await t.close();
  });

  it('hands an overdue lead on once, not twice, when both sweep at the same moment', async () => {
    const boss = await t.signIn(MANAGER);
    const leads = [];
    for (let i = 0; i < 6; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer: `Race ${i}` } });
      leads.push(r.json().leadId as number);
    }
    const later = new Date(Date.now() + 11 * MIN);
    const [a, b] = await Promise.all([sweep(t.store, later), sweep(inStore(second.ctx, t.store.store), later)]);
    expect([...a, ...b].map((m) => m.leadId).sort((x, y) => x - y)).toEqual(leads);
    const rows = await t.db.selectFrom('leads').select(['handoffs']).where('id', 'in', leads).execute();
    expect(rows.map((r) => r.handoffs)).toEqual(Array(6).fill(1));
    const events = await t.db.selectFrom('lead_events').select('lead_id').where('type', '=', 'handed_on').execute();
    expect(events).toHaveLength(6);
  });

  it('lets an Accept and the sweep race: each lead is either accepted and stays, or handed on and the Accept refused', async () => {
    await setPlaces(t.db, { snooze_until: null });
    await t.db.updateTable('leads').set({ accept_due: null }).execute();
    const boss = await t.signIn(MANAGER);
    const cookies = new Map<string, string>();
    for (const name of ['dee', 'eli', 'flo']) {
      const u = await t.db.selectFrom('users').select('id').where('email', '=', `${name}.two@dealer.test`).executeTakeFirstOrThrow();
      cookies.set(u.id, await t.signIn(`${name}.two@dealer.test`));
    }
    const leads: { id: number; holder: string }[] = [];
    for (let i = 0; i < 9; i++) {
      const r = (await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer: `Duel ${i}` } })).json();
      leads.push({ id: r.leadId, holder: r.assignedTo.id });
    }
    const later = new Date(Date.now() + 11 * MIN);
    const [accepts] = await Promise.all([
      Promise.all(
        leads.map((l, i) => (i % 2 ? second : t.app).inject({ method: 'POST', url: `/api/leads/${l.id}/accept`, headers: { cookie: cookies.get(l.holder)! } })),
      ),
      sweep(t.store, later),
      sweep(inStore(second.ctx, t.store.store), later),
    ]);
    for (const [i, l] of leads.entries()) {
      const row = await t.db.selectFrom('leads').selectAll().where('id', '=', l.id).executeTakeFirstOrThrow();
      if (accepts[i].statusCode === 200) expect(row).toMatchObject({ assigned_to: l.holder, handoffs: 0, accept_due: null });
      else {
        expect(accepts[i].statusCode).toBe(403);
        expect(row.handoffs).toBe(1);
        expect(row.accepted_at).toBeNull();
      }
    }
  });
});
