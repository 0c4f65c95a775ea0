import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, HEALTH_TOKEN, healthAuth, MANAGER, PG_AVAILABLE } from '../test/harness';
import { startServerProcess, type ServerProcess } from '../test/process';
import { startSmtp } from '../test/smtp';
import { createKey } from '../intake/service';

/** Limits and mail with two app servers (processes of their own) on one PostgreSQL database. */
describe.runIf(PG_AVAILABLE)('two app servers on one PostgreSQL database share limits and send each mail once', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let dbh: Awaited<ReturnType<typeof freshDb>>;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    smtp = await startSmtp();
    dbh = await freshDb('postgres');
    const env = {
      DATABASE_URL: dbh.url!,
      DATA_DIR: dbh.dir,
      SMTP_URL: smtp.url,
      MANAGER_EMAILS: MANAGER,
      ALLOWED_EMAIL_DOMAINS: 'dealer.test',
      SIGNIN_LINKS_PER_MINUTE: '6',
      SIGNIN_LINKS_PER_ADDRESS: '3',
      // The intake bucket: its burst of 10 (the default), refilled so slowly that no token comes back mid-test.
      INTAKE_PER_MINUTE: '1',
      // Behind a load balancer: X-Forwarded-For names the client, so the test can be many clients.
      TRUST_PROXY: 'true',
      HEALTH_TOKEN,
    };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dbh?.close();
    await smtp?.close();
  });

  const link = (server: ServerProcess, email: string, client: string) =>
    fetch(`${server.base}/api/auth/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ email }),
    });
  /** Both servers report nothing left waiting in the outbox. */
  async function drained() {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const waiting = await Promise.all([a, b].map(async (s) => (await (await fetch(`${s.base}/healthz`, { headers: healthAuth })).json()).outbox.waiting));
      if (waiting.every((n) => n === 0)) return;
      if (Date.now() > deadline) throw new Error('the outbox did not drain');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('counts the per-client sign-in limit across both servers', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await link(i % 2 ? b : a, `client.limit${i}@dealer.test`, '203.0.113.5')).status);
    expect(codes).toEqual([200, 200, 200, 200, 200, 200]);
    const over = [await link(a, 'client.limit6@dealer.test', '203.0.113.5'), await link(b, 'client.limit7@dealer.test', '203.0.113.5')];
    expect(over.map((r) => r.status)).toEqual([429, 429]);
    expect(await over[0].json()).toEqual({ error: 'Too many requests. Please wait a minute and try again.' });
    // Another client is not affected.
    expect((await link(b, 'client.other@dealer.test', '203.0.113.6')).status).toBe(200);
  });

  it('counts the per-address limit of one client across both servers', async () => {
    for (let i = 0; i < 5; i++) expect((await link(i % 2 ? b : a, 'much.asked@dealer.test', '203.0.113.20')).status).toBe(200);
    await drained();
    expect(smtp.count('much.asked@dealer.test')).toBe(3);
  });

  it('sends each queued mail exactly once though both servers send', async () => {
    const emails = Array.from({ length: 24 }, (_, i) => `once${i}@dealer.test`);
    const answers = await Promise.all(emails.map((e, i) => link(i % 2 ? b : a, e, `198.51.100.${i + 1}`)));
    expect(answers.map((r) => r.status)).toEqual(emails.map(() => 200));
    for (const e of emails) await smtp.mailTo(e, 15_000);
    // A mail queued afterwards arrives and nothing is left waiting: any second copy would have gone by now.
    await link(a, 'once.marker@dealer.test', '198.51.100.200');
    await smtp.mailTo('once.marker@dealer.test', 15_000);
    await drained();
    expect(emails.map((e) => smtp.count(e))).toEqual(emails.map(() => 1));
    const rows = await dbh.db.selectFrom('outbox').select(['state', 'attempts']).where('recipient', 'in', emails).execute();
    expect(rows).toEqual(emails.map(() => ({ state: 'sent', attempts: 1 })));
  });

  it('draws one intake bucket per key across both servers: a burst of 10, then 429 with Retry-After', async () => {
    const { key } = await createKey(dbh.db, 1, 'Website', MANAGER);
    const post = (server: ServerProcess) =>
      fetch(`${server.base}/api/v1/leads`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: '{}' });
    const codes = [];
    for (let i = 0; i < 10; i++) codes.push((await post(i % 2 ? b : a)).status);
    // Each server alone saw only half the burst; the requests were invalid, but counted.
    expect(codes).toEqual(Array(10).fill(400));
    const over = [await post(a), await post(b)];
    expect(over.map((r) => r.status)).toEqual([429, 429]);
    // One token a minute: the next one comes within the minute.
    for (const r of over) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const r of over) expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });
});
