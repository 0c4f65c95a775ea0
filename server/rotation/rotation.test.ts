import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { UNASSIGNED, handOutWaiting } from './service';

describe.each(DIALECTS)('round robin on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let staffCookie: string;
  let reps: { id: string; name: string; position: number }[];

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    staffCookie = await t.signIn('watcher@dealer.test');
    await t.db.updateTable('users').set({ on_duty: 0 }).where('email', '=', 'watcher@dealer.test').execute();
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await t.db.deleteFrom('leads').execute();
    await t.db.deleteFrom('rotation_log').execute();
    await t.db.updateTable('rotation_state').set({ pointer_pos: 0 }).execute();
    await t.db.deleteFrom('users').where('email', 'like', 'rep%').execute();
    reps = [];
    for (const name of ['Ann', 'Ben', 'Cat', 'Dan']) {
      const u = await insertUser(t.db, { email: `rep.${name.toLowerCase()}@dealer.test`, name, onDuty: true });
      reps.push({ id: u.id, name, position: u.position });
    }
  });

  const post = (url: string, payload: object, cookie = boss) => t.app.inject({ method: 'POST', url: `/api/rotation${url}`, headers: { cookie }, payload });
  const view = async (cookie = boss, log = 10) => (await t.app.inject({ method: 'GET', url: `/api/rotation?log=${log}`, headers: { cookie } })).json();

  it('assigns in rotation order, wraps, and records lead, log and pointer', async () => {
    const names = [];
    for (let i = 0; i < 6; i++) {
      const r = await post('/assign', { customer: `  Customer ${i} ` });
      expect(r.statusCode).toBe(200);
      names.push(r.json().assignedTo.name);
    }
    expect(names).toEqual(['Ann', 'Ben', 'Cat', 'Dan', 'Ann', 'Ben']);
    const lead = await t.db.selectFrom('leads').selectAll().orderBy('id').executeTakeFirstOrThrow();
    expect(lead).toMatchObject({
      customer: 'Customer 0',
      status: 'handed',
      closed: 0,
      source: 'BDC Portal',
      assigned_to_name: 'Ann',
      assigned_by_name: 'User',
    });
    expect(lead.follow_up_due - lead.assigned_at).toBe(24 * 60 * 60 * 1000);
    const v = await view();
    expect(v.nextUp.name).toBe('Cat');
    expect(v.queue.map((m: any) => m.name)).toEqual(['Cat', 'Dan', 'Ann', 'Ben']);
    expect(v.log[0]).toMatchObject({ type: 'assign', targetName: 'Ben', customer: 'Customer 5', reason: null });
    expect(v.log).toHaveLength(6);
  });

  it('refuses an empty customer and an empty queue with the specification messages', async () => {
    const empty = await post('/assign', { customer: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Customer is required');
    await t.db.updateTable('users').set({ on_duty: 0 }).where('role', '=', 'staff').execute();
    const none = await post('/assign', { customer: 'Walk-in' });
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe('No eligible associates right now.');
    expect(await t.db.selectFrom('leads').selectAll().execute()).toHaveLength(0);
  });

  it('skips Next Up with a reason: snoozes 30 minutes, logs it, and the next in line is up', async () => {
    const r = await post('/skip', { targetUid: reps[0].id, reason: 'With a customer' });
    expect(r.statusCode).toBe(200);
    const until = new Date(r.json().snoozeUntil).getTime();
    expect(until - Date.now()).toBeGreaterThan(29 * 60 * 1000);
    expect(until - Date.now()).toBeLessThanOrEqual(30 * 60 * 1000);
    const v = await view();
    expect(v.queue.map((m: any) => m.name)).toEqual(['Ben', 'Cat', 'Dan']);
    expect(v.log[0]).toMatchObject({ type: 'skip', targetName: 'Ann', reason: 'With a customer' });
    expect(v.team.find((m: any) => m.name === 'Ann').snoozeUntil).not.toBeNull();
    expect((await post('/assign', { customer: 'X' })).json().assignedTo.name).toBe('Ben');
  });

  it('skipping someone further down keeps everyone else in turn', async () => {
    await post('/skip', { targetUid: reps[2].id, reason: 'Test drive' });
    const names = [];
    for (let i = 0; i < 4; i++) names.push((await post('/assign', { customer: `K${i}` })).json().assignedTo.name);
    expect(names).toEqual(['Ann', 'Ben', 'Dan', 'Ann']);
  });

  it('validates skips', async () => {
    expect((await post('/skip', { reason: 'x' })).json().error).toBe('Select a user to skip');
    expect((await post('/skip', { targetUid: reps[0].id, reason: ' ' })).json().error).toBe('Reason required');
    // Only someone in the queue: not an unknown id, a manager, someone off duty or already snoozed.
    const bossId = (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: boss } })).json().user.uid;
    await post('/status', { uid: reps[3].id, onDuty: false });
    await post('/skip', { targetUid: reps[2].id, reason: 'Lunch' });
    const refusals = [];
    for (const targetUid of ['nobody', bossId, reps[3].id, reps[2].id]) {
      const r = await post('/skip', { targetUid, reason: 'x' });
      expect(r.statusCode).toBe(400);
      refusals.push(r.json().error);
    }
    expect(refusals).toEqual([
      'Select a user to skip',
      'Select a user to skip',
      `${reps[3].name} is not in line (off duty). Only someone in line can be skipped.`,
      `${reps[2].name} is not in line (snoozed). Only someone in line can be skipped.`,
    ]);
    expect((await view()).log.filter((e: any) => e.type === 'skip')).toHaveLength(1);
  });

  it('reorders neighbours, but not the first up or the last down', async () => {
    expect((await post('/reorder', { uid: reps[1].id, direction: 'up' })).statusCode).toBe(200);
    const v = await view();
    expect(v.team.map((m: any) => m.name).filter((n: string) => n.length === 3)).toEqual(['Ben', 'Ann', 'Cat', 'Dan']);
    const first = v.team[0].id;
    expect((await post('/reorder', { uid: first, direction: 'up' })).statusCode).toBe(409);
    expect((await post('/reorder', { uid: v.team.at(-1).id, direction: 'down' })).statusCode).toBe(409);
  });

  it('toggles active and on duty; off-duty salesmen leave the queue but stay on the team', async () => {
    expect((await post('/status', { active: false })).json().error).toBe('uid required');
    expect((await post('/status', { uid: reps[2].id, onDuty: false })).statusCode).toBe(200);
    expect((await post('/status', { uid: reps[3].id, active: false })).statusCode).toBe(200);
    const v = await view();
    expect(v.queue.map((m: any) => m.name)).toEqual(['Ann', 'Ben']);
    expect(v.team.find((m: any) => m.name === 'Cat')).toMatchObject({ onDuty: false, eligible: false });
    expect(v.team.find((m: any) => m.name === 'Dan')).toMatchObject({ active: false, eligible: false });
  });

  it('lets staff read the queue but refuses them every change with 403', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/rotation', headers: { cookie: staffCookie } })).statusCode).toBe(200);
    for (const [url, body] of [
      ['/assign', { customer: 'X' }],
      ['/skip', { targetUid: reps[0].id, reason: 'x' }],
      ['/reorder', { uid: reps[1].id, direction: 'up' }],
      ['/status', { uid: reps[1].id, active: false }],
    ] as const) {
      expect((await post(url, body, staffCookie)).statusCode).toBe(403);
    }
    expect(await t.db.selectFrom('leads').selectAll().execute()).toHaveLength(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/rotation' })).statusCode).toBe(401);
  });

  it('never hands a lead to a salesman skipped moments before, with skips mixed into concurrent assigns', async () => {
    let assigned = 0;
    let skipped = 0;
    await Promise.all(
      Array.from({ length: 10 }, async (_, c) => {
        for (let i = 0; i < 20; i++) {
          if (i === 5 + c) {
            // A salesman already snoozed is not in the queue, so skipping him again is refused.
            const r = await post('/skip', { targetUid: reps[c % reps.length].id, reason: `busy ${c}`, minutes: 1 });
            expect([200, 400]).toContain(r.statusCode);
            if (r.statusCode === 200) skipped++;
          } else {
            const r = await post('/assign', { customer: `M${c}-${i}` });
            expect([200, 409]).toContain(r.statusCode);
            if (r.statusCode === 200) assigned++;
          }
        }
      }),
    );
    const logs = await t.db.selectFrom('rotation_log').selectAll().orderBy('id').execute();
    const leads = await t.db.selectFrom('leads').selectAll().execute();
    expect(leads).toHaveLength(assigned);
    expect(logs.filter((l) => l.type === 'assign')).toHaveLength(assigned);
    expect(skipped).toBeGreaterThanOrEqual(reps.length);
    expect(logs.filter((l) => l.type === 'skip')).toHaveLength(skipped);
    const skippedAt = new Map<string, number>();
    for (const l of logs) {
      if (l.type === 'skip') skippedAt.set(l.target_id, l.created_at);
      else expect(skippedAt.has(l.target_id), `${l.target_name} got a lead while snoozed`).toBe(false);
    }
    const state = await t.db.selectFrom('rotation_state').selectAll().executeTakeFirstOrThrow();
    expect(state.pointer_pos).toBe(logs.at(-1)!.pointer_pos_after);
  });

  it('serialises concurrent assigns: 20 clients × 50 leads give exactly even, gap-free rotation', async () => {
    const clients = 20;
    const each = 50;
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = 0; i < each; i++) expect((await post('/assign', { customer: `C${c}-${i}` })).statusCode).toBe(200);
      }),
    );
    const leads = await t.db.selectFrom('leads').select(['assigned_to', 'id']).orderBy('id').execute();
    expect(leads).toHaveLength(clients * each);
    const counts = new Map<string, number>();
    for (const l of leads) counts.set(l.assigned_to, (counts.get(l.assigned_to) ?? 0) + 1);
    expect([...counts.values()]).toEqual([250, 250, 250, 250]);
    // In creation order the leads cycle through the positions with no repeats or gaps.
    const order = reps.map((r) => r.id);
    leads.forEach((l, i) => expect(l.assigned_to).toBe(order[i % order.length]));
    const logs = await t.db.selectFrom('rotation_log').selectAll().orderBy('id').execute();
    expect(logs).toHaveLength(clients * each);
    expect(new Set(logs.map((l) => l.lead_id)).size).toBe(clients * each);
    const state = await t.db.selectFrom('rotation_state').selectAll().executeTakeFirstOrThrow();
    expect(state.pointer_pos).toBe(logs.at(-1)!.pointer_pos_after);
  }, 120_000);
});

describe.each(DIALECTS)('waiting leads on %s', (dialect) => {
  it('go out by themselves when a snooze ends, without anyone pressing anything', async () => {
    const t = await testApp(dialect, {}, { sweepMs: 100 });
    try {
      const rep = await insertUser(t.db, { email: 'sleepy@dealer.test', name: 'Sleepy', onDuty: true });
      await t.db
        .updateTable('users')
        .set({ snooze_until: Date.now() + 3_600_000 })
        .where('id', '=', rep.id)
        .execute();
      const now = Date.now();
      await t.db
        .insertInto('leads')
        .values({
          customer: 'Waited',
          assigned_to: UNASSIGNED,
          assigned_to_name: UNASSIGNED,
          assigned_by: null,
          assigned_by_name: 'Website',
          assigned_at: now,
          status: 'handed',
          follow_up_due: now,
          closed: 0,
          source: 'Website',
          closed_at: null,
          closed_by_id: null,
          closed_by_name: null,
        } as never)
        .execute();
      const lead = () => t.db.selectFrom('leads').selectAll().where('customer', '=', 'Waited').executeTakeFirstOrThrow();
      // While he is snoozed a hand-out pass (what the background sweep runs) leaves the lead waiting.
      expect(await handOutWaiting(t.dbh)).toEqual([]);
      expect((await lead()).assigned_to).toBe(UNASSIGNED);
      // The snooze ends; nobody presses anything; the sweep hands the lead out and says so.
      const handedOut = new Promise<void>((resolve) => {
        const off = t.app.ctx.bus.subscribe((e) => {
          if (e.topic !== 'leads') return;
          off();
          resolve();
        });
      });
      await t.db.updateTable('users').set({ snooze_until: Date.now() }).where('id', '=', rep.id).execute();
      await handedOut;
      expect(await lead()).toMatchObject({ assigned_to: rep.id, assigned_to_name: 'Sleepy' });
      await t.smtp.mailTo('sleepy@dealer.test');
    } finally {
      await t.close();
    }
  });
});
