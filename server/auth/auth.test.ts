import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { linkIn } from '../test/smtp';
import { insertUser } from '../users/repo';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from './tokens';

describe.each(DIALECTS)('sign-in by e-mail link on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // Its sessions' times and flags are moved in the database by hand, which publishes nothing: no session is kept between requests.
    t = await testApp(dialect, {}, { sessionKeepMs: 0 });
  });
  afterAll(() => t.close());

  const requestLink = (email: string, ip = '10.0.0.1') => t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email }, remoteAddress: ip });
  const complete = (email: string | null, token: string | null) => t.app.inject({ method: 'POST', url: '/api/auth/complete', payload: { email, token } });
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
  const mailsTo = (email: string) => t.smtp.count(email);

  it('mails a link to the portal that works once and signs the manager in', async () => {
    const res = await requestLink('  Boss@Dealer.Test ');
    expect(res.statusCode).toBe(200);
    const mail = await t.smtp.mailTo(MANAGER);
    expect(mail.subject).toContain('BDC Portal');
    expect(mail.text).toContain('expires in 15 minutes');
    const link = linkIn(mail);
    expect(link.origin + link.pathname).toBe('http://localhost:3000/finish-login');
    expect(link.searchParams.get('e')).toBe(MANAGER);

    const token = link.searchParams.get('t')!;
    const first = await complete(MANAGER, token);
    expect(first.statusCode).toBe(200);
    const cookie = first.cookies.find((c) => c.name === 'bdc_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(first.json().user).toMatchObject({ email: MANAGER, name: 'User', role: 'manager', isManager: true, claimRole: 'manager' });

    const again = await complete(MANAGER, token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'This link was already used or expired.', code: 'invalid-action-code' });

    const who = await me(`bdc_session=${cookie.value}`);
    expect(who.json().user.email).toBe(MANAGER);
  });

  it('stores only a hash of the link token, and the queued mail only sealed', async () => {
    await requestLink('hash@dealer.test');
    const token = linkIn(await t.smtp.mailTo('hash@dealer.test')).searchParams.get('t')!;
    const rows = await t.db.selectFrom('login_tokens').selectAll().where('email', '=', 'hash@dealer.test').execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    await t.drained();
    const queued = await t.db.selectFrom('outbox').selectAll().where('recipient', '=', 'hash@dealer.test').execute();
    expect(queued).toMatchObject([{ kind: 'signin', state: 'sent', body: '' }]);
  });

  it('refuses an expired link and a link used with another address', async () => {
    await requestLink('late@dealer.test');
    const token = linkIn(await t.smtp.mailTo('late@dealer.test')).searchParams.get('t')!;
    expect((await complete('other@dealer.test', token)).statusCode).toBe(400);
    await t.db
      .updateTable('login_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('email', '=', 'late@dealer.test')
      .execute();
    const res = await complete('late@dealer.test', token);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('This link was already used or expired.');
  });

  it('answers bad input with the specification messages', async () => {
    expect((await requestLink('   ')).json()).toEqual({ error: 'Email required', field: 'email' });
    expect((await requestLink('not-an-email')).statusCode).toBe(400);
    const noEmail = await complete(null, 'abc');
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().error).toBe('Missing email for link sign-in.');
    const noToken = await complete(MANAGER, null);
    expect(noToken.json().error).toBe('Invalid or expired sign-in link.');
    const junk = await t.app.inject({ method: 'POST', url: '/api/auth/link', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(junk.statusCode).toBe(400);
  });

  it('sends nothing to strangers, disabled or deleted users, yet answers them alike', async () => {
    await insertUser(t.db, { email: 'gone@elsewhere.test' }).then((u) =>
      t.db.updateTable('users').set({ disabled: 1, deleted_at: Date.now() }).where('id', '=', u.id).execute(),
    );
    for (const email of ['stranger@elsewhere.test', 'gone@elsewhere.test']) {
      const res = await requestLink(email);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    }
    // A link asked for afterwards arrives, and nothing else is left to send.
    await requestLink('after.strangers@dealer.test');
    await t.smtp.mailTo('after.strangers@dealer.test');
    await t.drained();
    const rows = await t.db
      .selectFrom('outbox')
      .select(['recipient', 'state'])
      .where('recipient', 'in', ['stranger@elsewhere.test', 'gone@elsewhere.test'])
      .execute();
    expect(rows.map((r) => r.state)).toEqual(['dropped', 'dropped']);
    expect(mailsTo('stranger@elsewhere.test')).toBe(0);
    expect(mailsTo('gone@elsewhere.test')).toBe(0);
  });

  it('lets in a person a manager added, with the values the manager set', async () => {
    await insertUser(t.db, { email: 'added@elsewhere.test', name: 'Added Person', role: 'manager' });
    const cookie = await t.signIn('added@elsewhere.test');
    expect((await me(cookie)).json().user).toMatchObject({ name: 'Added Person', role: 'manager' });
  });

  it('creates staff from an allowed domain with the default name', async () => {
    const cookie = await t.signIn('new.rep@dealer.test');
    const user = (await me(cookie)).json().user;
    expect(user).toMatchObject({ name: 'User', role: 'staff', isManager: false, claimRole: null });
    // In the list and active, but off duty: he joins the queue when he clocks in.
    expect(user.profile).toMatchObject({ active: true, onDuty: false });
  });

  it('limits links per client and address without telling the requester', async () => {
    const email = 'eager@dealer.test';
    for (let i = 0; i < t.config.SIGNIN_LINKS_PER_ADDRESS + 2; i++) {
      const res = await requestLink(email, '10.1.0.1');
      expect([res.statusCode, res.json()]).toEqual([200, { ok: true }]);
    }
    await t.drained();
    expect(mailsTo(email)).toBe(t.config.SIGNIN_LINKS_PER_ADDRESS);
  });

  it('a stranger who uses up the links for an address does not keep its owner out', async () => {
    const email = 'salesman@dealer.test';
    for (let i = 0; i < t.config.SIGNIN_LINKS_PER_ADDRESS + 3; i++) await requestLink(email, '198.51.100.66');
    await t.drained();
    const seen = mailsTo(email);
    expect(seen).toBe(t.config.SIGNIN_LINKS_PER_ADDRESS);
    // The salesman asks from his own machine and gets a link that signs him in.
    expect((await requestLink(email, '10.2.0.7')).statusCode).toBe(200);
    const link = linkIn(await t.smtp.mailTo(email, 5000, seen));
    expect((await complete(email, link.searchParams.get('t'))).statusCode).toBe(200);
  });

  it('limits link requests per client', async () => {
    const codes: number[] = [];
    for (let i = 0; i <= t.config.SIGNIN_LINKS_PER_MINUTE; i++) codes.push((await requestLink(`flood${i}@elsewhere.test`, '10.9.9.9')).statusCode);
    expect(codes).toEqual([...Array<number>(t.config.SIGNIN_LINKS_PER_MINUTE).fill(200), 429]);
    // A made-up X-Forwarded-For does not make a new client (no proxy is trusted by default).
    const spoofed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      payload: { email: 'spoof@elsewhere.test' },
      remoteAddress: '10.9.9.9',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(spoofed.statusCode).toBe(429);
  });

  it('ends the session on logout: the old cookie stops working', async () => {
    const cookie = await t.signIn('leaver@dealer.test');
    expect((await me(cookie)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect((await me(cookie)).json()).toEqual({ user: null });
  });

  it('renews a session on use at most once an hour, up to 180 days after sign-in; unused for 30 days it ends', async () => {
    const cookie = await t.signIn('regular@dealer.test');
    const hash = (
      await t.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select('id_hash')
        .where('users.email', '=', 'regular@dealer.test')
        .executeTakeFirstOrThrow()
    ).id_hash;
    const session = () => t.db.selectFrom('sessions').selectAll().where('id_hash', '=', hash).executeTakeFirstOrThrow();
    const renewal = (res: Awaited<ReturnType<typeof me>>) => res.cookies.find((c) => c.name === 'bdc_session');
    const first = await session();
    expect(first.expires_at - first.created_at).toBe(SESSION_IDLE_MS);
    // Used again at once: no write, no new cookie.
    expect(renewal(await me(cookie))).toBeUndefined();
    expect((await session()).expires_at).toBe(first.expires_at);

    // Last renewed two hours ago: used now, it runs 30 days from now, and the cookie says so.
    await t.db
      .updateTable('sessions')
      .set({ expires_at: Date.now() + SESSION_IDLE_MS - 2 * 3600_000 })
      .where('id_hash', '=', hash)
      .execute();
    const before = Date.now();
    const renewed = renewal(await me(cookie));
    expect(renewed?.maxAge).toBeGreaterThan(SESSION_IDLE_MS / 1000 - 60);
    expect(renewed).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect((await session()).expires_at).toBeGreaterThanOrEqual(before + SESSION_IDLE_MS);

    // Signed in 179 days ago: renewal stops at 180 days after sign-in.
    const created = Date.now() - 179 * 86_400_000;
    await t.db
      .updateTable('sessions')
      .set({ created_at: created, expires_at: Date.now() + 60_000 })
      .where('id_hash', '=', hash)
      .execute();
    expect(renewal(await me(cookie))?.maxAge).toBeLessThanOrEqual(86_400);
    expect((await session()).expires_at).toBe(created + SESSION_MAX_MS);

    // Not used before it ran out: signed out.
    await t.db
      .updateTable('sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('id_hash', '=', hash)
      .execute();
    expect((await me(cookie)).json()).toEqual({ user: null });
  });

  it('refuses a cross-site request', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      headers: { origin: 'https://evil.example' },
      payload: { email: MANAGER },
    });
    expect(res.statusCode).toBe(403);
  });

  it('updates the own name and greeting, trimmed; an empty name is refused', async () => {
    const cookie = await t.signIn('namer@dealer.test');
    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: '/api/profile', headers: { cookie }, payload });
    const bad = await patch({ name: '   ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Name is required');
    const ok = await patch({ name: '  Rita Rep ', greeting: ' Howdy ' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ name: 'Rita Rep', profile: { greeting: 'Howdy' } });
    const trail = await t.db.selectFrom('audit_log').selectAll().where('user_id', '=', ok.json().user.uid).execute();
    expect(trail.map((a) => [a.action, a.actor_name, JSON.parse(a.changes)])).toEqual([
      ['update', 'User', { name: { from: 'User', to: 'Rita Rep' }, greeting: { from: null, to: 'Howdy' } }],
    ]);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/profile', payload: { name: 'X' } })).statusCode).toBe(401);
  });
});
