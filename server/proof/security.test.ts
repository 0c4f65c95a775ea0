import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { linkIn } from '../test/smtp';

describe.each(DIALECTS)('security on %s', (dialect) => {
  let log = '';
  let t: TestApp;
  let app: TestApp['app'];
  let dbh: TestApp['dbh'];
  let cookie = '';
  let linkToken = '';
  let sessionToken = '';

  beforeAll(async () => {
    const stream = new Writable({ write: (chunk, _enc, done) => ((log += chunk.toString()), done()) });
    t = await testApp(dialect, { PUBLIC_URL: 'https://portal.dealer.test' }, { logger: { level: 'trace', stream } });
    ({ app, dbh } = t);
    await app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: MANAGER } });
    const link = linkIn(await t.smtp.mailTo(MANAGER));
    linkToken = link.searchParams.get('t')!;
    // The browser opens the link page itself (a GET that carries the token in its address).
    await app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    const done = await app.inject({ method: 'POST', url: '/api/auth/complete', payload: { email: MANAGER, token: linkToken } });
    const c = done.cookies.find((k) => k.name === 'bdc_session')!;
    sessionToken = c.value;
    cookie = `bdc_session=${c.value}`;
    expect(c).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
  });
  afterAll(() => t.close());

  it('writes no token, session id or secret to the log', async () => {
    expect(log.length).toBeGreaterThan(100);
    expect(log).not.toContain(linkToken);
    expect(log).not.toContain(sessionToken);
    expect(log).not.toContain(app.ctx.secret);
    expect(log).toContain('[redacted]');
  });

  it('answers no secret in any response', async () => {
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    for (const secret of [sessionToken, app.ctx.secret, linkToken]) expect(me.body).not.toContain(secret);
    const hashes = await dbh.db.selectFrom('sessions').select('id_hash').execute();
    for (const h of hashes) expect(me.body).not.toContain(h.id_hash);
  });

  it('sends security headers with a strict Content-Security-Policy', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('refuses a cross-site request even with a valid session, and changes nothing', async () => {
    const before = await dbh.db.selectFrom('leads').selectAll().execute();
    const res = await app.inject({
      method: 'POST',
      url: '/api/rotation/assign',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: { customer: 'Forged' },
    });
    expect(res.statusCode).toBe(403);
    expect(await dbh.db.selectFrom('leads').selectAll().execute()).toEqual(before);
    const same = await app.inject({ method: 'POST', url: '/api/profile/notes', headers: { cookie, origin: 'https://portal.dealer.test' }, payload: {} });
    expect(same.statusCode).not.toBe(403);
  });
});
