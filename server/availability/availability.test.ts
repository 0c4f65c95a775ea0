import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { withRotationLock } from '../db';
import { candidates, sqlEnv } from '../rotation/queries';
import { loadRules } from '../rules/service';
import { refreshAway } from './service';
import { addStore } from '../stores/service';
import { offText } from '../../domain/availability';
import { addDays } from '../../domain/hours';
import { dayKey, zonedStartOfDay } from '../../domain/time';
import type { DayHours } from '../../domain/hours';

const HOUR = 3_600_000;

describe.each(DIALECTS)('who is available, on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let tz: string;
  const rep: Record<string, { id: string; cookie: string }> = {};

  beforeAll(async () => {
    t = await testApp(dialect, {}, { sweepMs: 24 * HOUR });
    tz = t.config.APP_TIMEZONE;
    boss = await t.signIn(MANAGER);
    for (const name of ['Amy', 'Bob']) {
      const email = `${name.toLowerCase()}.avail@dealer.test`;
      const u = await withRotationLock(t.dbh, (trx) => insertUser(trx, { email, name: `${name} Avail`, onDuty: true }));
      rep[name] = { id: u.id, cookie: await t.signIn(email) };
    }
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie = boss, payload?: object) {
    return t.app.inject({ method, url: `/api/${url}`, headers: { cookie }, payload });
  }
  const eligibleIds = async (now = new Date()) =>
    (await candidates(t.db, t.store.store.id, sqlEnv(now, await loadRules(t.db, t.store.store.id), tz))).map((r) => r.id);
  const routingWhy = async (id: string) => {
    const view = (await call('GET', 'rotation?log=12')).json();
    return view.team.find((m: { id: string }) => m.id === id).notInLine as string | null;
  };

  it('takes someone with time off today out of every line, says so on the Routing screen, and puts him back when it is removed', async () => {
    const today = dayKey(new Date(), tz);
    const to = addDays(today, 2);
    expect(await eligibleIds()).toContain(rep.Amy.id);
    const added = await call('POST', `availability/${rep.Amy.id}/time-off`, rep.Amy.cookie, { fromDay: today, toDay: to, note: 'Family' });
    expect(added.statusCode).toBe(201);
    const text = offText({ fromDay: today, toDay: to });
    expect(text).toMatch(/^Off [A-Z][a-z]{2} \d+–/);
    expect(added.json()).toMatchObject({ away: text, timeOff: [{ fromDay: today, toDay: to, note: 'Family', text }] });
    expect(await eligibleIds()).not.toContain(rep.Amy.id);
    expect(await eligibleIds()).toContain(rep.Bob.id);
    expect(await routingWhy(rep.Amy.id)).toBe(text);

    // The sweep's call finds nothing to change: only rows whose value changes are written.
    expect((await refreshAway(t.store.dbh, new Date(), tz)).changed).toEqual([]);

    const [{ id }] = added.json().timeOff;
    const removed = await call('DELETE', `availability/${rep.Amy.id}/time-off/${id}`, rep.Amy.cookie);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ away: null, timeOff: [] });
    expect(await eligibleIds()).toContain(rep.Amy.id);
    expect(await routingWhy(rep.Amy.id)).toBeNull();
  });

  it('takes him out as "Off schedule" while his own hours exclude now, and back when they include it', async () => {
    const closed = Array<DayHours>(7).fill(null);
    const set = await call('PUT', `availability/${rep.Bob.id}/hours`, boss, { hours: closed });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ hours: closed, away: 'Off schedule' });
    expect(await eligibleIds()).not.toContain(rep.Bob.id);
    expect(await routingWhy(rep.Bob.id)).toBe('Off schedule');
    const back = await call('PUT', `availability/${rep.Bob.id}/hours`, rep.Bob.cookie, { hours: null });
    expect(back.json()).toMatchObject({ hours: null, away: null });
    expect(await eligibleIds()).toContain(rep.Bob.id);
  });

  it('the sweep’s refresh follows the clock: time off starting tomorrow takes him out tomorrow', async () => {
    const now = new Date();
    const tomorrow = addDays(dayKey(now, tz), 1);
    const added = await call('POST', `availability/${rep.Bob.id}/time-off`, rep.Bob.cookie, { fromDay: tomorrow, toDay: tomorrow });
    expect(added.json().away).toBeNull();
    // Noon tomorrow on the store's clock (now + 26 h is the day after tomorrow late in the evening).
    const later = new Date(zonedStartOfDay(tomorrow, tz).getTime() + 12 * HOUR);
    const { changed, available } = await refreshAway(t.store.dbh, later, tz);
    expect(changed).toEqual([{ userId: rep.Bob.id, away: offText({ fromDay: tomorrow, toDay: tomorrow }) }]);
    expect(available).toBe(false);
    expect(await eligibleIds(later)).not.toContain(rep.Bob.id);
    expect((await refreshAway(t.store.dbh, now, tz)).available).toBe(true);
    await call('DELETE', `availability/${rep.Bob.id}/time-off/${added.json().timeOff[0].id}`, rep.Bob.cookie);
  });

  it('hands out a lead that waited while nobody was available as soon as someone is back, and tells the line', async () => {
    const today = dayKey(new Date(), tz);
    const ids: Record<string, number> = {};
    for (const who of ['Amy', 'Bob']) {
      const res = await call('POST', `availability/${rep[who].id}/time-off`, rep[who].cookie, { fromDay: today, toDay: today });
      ids[who] = res.json().timeOff[0].id;
    }
    expect(await eligibleIds()).toEqual([]);
    const key = (await call('POST', 'integrations/keys', boss, { name: 'Website' })).json().key;
    const intake = await t.app.inject({ method: 'POST', url: '/api/v1/leads', headers: { 'x-api-key': key }, payload: { customer: 'Wendy Waiting' } });
    expect(intake.statusCode).toBeLessThan(300);
    const lead = () => t.db.selectFrom('leads').select('assigned_to').where('customer', '=', 'Wendy Waiting').executeTakeFirstOrThrow();
    expect((await lead()).assigned_to).toBe('');
    const heard: string[] = [];
    const stop = t.app.ctx.bus.subscribe((e) => heard.push(e.topic));
    try {
      await call('DELETE', `availability/${rep.Amy.id}/time-off/${ids.Amy}`, rep.Amy.cookie);
      // On PostgreSQL the bus delivers through LISTEN/NOTIFY, a moment after the answer.
      await expect.poll(() => heard).toContain('rotation');
    } finally {
      stop();
    }
    expect((await lead()).assigned_to).toBe(rep.Amy.id);
    await call('DELETE', `availability/${rep.Bob.id}/time-off/${ids.Bob}`, rep.Bob.cookie);
  });

  it('takes time off in every store he works in, his own hours only in the store they are for', async () => {
    const other = await addStore(t.dbh, { name: 'Other Motors', code: `OT${dialect === 'sqlite' ? 'S' : 'P'}`, timezone: tz });
    const email = 'cy.avail@dealer.test';
    const cy = await withRotationLock(t.dbh, (trx) => insertUser(trx, { email, name: 'Cy Avail', onDuty: true, stores: [t.store.store.id, other.id] }));
    const cookie = await t.signIn(email);
    const awayIn = async (store: number) =>
      (await t.db.selectFrom('memberships').select('away').where('store_id', '=', store).where('user_id', '=', cy.id).executeTakeFirstOrThrow()).away;
    const today = dayKey(new Date(), tz);
    const added = await call('POST', `availability/${cy.id}/time-off`, cookie, { fromDay: today, toDay: today });
    const text = offText({ fromDay: today, toDay: today });
    expect(await awayIn(t.store.store.id)).toBe(text);
    expect(await awayIn(other.id)).toBe(text);
    await call('DELETE', `availability/${cy.id}/time-off/${added.json().timeOff[0].id}`, cookie);
    expect(await awayIn(other.id)).toBeNull();
    await call('PUT', `availability/${cy.id}/hours`, cookie, { hours: Array<DayHours>(7).fill(null) });
    expect(await awayIn(t.store.store.id)).toBe('Off schedule');
    expect(await awayIn(other.id)).toBeNull();
    await call('PUT', `availability/${cy.id}/hours`, cookie, { hours: null });
  });

  it("holds a store manager's time off for a shared salesman in her store alone; his own and a group manager's everywhere", async () => {
    const other = await addStore(t.dbh, { name: 'Third Motors', code: `TH${dialect === 'sqlite' ? 'S' : 'P'}`, timezone: tz });
    const here = t.store.store.id;
    const dee = await withRotationLock(t.dbh, (trx) =>
      insertUser(trx, { email: 'dee.avail@dealer.test', name: 'Dee Avail', onDuty: true, stores: [here, other.id] }),
    );
    await insertUser(t.db, { email: 'mo.avail@dealer.test', name: 'Mo Manager', role: 'manager', stores: [here] });
    const mo = await t.signIn('mo.avail@dealer.test');
    const awayIn = async (store: number) =>
      (await t.db.selectFrom('memberships').select('away').where('store_id', '=', store).where('user_id', '=', dee.id).executeTakeFirstOrThrow()).away;
    const listedIn = async (code: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/availability/${dee.id}`, headers: { cookie: boss, 'x-store': code } })).json().timeOff;
    const today = dayKey(new Date(), tz);
    const text = offText({ fromDay: today, toDay: today });

    const hers = await call('POST', `availability/${dee.id}/time-off`, mo, { fromDay: today, toDay: today, note: 'Off here' });
    expect(hers.statusCode).toBe(201);
    expect(await awayIn(here)).toBe(text);
    expect(await awayIn(other.id)).toBeNull();
    expect(hers.json().timeOff).toMatchObject([{ note: 'Off here', everywhere: false }]);
    expect(await listedIn(other.code)).toEqual([]);
    await call('DELETE', `availability/${dee.id}/time-off/${hers.json().timeOff[0].id}`, mo);

    // The group manager's holds in every store; a manager of one of them may not take it away from the others.
    const group = await call('POST', `availability/${dee.id}/time-off`, boss, { fromDay: today, toDay: today });
    expect(group.json().timeOff).toMatchObject([{ everywhere: true }]);
    expect(await awayIn(other.id)).toBe(text);
    const refused = await call('DELETE', `availability/${dee.id}/time-off/${group.json().timeOff[0].id}`, mo);
    expect([refused.statusCode, refused.json().error]).toEqual([
      403,
      'This time off holds in every store Dee Avail works in: he, or a manager of each of those stores, can remove it.',
    ]);
    expect(await awayIn(other.id)).toBe(text);
    expect((await call('DELETE', `availability/${dee.id}/time-off/${group.json().timeOff[0].id}`, boss)).statusCode).toBe(200);
    expect(await awayIn(other.id)).toBeNull();

    // A manager of both his stores answers for all of him (domain/users.ts authorityOver), as a group manager does.
    await insertUser(t.db, { email: 'bo.avail@dealer.test', name: 'Bo Both', role: 'manager', stores: [here, other.id] });
    const both = await call('POST', `availability/${dee.id}/time-off`, await t.signIn('bo.avail@dealer.test'), { fromDay: today, toDay: today });
    expect(both.json().timeOff).toMatchObject([{ everywhere: true }]);
    expect(await awayIn(other.id)).toBe(text);
  });

  it('lets a salesman change only his own, a manager anyone’s in his store', async () => {
    expect((await call('GET', `availability/${rep.Amy.id}`, rep.Amy.cookie)).statusCode).toBe(200);
    expect((await call('GET', `availability/${rep.Amy.id}`, boss)).statusCode).toBe(200);
    const other = await call('GET', `availability/${rep.Amy.id}`, rep.Bob.cookie);
    expect(other.statusCode).toBe(403);
    expect((await call('PUT', `availability/${rep.Amy.id}/hours`, rep.Bob.cookie, { hours: null })).statusCode).toBe(403);
    expect((await call('POST', `availability/${rep.Amy.id}/time-off`, rep.Bob.cookie, { fromDay: '2030-01-01', toDay: '2030-01-01' })).statusCode).toBe(403);
    expect((await call('GET', 'availability/nobody-here', boss)).statusCode).toBe(404);
    // Someone else's time off is not found under one's own name.
    const mine = await call('POST', `availability/${rep.Amy.id}/time-off`, rep.Amy.cookie, { fromDay: '2030-01-01', toDay: '2030-01-01' });
    const offId = mine.json().timeOff[0].id;
    expect((await call('DELETE', `availability/${rep.Bob.id}/time-off/${offId}`, rep.Bob.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', `availability/${rep.Amy.id}/time-off/${offId}`, boss)).statusCode).toBe(200);
    expect((await call('GET', `availability/${rep.Amy.id}`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/availability/${rep.Amy.id}` })).statusCode).toBe(401);
  });

  it('refuses bad days, a last day before the first, NUL bytes and long notes with a clear message', async () => {
    const add = (payload: object) => call('POST', `availability/${rep.Amy.id}/time-off`, rep.Amy.cookie, payload);
    const cases: [object, string][] = [
      [{ fromDay: '2026-13-01', toDay: '2026-13-02' }, 'First day off must be a day like 2026-11-28'],
      [{ fromDay: '2026-11-28', toDay: '2026-11-27' }, 'The last day off must not be before the first'],
      [{ fromDay: '2026-01-01', toDay: '2027-06-01' }, 'Time off may be at most a year long'],
      [{ fromDay: '2026-11-28', toDay: '2026-11-28', note: 'x'.repeat(10_000) }, 'The note may be at most 100 characters'],
      [{ fromDay: '2026-11-28\u0000', toDay: '2026-11-28' }, 'Text must be valid Unicode (UTF-8) without NUL characters.'],
      [{ fromDay: '2026-11-28', toDay: '2026-11-28', note: 'a\u0000b' }, 'Text must be valid Unicode (UTF-8) without NUL characters.'],
    ];
    for (const [payload, error] of cases) {
      const res = await add(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().error).toBe(error);
    }
    const badHours = await call('PUT', `availability/${rep.Amy.id}/hours`, rep.Amy.cookie, {
      hours: [null, { open: '20:00', close: '09:00' }, null, null, null, null, null],
    });
    expect(badHours.statusCode).toBe(400);
    expect(badHours.json().error).toBe('Monday must close after it opens');
    expect((await call('PUT', `availability/${rep.Amy.id}/hours`, rep.Amy.cookie, { hours: 'always' })).statusCode).toBe(400);
    expect((await call('GET', `availability/${rep.Amy.id}`, rep.Amy.cookie)).json()).toMatchObject({ hours: null, timeOff: [] });
  });
});
