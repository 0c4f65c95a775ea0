import { afterEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../app';
import { DIALECTS, healthAuth, MANAGER, testApp, type TestApp } from '../test/harness';
import { linkIn, startSmtp } from '../test/smtp';
import { until } from '../test/until';
import { insertUser } from '../users/repo';

/** Short retries so an outage of a moment is over within the test. */
const timing = { pollMs: 100, backoffMs: 100, maxBackoffMs: 400 };

describe.each(DIALECTS)('the mail outbox on %s', (dialect) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** An SMTP server that is down: its port is known, nothing listens on it. */
  async function downSmtp() {
    const s = await startSmtp();
    await s.close();
    return { url: s.url, port: s.port };
  }
  const ask = (app: TestApp['app'], email: string) => app.inject({ method: 'POST', url: '/api/auth/link', payload: { email }, remoteAddress: '10.3.0.1' });
  const row = (email: string) => t!.db.selectFrom('outbox').selectAll().where('recipient', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const health = async () => (await t!.app.inject({ method: 'GET', url: '/healthz', headers: healthAuth })).json();

  it('answers alike while SMTP is down, reports the backlog, and delivers the link when SMTP returns', async () => {
    const down = await downSmtp();
    t = await testApp(dialect, { SMTP_URL: down.url }, { outboxTiming: timing });
    const answers = await Promise.all([MANAGER, 'nobody@elsewhere.test'].map((e) => ask(t!.app, e)));
    expect(answers.map((a) => [a.statusCode, a.json()])).toEqual([
      [200, { ok: true }],
      [200, { ok: true }],
    ]);
    await until(async () => (await row(MANAGER)).attempts >= 2, 'the sender retried');
    expect(await row(MANAGER)).toMatchObject({ state: 'waiting', last_error: expect.stringMatching(/ECONNREFUSED|connect/i) });
    const h = await health();
    expect(h.outbox.waiting).toBe(1);
    // The public sees up or down only: the backlog moved for the known address alone.
    for (const headers of [{}, { authorization: 'Bearer wrong-token-of-the-same-size!!' }])
      expect((await t.app.inject({ method: 'GET', url: '/healthz', headers })).json()).toEqual({ ok: true });
    expect(h.outbox.oldestWaitingMs).toBeGreaterThan(0);

    const back = await startSmtp(undefined, down.port);
    try {
      const link = linkIn(await back.mailTo(MANAGER, 10_000));
      const done = await t.app.inject({ method: 'POST', url: '/api/auth/complete', payload: { email: MANAGER, token: link.searchParams.get('t') } });
      expect(done.statusCode).toBe(200);
      await t.drained();
      expect((await health()).outbox).toEqual({ waiting: 0, oldestWaitingMs: 0 });
      expect(await row(MANAGER)).toMatchObject({ state: 'sent', body: '' });
      expect(back.count('nobody@elsewhere.test')).toBe(0);
    } finally {
      await back.close();
    }
  });

  it('gives up on a sign-in link once the link has expired', async () => {
    const down = await downSmtp();
    t = await testApp(dialect, { SMTP_URL: down.url }, { outboxTiming: timing });
    await ask(t.app, 'late.link@dealer.test');
    await until(async () => (await row('late.link@dealer.test')).attempts >= 1, 'a first attempt');
    await t.db
      .updateTable('outbox')
      .set({ expires_at: Date.now() - 1, next_at: Date.now() })
      .where('recipient', '=', 'late.link@dealer.test')
      .execute();
    await until(async () => (await row('late.link@dealer.test')).state === 'failed', 'given up');
    expect(await row('late.link@dealer.test')).toMatchObject({ last_error: 'expired before it could be sent', body: '' });

    const back = await startSmtp(undefined, down.port);
    try {
      await ask(t.app, 'fresh.link@dealer.test');
      await back.mailTo('fresh.link@dealer.test', 10_000);
      await t.drained();
      expect(back.count('late.link@dealer.test')).toBe(0);
    } finally {
      await back.close();
    }
  });

  it('keeps queued mail across a restart and sends it from the next start', async () => {
    const down = await downSmtp();
    t = await testApp(dialect, { SMTP_URL: down.url }, { outboxTiming: timing });
    await ask(t.app, 'restart.rep@dealer.test');
    await until(async () => (await row('restart.rep@dealer.test')).attempts >= 1, 'a failed attempt');
    await t.app.close();

    const smtp = await startSmtp();
    const again = await buildApp({ config: { ...t.config, SMTP_URL: smtp.url }, dbh: t.dbh, outboxTiming: timing });
    try {
      await again.ready();
      const link = linkIn(await smtp.mailTo('restart.rep@dealer.test', 10_000));
      const done = await again.inject({
        method: 'POST',
        url: '/api/auth/complete',
        payload: { email: 'restart.rep@dealer.test', token: link.searchParams.get('t') },
      });
      expect(done.statusCode).toBe(200);
    } finally {
      await again.close();
      await smtp.close();
    }
  });

  it('prints the link to the log through the same outbox when no SMTP server is set', async () => {
    const lines: string[] = [];
    t = await testApp(dialect, { SMTP_URL: '' }, { logger: { level: 'info', stream: { write: (l: string) => void lines.push(l) } } });
    expect(t.app.ctx.mailer.describe).toBe('the server log (SMTP_URL is not set)');
    await ask(t.app, 'nobody.logged@elsewhere.test');
    await ask(t.app, MANAGER);
    await t.drained();
    const logged = lines.map((l) => JSON.parse(l).msg as string).filter((m) => m.startsWith('Sign-in link for'));
    expect(logged).toHaveLength(1);
    const link = new URL(/(http\S+)$/.exec(logged[0])![1]);
    expect(link.searchParams.get('e')).toBe(MANAGER);
    const done = await t.app.inject({ method: 'POST', url: '/api/auth/complete', payload: { email: MANAGER, token: link.searchParams.get('t') } });
    expect(done.statusCode).toBe(200);
    expect(await row(MANAGER)).toMatchObject({ state: 'sent', body: '' });
  });

  it("queues the salesman's new-lead mail: an assign while SMTP is down succeeds and the mail follows", async () => {
    t = await testApp(dialect, {}, { outboxTiming: timing });
    const boss = await t.signIn(MANAGER);
    await insertUser(t.db, { email: 'lead.rep@dealer.test', name: 'Lead Rep', onDuty: true });
    const port = t.smtp.port;
    await t.smtp.close();
    const r = await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer: 'Outage Customer' } });
    expect(r.statusCode).toBe(200);
    // The mail is queued just after the answer.
    const queued = () => t!.db.selectFrom('outbox').selectAll().where('recipient', '=', 'lead.rep@dealer.test').executeTakeFirst();
    await until(async () => ((await queued())?.attempts ?? 0) >= 1, 'a failed attempt');
    expect(await queued()).toMatchObject({ kind: 'lead', state: 'waiting' });
    const back = await startSmtp(undefined, port);
    try {
      const mail = await back.mailTo('lead.rep@dealer.test', 10_000);
      expect(mail.subject).toBe('New lead: Outage Customer');
    } finally {
      await back.close();
    }
  });

  it('sends a burst of mail ten SMTP sessions at a time, each mail once', async () => {
    // A mail server that takes its time over each message and counts the sessions open at once.
    let open = 0;
    let most = 0;
    const got: string[] = [];
    const slow = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onConnect(_session, done) {
        most = Math.max(most, ++open);
        done();
      },
      onClose() {
        open--;
      },
      onData(stream, session, done) {
        stream.resume();
        stream.on('end', () => setTimeout(() => (got.push(session.envelope.rcptTo[0].address), done()), 100));
      },
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      t = await testApp(dialect, { SMTP_URL: `smtp://127.0.0.1:${(slow.server.address() as AddressInfo).port}` }, { outboxTiming: timing });
      const to = Array.from({ length: 30 }, (_, i) => `burst${i}@dealer.test`);
      await t.app.ctx.outbox.queue(to.map((a) => ({ kind: 'email', mail: { to: a, subject: 'Burst', text: 'Hello' }, expiresAt: Date.now() + 60_000 })));
      await until(() => got.length === 30, 'all thirty delivered');
      expect(got.sort()).toEqual(to.sort());
      expect(most).toBe(10);
      // Each went once, and each is recorded sent.
      const burst = () => t!.db.selectFrom('outbox').select(['state', 'attempts']).where('recipient', 'like', 'burst%').execute();
      await until(async () => (await burst()).every((r) => r.state === 'sent'), 'all recorded sent');
      expect((await burst()).map((r) => r.attempts)).toEqual(to.map(() => 1));
    } finally {
      await t?.close();
      t = undefined;
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });
});
