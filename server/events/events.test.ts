import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb, MANAGER, PG_AVAILABLE, testApp, type TestApp } from '../test/harness';
import { openEvents } from '../test/sse';
import { startSmtp, linkIn } from '../test/smtp';
import { insertUser } from '../users/repo';
import { startServerProcess } from '../test/process';

describe.each(DIALECTS)('live events on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let boss: string;
  beforeAll(async () => {
    // Its sessions' times and flags are moved in the database by hand, which publishes nothing: no session is kept between requests.
    t = await testApp(dialect, {}, { sessionKeepMs: 0 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${addr.port}`;
    boss = await t.signIn(MANAGER);
    await insertUser(t.db, { email: 'live.rep@dealer.test', name: 'Live Rep', onDuty: true });
  });
  afterAll(() => t.close());

  it('refuses the stream to signed-out visitors', async () => {
    const s = await openEvents(`${base}/api/events`, '');
    expect(s.status).toBe(401);
    s.close();
  });

  it('tells an open screen that the rotation changed when a manager assigns', async () => {
    const rep = await t.signIn('watcher2@dealer.test');
    const s = await openEvents(`${base}/api/events`, rep);
    await s.next('hello');
    const sent = Date.now();
    const r = await fetch(`${base}/api/rotation/assign`, {
      method: 'POST',
      headers: { cookie: boss, 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'Live Customer' }),
    });
    expect(r.status).toBe(200);
    // This assign's news must come within a second. On PostgreSQL the news of an earlier change
    // (the watcher joining the team) can still be on its way when the stream opens and come first.
    while ((await s.next('rotation', 1000)).at < sent);
    await s.next('leads', 1000);
    s.close();
  });

  const post = (url: string, cookie: string, body?: object) =>
    fetch(`${base}${url}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  const uid = async (cookie: string) => (await (await fetch(`${base}/api/auth/me`, { headers: { cookie } })).json()).user.uid as string;
  const assign = (customer: string) => post('/api/rotation/assign', boss, { customer });

  it("says with each stream's hello when its store last changed, so a page drawn after that knows it is current", async () => {
    const first = await openEvents(`${base}/api/events`, boss);
    const before = (await first.next('hello')) as { since?: number };
    expect(typeof before.since).toBe('number');
    expect((await assign('Since Customer')).status).toBe(200);
    let news = await first.next('rotation', 1000);
    while (news.at < (before.since ?? 0)) news = await first.next('rotation', 1000);
    first.close();
    const again = await openEvents(`${base}/api/events`, boss);
    const after = (await again.next('hello')) as { since?: number };
    expect(after.since).toBeGreaterThanOrEqual(news.at);
    expect(after.since).toBeLessThanOrEqual(Date.now());
    again.close();
  });

  it('ends a stream within 5 s when its session logs out; another session of the same person stays open', async () => {
    const phone = await t.signIn('two.devices@dealer.test');
    const laptop = await t.signIn('two.devices@dealer.test');
    const a = await openEvents(`${base}/api/events`, phone);
    const b = await openEvents(`${base}/api/events`, laptop);
    await Promise.all([a.next('hello'), b.next('hello')]);
    expect((await post('/api/auth/logout', phone)).status).toBe(200);
    await a.ended(5000);
    expect((await assign('After Logout')).status).toBe(200);
    await b.next('rotation');
    expect(a.events.map((e) => e.topic)).not.toContain('rotation');
    b.close();
  });

  it('ends a stream with session-revoked when the person is disabled or deleted', async () => {
    for (const action of ['disable', 'delete']) {
      const cookie = await t.signIn(`revoked.${action}@dealer.test`);
      const id = await uid(cookie);
      const s = await openEvents(`${base}/api/events`, cookie);
      await s.next('hello');
      expect((await post(`/api/users/${id}/${action}`, boss)).status).toBe(200);
      expect(await s.next('session-revoked')).toMatchObject({ userId: id });
      await s.ended(5000);
      expect((await openEvents(`${base}/api/events`, cookie)).status).toBe(401);
    }
  });

  it('ends a stream within 5 s when its session expires', async () => {
    const cookie = await t.signIn('expiring@dealer.test');
    const s = await openEvents(`${base}/api/events`, cookie);
    await s.next('hello');
    await t.db
      .updateTable('sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', await uid(cookie))
      .execute();
    await s.ended(5000);
    expect((await openEvents(`${base}/api/events`, cookie)).status).toBe(401);
  });

  it('restarts a stream with the new rights after a role change', async () => {
    const cookie = await t.signIn('promoted@dealer.test');
    const id = await uid(cookie);
    const s = await openEvents(`${base}/api/events`, cookie);
    await s.next('hello');
    const r = await fetch(`${base}/api/users/${id}`, {
      method: 'PATCH',
      headers: { cookie: boss, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'promoted@dealer.test', role: 'manager' }),
    });
    expect(r.status).toBe(200);
    await s.ended(5000);
    const again = await openEvents(`${base}/api/events`, cookie);
    expect(again.status).toBe(200);
    await again.next('hello');
    expect((await (await fetch(`${base}/api/auth/me`, { headers: { cookie } })).json()).user.isManager).toBe(true);
    again.close();
  });

  it('opens at most 10 streams per session; the 11th is refused with 429', async () => {
    const cookie = await t.signIn('many.tabs@dealer.test');
    const tabs = await Promise.all(Array.from({ length: 10 }, () => openEvents(`${base}/api/events`, cookie)));
    expect(tabs.map((x) => x.status)).toEqual(tabs.map(() => 200));
    const eleventh = await fetch(`${base}/api/events`, { headers: { cookie } });
    expect(eleventh.status).toBe(429);
    expect((await eleventh.json()).error).toMatch(/at most 10/);
    // Another sign-in of the same person has streams of its own.
    const other = await openEvents(`${base}/api/events`, await t.signIn('many.tabs@dealer.test'));
    expect(other.status).toBe(200);
    for (const x of [...tabs, other]) x.close();
  });
});

describe.runIf(PG_AVAILABLE)('two app servers on one PostgreSQL database', () => {
  it('an assign on one server reaches an event stream on the other', async () => {
    const smtp = await startSmtp();
    const dbh = await freshDb('postgres');
    await insertUser(dbh.db, { email: 'floor.rep@dealer.test', name: 'Floor Rep', onDuty: true });
    const env = { DATABASE_URL: dbh.url!, SMTP_URL: smtp.url, MANAGER_EMAILS: MANAGER, PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dbh.dir };
    // Started side by side: each start compiles the server under tsx, seconds of a loaded machine.
    const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    try {
      await fetch(`${a.base}/api/auth/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: MANAGER }) });
      const link = linkIn(await smtp.mailTo(MANAGER));
      // Signed in on server B; the session works on A too, since both share the database.
      const done = await fetch(`${b.base}/api/auth/complete`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: MANAGER, token: link.searchParams.get('t') }),
      });
      expect(done.status).toBe(200);
      const cookie = done.headers.get('set-cookie')!.split(';')[0];
      const s = await openEvents(`${b.base}/api/events`, cookie);
      await s.next('hello');
      const r = await fetch(`${a.base}/api/rotation/assign`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ customer: 'Cross Server' }),
      });
      expect(r.status).toBe(200);
      await s.next('rotation', 2000);
      await s.next('leads', 2000);
      s.close();
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await dbh.close();
      await smtp.close();
    }
  }, 60_000);
});
