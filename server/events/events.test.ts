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
    t = await testApp(dialect);
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
    const r = await fetch(`${base}/api/rotation/assign`, { method: 'POST', headers: { cookie: boss, 'content-type': 'application/json' }, body: JSON.stringify({ customer: 'Live Customer' }) });
    expect(r.status).toBe(200);
    const e = await s.next('rotation', 1000);
    expect(e.at).toBeGreaterThanOrEqual(sent);
    await s.next('leads', 1000);
    s.close();
  });
});

describe.runIf(PG_AVAILABLE)('two app servers on one PostgreSQL database', () => {
  it('an assign on one server reaches an event stream on the other', async () => {
    const smtp = await startSmtp();
    const dbh = await freshDb('postgres');
    await insertUser(dbh.db, { email: 'floor.rep@dealer.test', name: 'Floor Rep', onDuty: true });
    const env = { DATABASE_URL: dbh.url!, SMTP_URL: smtp.url, MANAGER_EMAILS: MANAGER, PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dbh.dir };
    const a = await startServerProcess(env);
    const b = await startServerProcess(env);
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
      const r = await fetch(`${a.base}/api/rotation/assign`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ customer: 'Cross Server' }) });
      expect(r.status).toBe(200);
      await s.next('rotation', 2000);
      s.close();
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await dbh.close();
      await smtp.close();
    }
  });
});
