import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { addStore } from '../stores/service';
import { dayKey } from '../../domain/time';
import { addDays } from '../../domain/hours';
import { LEFT_TEXT } from '../../domain/rotation';
import { sweep } from '../rotation/handout';
import type { PortalEvent } from '../events/bus';

/**
 * The desk log through the API: a manager logs a walk-in up, which goes to Next Up (or, a be-back,
 * to the salesman asked for) as a 'Walk-in' lead; the day's log shows it with its desk facts and
 * its stage; the desk and the up's salesman write a worksheet, the T.O. manager and the time out.
 */
describe.each(DIALECTS)('the desk log on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let bossId: string;
  let ann: { id: string; cookie: string };
  let ben: { id: string; cookie: string };
  let tz = '';

  const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie }, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const today = () => dayKey(new Date(), tz);
  const log = async (cookie = boss, day?: string) => {
    const r = await call(cookie, 'GET', `/desk/log${day ? `?day=${day}` : ''}`);
    expect(r.statusCode, r.body).toBe(200);
    return r.json<{ day: string; today: string; ups: { id: number; [k: string]: unknown }[]; managers: { id: string; name: string }[] }>();
  };
  const logUp = async (body: object) => {
    const r = await call(boss, 'POST', '/desk/ups', body);
    expect(r.statusCode, r.body).toBe(201);
    return r.json<{ id: number; salesman: { id: string; name: string } | null; [k: string]: unknown }>();
  };

  beforeAll(async () => {
    t = await testApp(dialect);
    tz = t.store.config.APP_TIMEZONE;
    boss = await t.signIn(MANAGER);
    bossId = (await t.db.selectFrom('users').select('id').where('email', '=', MANAGER).executeTakeFirstOrThrow()).id;
    const a = await insertUser(t.db, { email: 'ann.desk@dealer.test', name: 'Ann Desk', onDuty: true });
    const b = await insertUser(t.db, { email: 'ben.desk@dealer.test', name: 'Ben Desk' });
    ann = { id: a.id, cookie: await t.signIn('ann.desk@dealer.test') };
    ben = { id: b.id, cookie: await t.signIn('ben.desk@dealer.test') };
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('sales').execute();
    await t.db.deleteFrom('lead_events').execute();
    await t.db.deleteFrom('leads').execute();
    // Ann alone on the floor, no one snoozed by a missed Accept.
    await t.db.updateTable('memberships').set({ snooze_until: null }).execute();
    await t.db.updateTable('memberships').set({ on_duty: 0 }).where('user_id', '=', ben.id).execute();
  });

  /** The sweep as it runs once an up's Accept window (10 minutes) has passed. */
  const afterWindow = () => sweep(t.store, new Date(Date.now() + 11 * 60_000));
  const benComesOn = async () => expect((await call(ben.cookie, 'POST', '/rotation/duty', { onDuty: true })).statusCode).toBe(200);
  const handOuts = async (id: number) =>
    (await t.db.selectFrom('rotation_log').select(['type', 'target_id']).where('lead_id', '=', id).orderBy('id').execute()).map(
      (r) => `${r.type} ${r.target_id}`,
    );

  it("hands an up to Next Up as a Walk-in lead, in today's log with its desk facts, and tells open screens", async () => {
    const seen: PortalEvent[] = [];
    const stop = t.app.ctx.bus.subscribe((e) => seen.push(e));
    const up = await logUp({ customer: '  Walt Kinney ', vehicle: '2025 Tacoma', tradeIn: true });
    // On PostgreSQL the bus delivers through LISTEN/NOTIFY, a moment after the answer.
    await expect.poll(() => seen.some((e) => e.topic === 'leads')).toBe(true);
    stop();
    expect(up).toMatchObject({ customer: 'Walt Kinney', salesman: { id: ann.id, name: 'Ann Desk' }, vehicle: '2025 Tacoma', tradeIn: true, worksheet: false });
    expect(up).toMatchObject({ toManager: null, timeOut: null, stage: 'waiting', beBack: false, mine: true });
    const lead = await t.db.selectFrom('leads').selectAll().where('id', '=', up.id).executeTakeFirstOrThrow();
    expect(lead).toMatchObject({ source: 'Walk-in', vehicle: '2025 Tacoma', assigned_to: ann.id });
    expect(Number(lead.trade_in_flag)).toBe(1);
    // It went through the rotation: logged as an assign, and the salesman has it among his leads.
    const rot = await t.db.selectFrom('rotation_log').select(['type', 'target_id']).where('lead_id', '=', up.id).execute();
    expect(rot).toEqual([{ type: 'assign', target_id: ann.id }]);
    expect((await call(ann.cookie, 'GET', '/leads/mine')).json().leads.map((l: { id: number }) => l.id)).toContain(up.id);

    const day = await log();
    expect(day.day).toBe(today());
    expect(day.ups).toEqual([up]);
    expect(day.managers.map((m) => m.id)).toContain(bossId);
    expect(day.managers.map((m) => m.id)).not.toContain(ann.id);
    // Another day's log has none of today's ups; a lead from elsewhere is no walk-in.
    expect((await log(boss, addDays(today(), -1))).ups).toEqual([]);
    expect((await call(boss, 'POST', '/rotation/assign', { customer: 'Phone Lead' })).statusCode).toBe(200);
    expect((await log()).ups.map((u) => u.id)).toEqual([up.id]);
  });

  it('a be-back goes to the salesman asked for', async () => {
    const up = await logUp({ customer: 'Bea Back', tradeIn: false, askedFor: ben.id });
    expect(up).toMatchObject({ salesman: { id: ben.id }, beBack: true, vehicle: null, tradeIn: false });
  });

  it('writes a worksheet, the T.O. manager and the time out (once); the holder may on his own up', async () => {
    const up = await logUp({ customer: 'Tom Over', tradeIn: false });
    let r = await call(ann.cookie, 'PATCH', `/desk/ups/${up.id}`, { worksheet: true });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ worksheet: true, mine: true });
    r = await call(boss, 'PATCH', `/desk/ups/${up.id}`, { toManager: bossId });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().toManager).toEqual({ id: bossId, name: expect.any(String) });
    const before = Date.now();
    r = await call(ann.cookie, 'PATCH', `/desk/ups/${up.id}`, { out: true });
    expect(r.statusCode, r.body).toBe(200);
    expect(Date.parse(r.json().timeOut)).toBeGreaterThanOrEqual(before - 1000);
    const again = await call(boss, 'PATCH', `/desk/ups/${up.id}`, { out: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/already out/);
    // Clearing the T.O. is allowed; the log shows what was written.
    r = await call(boss, 'PATCH', `/desk/ups/${up.id}`, { toManager: null, worksheet: false });
    expect(r.json()).toMatchObject({ toManager: null, worksheet: false });
    expect((await log()).ups[0]).toMatchObject({ id: up.id, worksheet: false, toManager: null, timeOut: r.json().timeOut });
  });

  it('turns over only to a manager of this store (400 otherwise)', async () => {
    const up = await logUp({ customer: 'Not Manager', tradeIn: false });
    const other = await addStore(t.dbh, { name: 'Desk Other', code: `DO${dialect === 'sqlite' ? 'S' : 'P'}`, timezone: 'America/Chicago' });
    const elsewhere = await insertUser(t.db, { email: `mgr.elsewhere.${dialect}@dealer.test`, name: 'Elsewhere Mgr', role: 'manager', stores: [other.id] });
    for (const toManager of [ann.id, elsewhere.id, 'no-such-person']) {
      const r = await call(boss, 'PATCH', `/desk/ups/${up.id}`, { toManager });
      expect(r.statusCode, toManager).toBe(400);
      expect(r.json().error).toBe('Turn the customer over to a manager of this store.');
    }
    expect((await log()).ups[0]).toMatchObject({ toManager: null });
  });

  it('a salesman may not log ups, read the log, or change an up that is not his (403)', async () => {
    const up = await logUp({ customer: 'Not Ben', tradeIn: false });
    expect((await call(ben.cookie, 'POST', '/desk/ups', { customer: 'Sneaky', tradeIn: false })).statusCode).toBe(403);
    expect((await call(ben.cookie, 'GET', '/desk/log')).statusCode).toBe(403);
    for (const body of [{ worksheet: true }, { out: true }, { toManager: bossId }]) {
      const r = await call(ben.cookie, 'PATCH', `/desk/ups/${up.id}`, body);
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toBe('You can only change your own ups.');
    }
    expect((await log()).ups[0]).toMatchObject({ worksheet: false, toManager: null, timeOut: null });
  });

  it('answers bad input with a clear 4xx, never a 500', async () => {
    const up = await logUp({ customer: 'Bad Input', tradeIn: false });
    const posts: [unknown, RegExp][] = [
      [{}, /Customer is required/],
      [{ customer: '   ', tradeIn: false }, /Customer is required/],
      [{ customer: 'X' }, /Trade-in/],
      [{ customer: 'X', tradeIn: 'yes' }, /Trade-in must be true or false/],
      [{ customer: 'x'.repeat(201), tradeIn: false }, /too long/],
      [{ customer: 'X', tradeIn: false, vehicle: 'v'.repeat(121) }, /too long/],
      [{ customer: 'X\u0007', tradeIn: false }, /invalid characters/],
      [{ customer: 'X', tradeIn: false, color: 'red' }, /Unknown field: color/],
      [[1, 2], /Invalid request body/],
    ];
    for (const [body, msg] of posts) {
      const r = await call(boss, 'POST', '/desk/ups', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().error).toMatch(msg);
    }
    expect((await call(boss, 'POST', '/desk/ups', { customer: 'X', tradeIn: false, askedFor: 'nobody' })).statusCode).toBe(409);
    const patches: [unknown, RegExp][] = [
      [{}, /Nothing to change/],
      [{ worksheet: 'yes' }, /Worksheet must be true or false/],
      [{ out: false }, /out must be true/],
      [{ toManager: '' }, /Choose a manager/],
      [{ toManager: 7 }, /Choose a manager/],
      [{ stage: 'sold' }, /Unknown field: stage/],
    ];
    for (const [body, msg] of patches) {
      const r = await call(boss, 'PATCH', `/desk/ups/${up.id}`, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().error).toMatch(msg);
    }
    for (const id of ['0', 'abc', '99999999', '1e3']) expect((await call(boss, 'PATCH', `/desk/ups/${id}`, { out: true })).statusCode).toBe(404);
    // A lead that is no walk-in is no up.
    const phone = (await call(boss, 'POST', '/rotation/assign', { customer: 'Phone Only' })).json().leadId;
    expect((await call(boss, 'PATCH', `/desk/ups/${phone}`, { out: true })).statusCode).toBe(404);
    for (const day of ['2026-02-30', 'today', '']) expect((await call(boss, 'GET', `/desk/log?day=${day}`)).statusCode).toBe(400);
  });

  it("keeps a walk-in's time in, the time he walked in, when the Accept window hands him on", async () => {
    const up = await logUp({ customer: 'Hal Handon', tradeIn: false });
    expect(up.salesman?.id).toBe(ann.id);
    await benComesOn();
    expect((await afterWindow()).map((m) => [m.leadId, m.to?.id])).toEqual([[up.id, ben.id]]);
    // The lead went to Ben later (his assigned_at is the hand-on's); the desk still reads when the customer came in.
    const lead = await t.db.selectFrom('leads').select('assigned_at').where('id', '=', up.id).executeTakeFirstOrThrow();
    expect(Number(lead.assigned_at)).toBeGreaterThan(Date.parse(String(up.timeIn)) + 10 * 60_000);
    expect((await log()).ups).toEqual([{ ...up, salesman: { id: ben.id, name: 'Ben Desk' } }]);
    // Ben writes on his up: the answer keeps the time in too.
    const r = await call(ben.cookie, 'PATCH', `/desk/ups/${up.id}`, { worksheet: true });
    expect(r.json()).toMatchObject({ timeIn: up.timeIn, salesman: { id: ben.id }, worksheet: true, mine: true });
  });

  it('never hands on a walk-in marked Out: the up stays with his salesman, accepted or not', async () => {
    const up = await logUp({ customer: 'Olive Out', tradeIn: false });
    await benComesOn();
    const waitingForAccept = async () => (await call(boss, 'GET', '/rotation')).json().pending.map((p: { leadId: number }) => p.leadId);
    expect(await waitingForAccept()).toEqual([up.id]);
    const out = await call(boss, 'PATCH', `/desk/ups/${up.id}`, { out: true });
    expect(out.statusCode, out.body).toBe(200);
    expect(await afterWindow()).toEqual([]);
    expect((await log()).ups).toEqual([{ ...up, timeOut: out.json().timeOut }]);
    expect(await handOuts(up.id)).toEqual([`assign ${ann.id}`]);
    // No longer on the clock of an Accept: not on the floor's list of ups waiting for one, and no manager hands him to Ben.
    expect(await waitingForAccept()).toEqual([]);
    const given = await call(boss, 'POST', `/leads/${up.id}/handout`, { to: ben.id, reason: 'He asked for Ben' });
    expect(given.statusCode).toBe(409);
    expect(given.json().error).toBe(LEFT_TEXT);
    // Ann may still accept him.
    expect((await call(ann.cookie, 'POST', `/leads/${up.id}/accept`)).statusCode).toBe(200);
    expect((await log()).ups[0]).toMatchObject({ salesman: { id: ann.id }, stage: 'accepted' });
  });

  it('never hands out a walk-in who left while he waited in Unassigned', async () => {
    const up = await logUp({ customer: 'Una Waiting', tradeIn: false });
    // Ann lets the window pass with no one else on the floor: the up waits in Unassigned.
    expect((await afterWindow()).map((m) => [m.leadId, m.to])).toEqual([[up.id, null]]);
    expect((await log()).ups[0]).toMatchObject({ id: up.id, salesman: null, timeIn: up.timeIn });
    expect((await call(boss, 'PATCH', `/desk/ups/${up.id}`, { out: true })).statusCode).toBe(200);
    // Ben comes on the floor, which hands out what waits: not a customer who left.
    await benComesOn();
    expect((await log()).ups[0]).toMatchObject({ id: up.id, salesman: null });
    expect(await handOuts(up.id)).toEqual([`assign ${ann.id}`, `skip ${ann.id}`]);
    // Nor does a manager: the leads screen offers no Hand out, and the server refuses one.
    const listed = (await call(boss, 'GET', '/leads')).json().leads.find((l: { id: number }) => l.id === up.id);
    expect(listed.can.handOut).toBe(false);
    const given = await call(boss, 'POST', `/leads/${up.id}/handout`, {});
    expect(given.statusCode).toBe(409);
    expect(given.json().error).toBe(LEFT_TEXT);
    expect((await log()).ups[0]).toMatchObject({ id: up.id, salesman: null });
  });

  it("refuses a day after today on the store's clock (400), as the floor report does", async () => {
    const tomorrow = addDays(today(), 1);
    const r = await call(boss, 'GET', `/desk/log?day=${tomorrow}`);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe('Pick today or a day before it.');
    expect(r.json()).toEqual((await call(boss, 'GET', `/floor/report?day=${tomorrow}`)).json());
    expect((await log(boss, today())).day).toBe(today());
  });

  it("follows the lead's stages: contact and Sold through the leads routes show in the log", async () => {
    const up = await logUp({ customer: 'Sal Sold', vehicle: 'F-150', tradeIn: true });
    const stage = async () => (await log()).ups.find((u) => u.id === up.id)?.stage;
    expect(await stage()).toBe('waiting');
    expect((await call(ann.cookie, 'POST', `/leads/${up.id}/contact`, { channel: 'In person' })).statusCode).toBe(200);
    expect(await stage()).toBe('contacted');
    const sold = await call(ann.cookie, 'POST', `/leads/${up.id}/sold`, {
      actionId: `sold-desk-${up.id}`,
      date: today(),
      frontGross: '1500',
      vehicleType: 'new',
      split: 'full',
    });
    expect(sold.statusCode, sold.body).toBe(200);
    expect(await stage()).toBe('sold');
  });
});
