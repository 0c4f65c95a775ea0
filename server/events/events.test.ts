import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb, MANAGER, PG_AVAILABLE, testApp, type TestApp } from '../test/harness';
import { openEvents } from '../test/sse';
import { startSmtp, linkIn } from '../test/smtp';
import { insertUser } from '../users/repo';

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
    await insertUser(t.db, { email: 'live.rep@dealer.test', name: 'Live Rep' });
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

const tsx = path.resolve(import.meta.dirname, '../../node_modules/.bin/tsx');
const main = path.resolve(import.meta.dirname, '../main.ts');

async function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; base: string }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const proc = spawn(tsx, [main], { env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { proc, base };
    } catch {
      /* starting */
    }
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error('app server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.runIf(PG_AVAILABLE)('two app servers on one PostgreSQL database', () => {
  it('an assign on one server reaches an event stream on the other', async () => {
    const smtp = await startSmtp();
    const dbh = await freshDb('postgres');
    await insertUser(dbh.db, { email: 'floor.rep@dealer.test', name: 'Floor Rep' });
    const env = { DATABASE_URL: dbh.url!, SMTP_URL: smtp.url, MANAGER_EMAILS: MANAGER, PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dbh.dir, NODE_ENV: 'test' };
    const a = await startServer(env);
    const b = await startServer(env);
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
      a.proc.kill('SIGTERM');
      b.proc.kill('SIGTERM');
      await Promise.all([a, b].map((x) => new Promise((r) => (x.proc.exitCode !== null ? r(null) : x.proc.once('exit', r)))));
      await dbh.close();
      await smtp.close();
    }
  });
});
