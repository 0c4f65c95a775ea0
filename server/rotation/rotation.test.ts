import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { UNASSIGNED } from './queries';
import { handOutWaiting } from './sweep';
import { LINE_CHANGED, moveInLine, REORDER_SAME_PEOPLE, REORDER_WHOM } from '../../domain/rotation';
import { setPlaces } from '../test/places';

describe.each(DIALECTS)('round robin on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let staffCookie: string;
  let reps: { id: string; name: string }[];

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    staffCookie = await t.signIn('watcher@dealer.test');
    await setPlaces(t.db, { on_duty: 0 }, (u) => u.where('email', '=', 'watcher@dealer.test'));
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
      reps.push({ id: u.id, name });
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
    await setPlaces(t.db, { on_duty: 0 }, (u) => u.where('role', '=', 'staff'));
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

  const lineIds = async (cookie = boss): Promise<string[]> => (await view(cookie)).queue.map((m: { id: string }) => m.id);
  const lineNames = async () => (await view()).queue.map((m: { name: string }) => m.name);
  const idOf = (name: string) => reps.find((r) => r.name === name)!.id;
  /** An arrow on the routing screen: the line as shown, the person moved one place up or down in it. */
  const arrow = async (name: string, dir: 'up' | 'down', cookie = boss) => {
    const shown = await lineIds(cookie);
    const i = shown.indexOf(idOf(name));
    return post('/reorder', { uid: idOf(name), shown, order: moveInLine(shown, idOf(name), dir === 'up' ? i - 1 : i + 1) }, cookie);
  };
  /** The first store's line as it is kept: each member's place. */
  const line = () => t.db.selectFrom('memberships').where('store_id', '=', 1);
  const places = async () => (await line().select(['user_id', 'position']).orderBy('user_id').execute()).map((u) => `${u.user_id}:${u.position}`);

  it('moves exactly the person clicked by one place in the line shown; Next Up changes only when the first two swap', async () => {
    for (const c of ['P1', 'P2']) await post('/assign', { customer: c });
    // The pointer in the middle: Ann and Ben were served, so the line starts at Cat.
    expect(await lineNames()).toEqual(['Cat', 'Dan', 'Ann', 'Ben']);
    const pointer = (await view()).pointerPos;
    const moved = await arrow('Ann', 'up');
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({ id: idOf('Ann'), name: 'Ann', place: 2 });
    expect(await lineNames()).toEqual(['Cat', 'Ann', 'Dan', 'Ben']);
    expect((await view()).nextUp.name).toBe('Cat');
    expect((await arrow('Dan', 'down')).json().place).toBe(4);
    expect(await lineNames()).toEqual(['Cat', 'Ann', 'Ben', 'Dan']);
    expect((await arrow('Ann', 'up')).json().place).toBe(1);
    expect(await lineNames()).toEqual(['Ann', 'Cat', 'Ben', 'Dan']);
    expect((await view()).nextUp.name).toBe('Ann');
    const v = await view();
    expect(v.pointerPos).toBe(pointer);
    expect(v.log[0]).toMatchObject({ type: 'reorder', targetName: 'Ann', reason: 'moved from #2 to #1', managerName: 'User', customer: null });
    expect(v.log.filter((e: { type: string }) => e.type === 'reorder')).toHaveLength(3);
    // And the line is served as shown.
    const got = [];
    for (let i = 0; i < 4; i++) got.push((await post('/assign', { customer: `S${i}` })).json().assignedTo.name);
    expect(got).toEqual(['Ann', 'Cat', 'Ben', 'Dan']);
  });

  it('refuses a line that changed since the screen was drawn with 409, and changes nothing', async () => {
    const shown = await lineIds();
    await post('/assign', { customer: 'Meanwhile' });
    const before = await places();
    const stale = await post('/reorder', { uid: idOf('Cat'), shown, order: moveInLine(shown, idOf('Cat'), 1) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: LINE_CHANGED, code: 'line-changed' });
    expect(await places()).toEqual(before);
    expect((await view()).log.filter((e: { type: string }) => e.type === 'reorder')).toHaveLength(0);
  });

  it('refuses a move that is not a reorder of the line, and someone not in line, with 400', async () => {
    await post('/status', { uid: idOf('Dan'), onDuty: false });
    const shown = await lineIds();
    const before = await places();
    const cases: [object, string][] = [
      [{ uid: idOf('Ann'), shown, order: [...shown].reverse().slice(1) }, REORDER_SAME_PEOPLE],
      [{ uid: idOf('Ann'), shown, order: [idOf('Dan'), ...shown.slice(1)] }, REORDER_SAME_PEOPLE],
      [{ uid: idOf('Dan'), shown, order: [...shown].reverse() }, REORDER_WHOM],
      [{ uid: idOf('Ann'), shown: 'Ann', order: shown }, 'shown (the line as your screen shows it) must be a list of user ids'],
      [{ uid: idOf('Ann'), shown, order: shown, direction: 'up' }, 'Unknown field: direction'],
    ];
    for (const [body, error] of cases) {
      const r = await post('/reorder', body);
      expect(r.statusCode, error).toBe(400);
      expect(r.json().error).toBe(error);
    }
    expect(await places()).toEqual(before);
  });

  it('two managers reordering at once: one wins, the other is refused, and places stay a permutation', async () => {
    const other = await insertUser(t.db, { email: 'boss2@dealer.test', name: 'Second Boss', role: 'manager' });
    const boss2 = await t.signIn(other.email);
    const placesBefore = (await line().select('position').execute()).map((u) => u.position).sort((a, b) => a - b);
    for (let round = 0; round < 6; round++) {
      const shown = await lineIds();
      const first = moveInLine(shown, shown[1], 0)!;
      const second = moveInLine(shown, shown[3], 2)!;
      const [a, b] = await Promise.all([
        post('/reorder', { uid: shown[1], shown, order: first }),
        post('/reorder', { uid: shown[3], shown, order: second }, boss2),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      expect(await lineIds()).toEqual(a.statusCode === 200 ? first : second);
    }
    // Many at once, each rereading the line before its move.
    let won = 0;
    const logBefore = (await view(boss, 12)).log.filter((e: { type: string }) => e.type === 'reorder').length;
    await Promise.all(
      Array.from({ length: 8 }, async (_, c) => {
        for (let i = 0; i < 6; i++) {
          const shown = await lineIds(c % 2 ? boss2 : boss);
          const who = shown[(c + i) % shown.length];
          const at = shown.indexOf(who);
          const r = await post('/reorder', { uid: who, shown, order: moveInLine(shown, who, at === 0 ? 1 : at - 1) }, c % 2 ? boss2 : boss);
          expect([200, 409]).toContain(r.statusCode);
          if (r.statusCode === 200) won++;
        }
      }),
    );
    expect(won).toBeGreaterThan(0);
    const after = (await line().select('position').execute()).map((u) => u.position).sort((a, b) => a - b);
    expect(after).toEqual(placesBefore);
    expect(new Set(after).size).toBe(after.length);
    expect([...(await lineIds())].sort()).toEqual(reps.map((r) => r.id).sort());
    const logged = await t.db.selectFrom('rotation_log').select('id').where('type', '=', 'reorder').execute();
    expect(logged.length - logBefore).toBe(won);
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
      [
        '/reorder',
        {
          uid: reps[1].id,
          shown: reps.map((r) => r.id),
          order: moveInLine(
            reps.map((r) => r.id),
            reps[1].id,
            0,
          ),
        },
      ],
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
      await setPlaces(t.db, { snooze_until: Date.now() + 3_600_000 }, (u) => u.where('id', '=', rep.id));
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
      await setPlaces(t.db, { snooze_until: Date.now() }, (u) => u.where('id', '=', rep.id));
      await handedOut;
      expect(await lead()).toMatchObject({ assigned_to: rep.id, assigned_to_name: 'Sleepy' });
      await t.smtp.mailTo('sleepy@dealer.test');
    } finally {
      await t.close();
    }
  });
});
