import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { openDb, withRotationLock } from '../db';
import { buildApp } from '../app';
import { inStore } from '../context';
import { sweep } from '../rotation/handout';
import { addDays, atClock, TYPICAL_HOURS, type DayHours } from '../../domain/hours';
import { formatDay } from '../../domain/format';
import { saveRules } from '../rules/service';
import type { Rules } from '../../domain/rules';
import { dayKey, weekdayOf } from '../../domain/time';

const HOUR = 3_600_000;
/** Monday 2026-11-16, 8:00:30 PM in New York: half a minute after closing (Mon–Sat 9 AM–8 PM). */
const AFTER_CLOSING = new Date('2026-11-17T01:00:30Z');
const NEVER_OPEN = Array<DayHours>(7).fill(null);
const SECOND_MANAGER = 'second.boss@dealer.test';

describe.each(DIALECTS)('the floor day on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let key: string;
  const rep: Record<string, { id: string; cookie: string; email: string }> = {};

  beforeAll(async () => {
    // The sweep runs only when a test calls it, with the time the test says.
    t = await testApp(dialect, { MANAGER_EMAILS: `${MANAGER},${SECOND_MANAGER}` }, { sweepMs: 24 * HOUR });
    boss = await t.signIn(MANAGER);
    await t.signIn(SECOND_MANAGER);
    for (const name of ['Amy', 'Bob', 'Cy']) {
      const email = `${name.toLowerCase()}.day@dealer.test`;
      const u = await withRotationLock(t.dbh, (trx) => insertUser(trx, { email, name: `${name} Day` }));
      rep[name] = { id: u.id, email, cookie: await t.signIn(email) };
    }
    key = (await call('POST', 'integrations/keys', boss, { name: 'Website' })).json().key;
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'POST' | 'PATCH', url: string, cookie = boss, payload?: object) {
    return t.app.inject({ method, url: `/api/${url}`, headers: { cookie }, payload });
  }
  const duty = (who: string, onDuty: boolean) => call('POST', 'rotation/duty', rep[who].cookie, { onDuty });
  const hours = (businessHours: readonly DayHours[] | null) => call('PATCH', 'rules', boss, { businessHours });
  const intake = (customer: string) => t.app.inject({ method: 'POST', url: '/api/v1/leads', headers: { 'x-api-key': key }, payload: { customer } });
  const leadOf = (customer: string) => t.db.selectFrom('leads').selectAll().where('customer', '=', customer).executeTakeFirstOrThrow();

  it('keeps business hours as a rule that staff read and only managers change, refusing bad hours with a clear message', async () => {
    expect((await hours(TYPICAL_HOURS)).statusCode).toBe(200);
    expect((await call('GET', 'rules', rep.Amy.cookie)).json().rules.businessHours).toEqual(TYPICAL_HOURS);
    expect((await call('PATCH', 'rules', rep.Amy.cookie, { businessHours: null })).statusCode).toBe(403);
    const bad = await hours([null, { open: '20:00', close: '09:00' }, null, null, null, null, null]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'Monday must close after it opens', field: 'businessHours.1.close' });
    for (const junk of [
      [null],
      'always',
      [null, { open: '09:00\u0000', close: '20:00' }, null, null, null, null, null],
      [null, { open: 'x'.repeat(10_000), close: '20:00' }, null, null, null, null, null],
    ]) {
      expect((await hours(junk as DayHours[])).statusCode).toBe(400);
    }
    expect((await call('GET', 'rules')).json().rules.businessHours).toEqual(TYPICAL_HOURS);
  });

  it('at closing takes everyone off duty and ends snoozes in one go, logs it once, and mails every manager the report once, though two app servers sweep', async () => {
    await hours(TYPICAL_HOURS);
    for (const who of ['Amy', 'Bob']) expect((await duty(who, true)).statusCode).toBe(200);
    await t.db
      .updateTable('memberships')
      .set({ snooze_until: AFTER_CLOSING.getTime() + HOUR })
      .where('user_id', '=', rep.Cy.id)
      .where('store_id', '=', 1)
      .execute();
    const seen = [MANAGER, SECOND_MANAGER].map((m) => t.smtp.count(m));
    // On PostgreSQL a second app server on the same database sweeps at the same moment (SQLite is one server's).
    const twinDb = dialect === 'postgres' ? await openDb({ databaseUrl: t.dbh.url, dataDir: t.dbh.dir }) : null;
    const twin = twinDb ? await buildApp({ config: t.config, dbh: twinDb, sweepMs: 24 * HOUR }) : t.app;
    await twin.ready();
    const here = t.store;
    const there = inStore(twin.ctx, t.store.store);
    try {
      // Before closing nothing happens.
      await Promise.all([sweep(here, new Date(AFTER_CLOSING.getTime() - HOUR)), sweep(there, new Date(AFTER_CLOSING.getTime() - HOUR))]);
      expect((await call('GET', 'rotation')).json().queue).toHaveLength(2);
      await Promise.all([sweep(here, AFTER_CLOSING), sweep(there, AFTER_CLOSING), sweep(here, AFTER_CLOSING), sweep(there, AFTER_CLOSING)]);
    } finally {
      if (twinDb) {
        await twin.close();
        await twinDb.close();
      }
    }
    const team = await t.db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select(['name', 'on_duty', 'snooze_until'])
      .where('memberships.store_id', '=', 1)
      .where('email', 'like', '%.day@dealer.test')
      .orderBy('name')
      .execute();
    expect(team.map((u) => [u.name, u.on_duty, u.snooze_until])).toEqual([
      ['Amy Day', 0, null],
      ['Bob Day', 0, null],
      ['Cy Day', 0, null],
    ]);
    const log = (await call('GET', 'rotation')).json().log;
    expect(log.filter((e: { type: string }) => e.type === 'closed')).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: 'closed', managerName: 'Closing' });
    // Amy's record says who took her off duty.
    const audit = (await call('GET', `users/${rep.Amy.id}/audit`)).json().entries;
    expect(audit[0]).toMatchObject({ action: 'off duty', actorName: 'Closing' });

    for (const [i, manager] of [MANAGER, SECOND_MANAGER].entries()) {
      const mail = await t.smtp.mailTo(manager, 5000, seen[i]);
      expect(mail.subject).toBe(`BDC Portal: ${t.store.store.name} floor report for Nov 16, 2026`);
      for (const name of ['Amy Day', 'Bob Day', 'Cy Day']) expect(mail.text).toMatch(new RegExp(`${name}\\r?\\n  Ups: 0 `));
    }
    // The next sweeps find the day closed; a later event (another mail) proves no second report came.
    await Promise.all([sweep(t.store, new Date(AFTER_CLOSING.getTime() + HOUR)), sweep(t.store, AFTER_CLOSING)]);
    await call('POST', 'floor/report/send', boss, { day: '2026-11-15' });
    await t.smtp.mailTo(MANAGER, 5000, seen[0] + 1);
    await t.drained();
    expect(
      t.smtp.inbox
        .filter((m) => m.subject === `BDC Portal: ${t.store.store.name} floor report for Nov 16, 2026`)
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual([MANAGER, SECOND_MANAGER].sort());
    expect(await t.db.selectFrom('floor_days').selectAll().where('day', '=', '2026-11-16').execute()).toEqual([
      { store_id: 1, day: '2026-11-16', closed_at: expect.anything() },
    ]);
  });

  it('keeps a lead that arrives while closed in Unassigned, even with someone on duty, and hands it out first once the floor opens and a salesman clocks in', async () => {
    await hours(NEVER_OPEN);
    // A manager may still put someone on and assign by hand.
    expect((await call('POST', 'rotation/status', boss, { uid: rep.Bob.id, onDuty: true })).statusCode).toBe(200);
    const r = await intake('Night Owl');
    expect(r.json().leads[0]).toMatchObject({ customer: 'Night Owl', status: 'unassigned', assignedTo: null });
    await sweep(t.store);
    await duty('Amy', true);
    expect((await leadOf('Night Owl')).assigned_to).toBe('');
    const walkIn = await call('POST', 'rotation/assign', boss, { customer: 'Walk In' });
    expect(walkIn.statusCode).toBe(200);
    expect(walkIn.json().assignedTo).not.toBeNull();
    expect((await leadOf('Night Owl')).assigned_to).toBe('');

    // Morning: the floor opens with nobody on it (the closing clocked everyone out).
    for (const who of ['Amy', 'Bob']) await duty(who, false);
    await hours(null);
    await sweep(t.store);
    expect((await leadOf('Night Owl')).assigned_to).toBe('');
    await duty('Cy', true);
    expect((await leadOf('Night Owl')).assigned_to).toBe(rep.Cy.id);
    const mine = (await call('GET', 'leads/mine?open=1', rep.Cy.cookie)).json().leads.map((l: { customer: string }) => l.customer);
    expect(mine).toContain('Night Owl');
  });

  it('shows any day’s report to managers only, as a spreadsheet too, and refuses a day to come or a bad date', async () => {
    const today = dayKey(new Date(), t.config.APP_TIMEZONE);
    const r = await call('GET', 'floor/report');
    expect(r.statusCode).toBe(200);
    const { report } = r.json();
    expect(report.day).toBe(today);
    // Today Cy got the lead that waited overnight; the walk-in went to someone on duty.
    expect(report.associates.find((a: { name: string }) => a.name === 'Cy Day')).toMatchObject({ ups: 1 });
    expect(report.team.ups).toBe(2);
    expect((await call('GET', 'floor/report?day=2026-11-16')).json()).toMatchObject({ report: { day: '2026-11-16' }, closedAt: AFTER_CLOSING.toISOString() });
    const csv = await call('GET', `floor/report.csv?day=${today}`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="floor-report-${t.store.store.code}-${today}.csv"`);
    expect(csv.body).toMatch(/^Store,Salesman,Ups,Be-backs,/);
    expect(csv.body).toContain(`${t.store.store.code},Cy Day,1,`);

    expect((await call('GET', 'floor/report', rep.Amy.cookie)).statusCode).toBe(403);
    expect((await call('POST', 'floor/report/send', rep.Amy.cookie, { day: today })).statusCode).toBe(403);
    for (const [day, error] of [
      ['2999-01-01', 'Pick today or a day before it.'],
      ['2026-02-30', 'Enter a real date (YYYY-MM-DD)'],
      ['../../etc', 'Enter a real date (YYYY-MM-DD)'],
    ]) {
      const bad = await call('GET', `floor/report?day=${encodeURIComponent(day)}`);
      expect([bad.statusCode, bad.json().error]).toEqual([400, error]);
      const send = await call('POST', 'floor/report/send', boss, { day });
      expect([send.statusCode, send.json().error]).toEqual([400, error]);
    }
    expect((await call('GET', 'floor/report?day=a&day=b')).statusCode).toBe(400);
  });

  it('sends the report on demand to every manager', async () => {
    const today = dayKey(new Date(), t.config.APP_TIMEZONE);
    const seen = t.smtp.count(SECOND_MANAGER);
    const r = await call('POST', 'floor/report/send', boss, { day: today });
    expect(r.json()).toEqual({ day: today, sent: 2 });
    const mail = await t.smtp.mailTo(SECOND_MANAGER, 5000, seen);
    expect(mail.text).toMatch(/Cy Day\r?\n {2}Ups: 1 /);
    // A held-down key or a script: a few a minute, then a clear refusal that sends nothing.
    const codes = [];
    for (let i = 0; i < 12; i++) codes.push((await call('POST', 'floor/report/send', boss, { day: today })).statusCode);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThan(0);
    expect(codes.filter((c) => c !== 200 && c !== 429)).toEqual([]);
    const refused = await call('POST', 'floor/report/send', boss, { day: today });
    expect(refused.json().error).toBe('The floor report was just sent several times. Wait a minute before sending it again.');
  });

  describe('closing is safe', () => {
    const tz = 'America/New_York';
    /** A Monday to Wednesday a week or more ahead (the closing and the two mornings after it are open days), so clock-ins stamped now come before it. */
    const ahead = (() => {
      let d = addDays(dayKey(new Date(), tz), 7);
      while (![1, 2, 3].includes(weekdayOf(d))) d = addDays(d, 1);
      return d;
    })();
    const reportsFor = (day: string) =>
      t.smtp.inbox.filter((m) => m.to.includes(MANAGER) && m.subject === `BDC Portal: ${t.store.store.name} floor report for ${formatDay(day)}`);
    const onDuty = async () =>
      (
        await t.db
          .selectFrom('users')
          .innerJoin('memberships', 'memberships.user_id', 'users.id')
          .select(['name', 'on_duty'])
          .where('memberships.store_id', '=', 1)
          .where('email', 'like', '%.day@dealer.test')
          .orderBy('name')
          .execute()
      ).map((u) => [u.name, u.on_duty]);
    const clockIn = async (who: string, at: Date) => {
      const before = Date.now();
      await duty(who, true);
      // The clock-in happened at `at` on the test's clock.
      await t.db
        .updateTable('audit_log')
        .set({ at: at.getTime() })
        .where('user_id', '=', rep[who].id)
        .where('action', '=', 'on duty')
        .where('at', '>=', before)
        .execute();
    };

    it('a restart the next morning closes the day before but clocks out nobody who clocked in after that closing, and mails its report once', async () => {
      await hours(null);
      for (const who of ['Amy', 'Bob', 'Cy']) await duty(who, false);
      await hours(TYPICAL_HOURS);
      await duty('Amy', true); // on the floor since before the closing
      const closing = atClock(ahead, '20:00', tz);
      const morning = atClock(addDays(ahead, 1), '08:30', tz);
      await clockIn('Bob', atClock(addDays(ahead, 1), '08:10', tz)); // came in early the next day
      const seen = t.smtp.count(MANAGER);
      // The server was down from before the closing until the morning.
      await Promise.all([sweep(t.store, morning), sweep(t.store, morning)]);
      expect(await onDuty()).toEqual([
        ['Amy Day', 0],
        ['Bob Day', 1],
        ['Cy Day', 0],
      ]);
      expect(closing.getTime()).toBeLessThan(morning.getTime());
      await t.smtp.mailTo(MANAGER, 5000, seen);
      // Later sweeps find the day closed: with the outbox drained, one report is all there is.
      await sweep(t.store, new Date(morning.getTime() + 60_000));
      await t.drained();
      expect(reportsFor(ahead)).toHaveLength(1);
    });

    it('turning hours on after closing time passes over the closing that fell before them: nobody is clocked out and no report is mailed', async () => {
      const day = addDays(ahead, 2);
      await hours(null);
      for (const who of ['Amy', 'Bob']) await duty(who, true);
      const early = atClock(day, '08:01', tz);
      // 8:01 AM, before opening at 9: yesterday's closing (8 PM) is the one the new hours make due.
      const saved = await saveRules(
        t.dbh,
        { businessHours: TYPICAL_HOURS as Rules['businessHours'] },
        { id: null, name: 'Test manager' },
        { tz, now: early.getTime() },
      );
      expect(saved.changed).toBe(true);
      await sweep(t.store, new Date(early.getTime() + 60_000));
      expect((await onDuty()).filter(([, on]) => on === 1).map(([name]) => name)).toEqual(['Amy Day', 'Bob Day']);
      // The day's own closing comes: now the floor closes, and its report is the one mailed.
      const seen = t.smtp.count(MANAGER);
      await sweep(t.store, new Date(atClock(day, '20:00', tz).getTime() + 30_000));
      expect((await onDuty()).filter(([, on]) => on === 1)).toEqual([]);
      await t.smtp.mailTo(MANAGER, 5000, seen);
      await t.drained();
      expect(reportsFor(day)).toHaveLength(1);
      expect(reportsFor(addDays(day, -1))).toHaveLength(0);
    });
  });
});
