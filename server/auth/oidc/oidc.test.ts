import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../../test/harness';
import { OIDC_CLIENT, startOidcProvider, type OidcProvider } from '../../test/oidc-provider';
import { insertUser } from '../../users/repo';
import { hashToken } from '../tokens';
import { unseal } from './seal';
import { REFUSED } from './routes';
import type { PortalEvent } from '../../events/bus';

const CALLBACK = 'http://localhost:3000/auth/oidc/callback';
const LABEL = 'Sign in with Microsoft';

describe.each(DIALECTS)('single sign-on with a real OpenID provider on %s', (dialect) => {
  let idp: OidcProvider;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startOidcProvider([CALLBACK]);
    // Its sessions' times and flags are moved in the database by hand, which publishes nothing: no session is kept between requests.
    t = await testApp(
      dialect,
      { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: OIDC_CLIENT.id, OIDC_CLIENT_SECRET: OIDC_CLIENT.secret, OIDC_LABEL: LABEL },
      { sessionKeepMs: 0 },
    );
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  let clients = 0;
  /** The browser's trip: the portal's start, the provider's login as `email`, back at the portal's callback. */
  async function startFlow() {
    // Each from a client of its own: the per-client limit on starts is tested by itself.
    const res = await t.app.inject({ method: 'GET', url: '/auth/oidc/start', remoteAddress: `10.1.0.${++clients}` });
    expect(res.statusCode).toBe(302);
    const flow = res.cookies.find((c) => c.name === 'bdc_oidc')!;
    expect(flow).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/auth/oidc' });
    return { authorize: res.headers.location as string, cookie: `bdc_oidc=${flow.value}`, key: flow.value };
  }
  const callback = (back: URL, cookie: string) => t.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie } });
  async function signIn(email: string) {
    const flow = await startFlow();
    const back = await idp.login(flow.authorize, email);
    return callback(back, flow.cookie);
  }
  const sessionOf = (res: { cookies: { name: string; value: string }[] }) => {
    const c = res.cookies.find((x) => x.name === 'bdc_session');
    return c ? `bdc_session=${c.value}` : null;
  };
  const me = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json().user;
  const expectRefused = (res: Awaited<ReturnType<typeof callback>>) => {
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(REFUSED);
    expect(sessionOf(res)).toBeNull();
  };
  const sessionRow = (cookie: string) =>
    t.db
      .selectFrom('sessions')
      .selectAll()
      .where('id_hash', '=', hashToken(t.app.ctx.secret, cookie.split('=')[1]))
      .executeTakeFirst();

  it('sends the browser to the provider with PKCE, state and nonce, and signs a known address in', async () => {
    const flow = await startFlow();
    const at = new URL(flow.authorize);
    expect(at.origin).toBe(idp.issuer);
    expect(at.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(at.searchParams.get('code_challenge_method')).toBe('S256');
    expect(at.searchParams.get('state')).toBeTruthy();
    expect(at.searchParams.get('nonce')).toBeTruthy();
    expect(at.searchParams.get('scope')).toBe('openid email profile offline_access');
    const stored = await t.db.selectFrom('auth_flows').selectAll().where('id_hash', '=', hashToken(t.app.ctx.secret, flow.key)).executeTakeFirstOrThrow();
    expect(stored.kind).toBe('oidc');
    expect(Number(stored.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);

    const res = await callback(await idp.login(flow.authorize, 'Boss@Dealer.Test'), flow.cookie);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/dashboard/overview');
    const cookie = sessionOf(res)!;
    expect(await me(cookie)).toMatchObject({ email: MANAGER, role: 'manager', groupManager: true });
    const row = (await sessionRow(cookie))!;
    expect(row.via).toBe('oidc');
    // The refresh token is kept sealed: what the database holds is not the token itself.
    expect(row.oidc_refresh).toBeTruthy();
    expect(unseal(t.app.ctx.secret, row.oidc_refresh!)).not.toBe(row.oidc_refresh);
    expect(Number(row.recheck_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    // The flow was spent.
    expect(await t.db.selectFrom('auth_flows').select('id_hash').where('kind', '=', 'oidc').execute()).toEqual([]);
  });

  it('counts starts per client: a flood of them is refused', async () => {
    const from = (n: number) => t.app.inject({ method: 'GET', url: '/auth/oidc/start', remoteAddress: `10.9.9.${n}` });
    for (let i = 0; i < 30; i++) expect((await from(1)).statusCode).toBe(302);
    expect((await from(1)).statusCode).toBe(429);
    expect((await from(2)).statusCode).toBe(302);
  });

  it('makes a newcomer on ALLOWED_EMAIL_DOMAINS a salesman, as the link does', async () => {
    const cookie = sessionOf(await signIn('new.hire@dealer.test'))!;
    expect(await me(cookie)).toMatchObject({ email: 'new.hire@dealer.test', role: 'staff' });
  });

  it('refuses an unknown address, a disabled person and an unverified address with the one neutral refusal', async () => {
    expectRefused(await signIn('nobody@elsewhere.test'));
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'nobody@elsewhere.test').execute()).toEqual([]);
    const gone = await insertUser(t.db, { email: 'gone@dealer.test' });
    await t.db.updateTable('users').set({ disabled: 1 }).where('id', '=', gone.id).execute();
    expectRefused(await signIn('gone@dealer.test'));
    idp.account('unchecked@dealer.test', { verified: false });
    expectRefused(await signIn('unchecked@dealer.test'));
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'unchecked@dealer.test').execute()).toEqual([]);
  });

  it("takes the address from the ID token when it is there, and Entra ID's xms_edov as verified", async () => {
    const email = 'entra.user@dealer.test';
    idp.account(email, { verified: false });
    const flow = await startFlow();
    idp.changeNextIdToken((c) => ({ ...c, email, xms_edov: true }));
    const cookie = sessionOf(await callback(await idp.login(flow.authorize, email), flow.cookie))!;
    expect(await me(cookie)).toMatchObject({ email });
    const next = await startFlow();
    idp.changeNextIdToken((c) => ({ ...c, email, xms_edov: false }));
    expectRefused(await callback(await idp.login(next.authorize, email), next.cookie));
  });

  it('refuses a wrong state, and the flow is spent by the attempt', async () => {
    const flow = await startFlow();
    const back = await idp.login(flow.authorize, MANAGER);
    const forged = new URL(back);
    forged.searchParams.set('state', 'someone-elses-state');
    expectRefused(await callback(forged, flow.cookie));
    expectRefused(await callback(back, flow.cookie));
  });

  it('refuses a callback without the browser that started it (no flow cookie)', async () => {
    const flow = await startFlow();
    const back = await idp.login(flow.authorize, MANAGER);
    expectRefused(await callback(back, ''));
    expectRefused(await callback(back, 'bdc_oidc=not-a-flow'));
  });

  it('refuses a replayed code: here (the flow is spent) and at the provider (the code is spent)', async () => {
    const flow = await startFlow();
    const back = await idp.login(flow.authorize, MANAGER);
    const hash = hashToken(t.app.ctx.secret, flow.key);
    const stored = await t.db.selectFrom('auth_flows').selectAll().where('id_hash', '=', hash).executeTakeFirstOrThrow();
    expect(sessionOf(await callback(back, flow.cookie))).toBeTruthy();
    expectRefused(await callback(back, flow.cookie));
    // Even with the flow put back, the provider will not take its code twice.
    await t.db.insertInto('auth_flows').values(stored).execute();
    expectRefused(await callback(back, flow.cookie));
  });

  it('refuses a wrong nonce: in the stored flow, or in the ID token the provider signs', async () => {
    const flow = await startFlow();
    const hash = hashToken(t.app.ctx.secret, flow.key);
    const stored = await t.db.selectFrom('auth_flows').select('data').where('id_hash', '=', hash).executeTakeFirstOrThrow();
    await t.db
      .updateTable('auth_flows')
      .set({ data: JSON.stringify({ ...JSON.parse(stored.data), nonce: 'another-nonce' }) })
      .where('id_hash', '=', hash)
      .execute();
    expectRefused(await callback(await idp.login(flow.authorize, MANAGER), flow.cookie));

    const next = await startFlow();
    idp.changeNextIdToken((c) => ({ ...c, nonce: 'not-the-one-sent' }));
    expectRefused(await callback(await idp.login(next.authorize, MANAGER), next.cookie));
  });

  it('refuses an expired ID token', async () => {
    const flow = await startFlow();
    const now = Math.floor(Date.now() / 1000);
    idp.changeNextIdToken((c) => ({ ...c, iat: now - 7200, exp: now - 3600 }));
    expectRefused(await callback(await idp.login(flow.authorize, MANAGER), flow.cookie));
  });

  it('refuses an ID token not signed by the provider', async () => {
    const flow = await startFlow();
    idp.changeNextIdToken((c) => c, true);
    expectRefused(await callback(await idp.login(flow.authorize, MANAGER), flow.cookie));
  });

  it('refuses what the provider refuses (an error instead of a code)', async () => {
    const flow = await startFlow();
    const state = new URL(flow.authorize).searchParams.get('state')!;
    expectRefused(await callback(new URL(`${CALLBACK}?error=access_denied&state=${state}`), flow.cookie));
  });

  it('still signs in after the provider rotates its signing key (its keys are fetched again)', async () => {
    expect(sessionOf(await signIn(MANAGER))).toBeTruthy();
    idp.rotateKey();
    // openid-client fetches the keys again for an unknown key once its copy is a minute old.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60_000 });
    try {
      const res = await signIn(MANAGER);
      expect(res.headers.location).toBe('/dashboard/overview');
      expect(await me(sessionOf(res)!)).toMatchObject({ email: MANAGER });
    } finally {
      vi.useRealTimers();
    }
  });

  it('re-checks a session with the provider: kept while the account is live, ended once it is disabled there', async () => {
    const email = 'leaver@dealer.test';
    const cookie = sessionOf(await signIn(email))!;
    const due = () =>
      t.db
        .updateTable('sessions')
        .set({ recheck_at: Date.now() - 1 })
        .where('id_hash', '=', hashToken(t.app.ctx.secret, cookie.split('=')[1]))
        .execute();

    await due();
    expect(await me(cookie)).toMatchObject({ email });
    expect(Number((await sessionRow(cookie))!.recheck_at) - Date.now()).toBeGreaterThan(14 * 60_000);

    idp.account(email, { disabled: true });
    // Before the next check the session goes on; at it, the provider's refusal ends it.
    expect(await me(cookie)).toMatchObject({ email });
    const sid = (await sessionRow(cookie))!.sid;
    const heard: PortalEvent[] = [];
    const stop = t.app.ctx.bus.subscribe((e) => heard.push(e));
    await due();
    expect(await me(cookie)).toBeNull();
    expect(await sessionRow(cookie)).toBeUndefined();
    // His open screens on that device hear it at once, as of any sign-out.
    await vi.waitFor(() => expect(heard).toContainEqual(expect.objectContaining({ topic: 'session-revoked', sid })));
    stop();
    // And he cannot sign in again.
    expectRefused(await signIn(email));
  });

  it('asks the provider once for a session however many requests arrive together', async () => {
    const cookie = sessionOf(await signIn(MANAGER))!;
    await t.db
      .updateTable('sessions')
      .set({ recheck_at: Date.now() - 1 })
      .where('id_hash', '=', hashToken(t.app.ctx.secret, cookie.split('=')[1]))
      .execute();
    const before = idp.refreshes();
    const answers = await Promise.all(Array.from({ length: 8 }, () => me(cookie)));
    expect(answers.map((u: { email: string }) => u.email)).toEqual(Array(8).fill(MANAGER));
    expect(idp.refreshes() - before).toBe(1);
  });

  it('a session without a refresh token ends at OIDC_SESSION_HOURS: use does not extend it', async () => {
    idp.giveRefreshTokens(false);
    const cookie = sessionOf(await signIn(MANAGER))!;
    idp.giveRefreshTokens(true);
    const made = (await sessionRow(cookie))!;
    expect(made.oidc_refresh).toBeNull();
    expect(Math.abs(Number(made.expires_at) - (Date.now() + 12 * 60 * 60_000))).toBeLessThan(60_000);
    const end = Date.now() + 60 * 60_000;
    const hash = hashToken(t.app.ctx.secret, cookie.split('=')[1]);
    await t.db.updateTable('sessions').set({ expires_at: end, last_seen_at: 0 }).where('id_hash', '=', hash).execute();
    expect(await me(cookie)).toMatchObject({ email: MANAGER });
    const row = (await sessionRow(cookie))!;
    expect(Number(row.expires_at)).toBe(end);
    expect(Number(row.last_seen_at)).toBeGreaterThan(0);
  });

  it('the sign-in methods, and the e-mail link switch only a group manager may turn off', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/methods' })).json()).toEqual({ link: true, oidc: { label: LABEL } });
    const boss = sessionOf(await signIn(MANAGER))!;
    const settings = await t.app.inject({ method: 'GET', url: '/api/auth/settings', headers: { cookie: boss } });
    expect(settings.json()).toEqual({ sso: true, label: LABEL, redirectUri: CALLBACK, link: true, mayChange: true });

    const storeManager = await insertUser(t.db, { email: 'store.boss@dealer.test', role: 'manager', stores: [1] });
    expect(storeManager.all_stores).toBe(0);
    const local = sessionOf(await signIn('store.boss@dealer.test'))!;
    const refused = await t.app.inject({ method: 'PUT', url: '/api/auth/settings', headers: { cookie: local }, payload: { link: false } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Only a group manager can change how people sign in.');
    const staff = sessionOf(await signIn('new.hire@dealer.test'))!;
    expect((await t.app.inject({ method: 'PUT', url: '/api/auth/settings', headers: { cookie: staff }, payload: { link: false } })).statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'PUT', url: '/api/auth/settings', headers: { cookie: boss }, payload: { link: 'no' } });
    expect(bad.statusCode).toBe(400);

    const off = await t.app.inject({ method: 'PUT', url: '/api/auth/settings', headers: { cookie: boss }, payload: { link: false } });
    expect(off.json()).toMatchObject({ link: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/methods' })).json()).toEqual({ link: false, oidc: { label: LABEL } });
    // Refused alike for every address: the answer tells nothing of who may sign in.
    for (const email of [MANAGER, 'nobody@elsewhere.test']) {
      const link = await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email } });
      expect(link.statusCode).toBe(403);
      expect(link.json()).toEqual({ error: `Sign-in by e-mail link is turned off here. Use “${LABEL}” instead.`, code: 'link-off' });
    }
    expect(sessionOf(await signIn(MANAGER))).toBeTruthy();
    await t.app.inject({ method: 'PUT', url: '/api/auth/settings', headers: { cookie: boss }, payload: { link: true } });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: MANAGER } })).statusCode).toBe(200);
  });

  it('keeps sessions through a provider outage (asked again a minute later) rather than signing everyone out', async () => {
    const cookie = sessionOf(await signIn(MANAGER))!;
    await idp.close();
    await t.db
      .updateTable('sessions')
      .set({ recheck_at: Date.now() - 1 })
      .where('id_hash', '=', hashToken(t.app.ctx.secret, cookie.split('=')[1]))
      .execute();
    expect(await me(cookie)).toMatchObject({ email: MANAGER });
    const left = Number((await sessionRow(cookie))!.recheck_at) - Date.now();
    expect(left).toBeGreaterThan(30_000);
    expect(left).toBeLessThanOrEqual(60_000);
  });
});

describe('without single sign-on set up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('sqlite');
  });
  afterAll(() => t.close());

  it('offers the link only, keeps it on, and has no SSO routes', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/methods' })).json()).toEqual({ link: true, oidc: null });
    const boss = await t.signIn(MANAGER);
    const res = await t.app.inject({ method: 'PUT', url: '/api/auth/settings', headers: { cookie: boss }, payload: { link: false } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^Set up single sign-on/);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/settings', headers: { cookie: boss } })).json()).toMatchObject({ sso: false, link: true });
    expect((await t.app.inject({ method: 'GET', url: '/auth/oidc/start' })).statusCode).toBe(404);
  });
});
