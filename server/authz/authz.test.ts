import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { startWeatherServer } from '../test/weather-server';

/**
 * Walks every /api route the server itself registered, as anonymous, staff, manager and two
 * blocked people who still hold their cookies. A new route is covered the day it is added.
 */
describe.each(DIALECTS)('authorisation of every API route on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let targetId: string;
  let weather: Awaited<ReturnType<typeof startWeatherServer>>;
  const who: Record<string, string | undefined> = {};

  beforeAll(async () => {
    weather = await startWeatherServer();
    // Its sessions' times and flags are moved in the database by hand, which publishes nothing: no session is kept between requests.
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000', WEATHER_URL: weather.url }, { sessionKeepMs: 0 });
    who.manager = await t.signIn(MANAGER);
    who.staff = await t.signIn('walker@dealer.test');
    // Disabled straight in the database, session row kept: the cookie itself must stop working.
    who.disabled = await t.signIn('disabled@dealer.test');
    await t.db.updateTable('users').set({ disabled: 1 }).where('email', '=', 'disabled@dealer.test').execute();
    // Soft-deleted the way a manager does it.
    who.deleted = await t.signIn('deleted@dealer.test');
    const del = await t.db.selectFrom('users').select('id').where('email', '=', 'deleted@dealer.test').executeTakeFirstOrThrow();
    const r = await t.app.inject({ method: 'POST', url: `/api/users/${del.id}/delete`, headers: { cookie: who.manager } });
    expect(r.statusCode).toBe(200);
    // Routes with an :id act on someone who is none of the callers above.
    targetId = (await insertUser(t.db, { email: 'target@dealer.test', name: 'Target', onDuty: true })).id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // Dropping the test database may cut a pool connection that is still closing; that is not a finding.
    t.dbh.pool?.on('error', () => undefined);
    await t.close();
    await weather.close();
  });

  /** Routes on one person's own things: a salesman has his own (their tests prove it), another's is 403 to him. */
  const OWN_ONLY = ['GET /api/availability/:id', 'GET /api/ledger/:id'];
  const routes = () => {
    const out: { method: string; url: string; access: string | undefined }[] = [];
    for (const r of t.app.routeList) {
      if (!r.url.startsWith('/api')) continue;
      for (const method of [r.method].flat()) {
        // HEAD is answered by the GET route's handler and hooks.
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        if (!out.some((o) => o.method === method && o.url === r.url)) out.push({ method, url: r.url, access: r.access });
      }
    }
    return out;
  };

  /** Calls a route for real over HTTP; a streaming answer is cut once its status is known. */
  async function hit(method: string, url: string, cookie?: string) {
    const path = url.replace(/:[A-Za-z_]+/g, targetId).replace(/\*$/, 'anything');
    if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) {
      const r = await t.app.inject({ method: method as 'GET', url: path, headers: cookie ? { cookie } : {} });
      return { status: r.statusCode, body: r.body };
    }
    const res = await fetch(base + path, {
      method,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }) },
      body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
    });
    const body = res.headers.get('content-type')?.includes('event-stream') ? '' : await res.text();
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status, body };
  }

  it('knows the routes, and every route declares who may call it', () => {
    const all = routes();
    expect(all.length).toBeGreaterThan(15);
    for (const must of ['GET /api/users', 'POST /api/users/:id/delete', 'POST /api/rotation/assign', 'GET /api/auth/me']) {
      expect(all.map((r) => `${r.method} ${r.url}`)).toContain(must);
    }
    const undeclared = all.filter((r) => !['public', 'user', 'manager', 'apikey', 'tv'].includes(r.access ?? '')).map((r) => `${r.method} ${r.url}`);
    expect(undeclared, 'routes without an access rule').toEqual([]);
  });

  it('signed-out and blocked callers get 401 on every non-public route; staff get 403 on every manager route', async () => {
    const wrong: string[] = [];
    const expectStatus = (label: string, got: { status: number; body: string }, ok: (s: number) => boolean, want: string) => {
      if (!ok(got.status)) wrong.push(`${label}: got ${got.status}, want ${want} ${got.body.slice(0, 120)}`);
    };
    // Public routes first would log out (POST /auth/logout); they are walked anonymously only.
    // Signing out everywhere ends the callers' own sessions, so it comes last of all.
    const last = (r: { method: string; url: string; access?: string }) =>
      `${r.method} ${r.url}` === 'POST /api/auth/sessions/end-all' ? 2 : Number(r.access === 'public');
    const all = routes().sort((a, b) => last(a) - last(b));
    for (const r of all) {
      const label = `${r.method} ${r.url} (${r.access})`;
      if (r.access === 'public') {
        expectStatus(`${label} anonymous`, await hit(r.method, r.url), (s) => s < 500, 'no server error');
        continue;
      }
      if (r.access === 'apikey') {
        for (const caller of [undefined, who.staff, who.manager]) {
          expectStatus(`${label} without a key`, await hit(r.method, r.url, caller), (s) => s === 401 || s === 403, '401/403');
        }
        continue;
      }
      // A TV link's route: no session opens it, a manager's neither (server/tv/tv.test.ts tries the link on the rest).
      if (r.access === 'tv') {
        for (const caller of [undefined, who.staff, who.manager])
          expectStatus(`${label} without a link`, await hit(r.method, r.url, caller), (s) => s === 401, '401');
        continue;
      }
      for (const caller of ['anonymous', 'disabled', 'deleted']) {
        expectStatus(`${label} ${caller}`, await hit(r.method, r.url, who[caller]), (s) => s === 401, '401');
      }
      const staff = await hit(r.method, r.url, who.staff);
      if (r.access === 'manager' || OWN_ONLY.includes(`${r.method} ${r.url}`)) expectStatus(`${label} staff`, staff, (s) => s === 403, '403');
      else expectStatus(`${label} staff`, staff, (s) => s !== 401 && s !== 403 && s < 500, 'allowed');
      const manager = await hit(r.method, r.url, who.manager);
      expectStatus(`${label} manager`, manager, (s) => s !== 401 && s !== 403 && s < 500, 'allowed');
    }
    expect(wrong).toEqual([]);
  });

  it('the blocked callers really hold what used to be working cookies', async () => {
    // Re-enabling the database-disabled user revives the kept session: it was the flag that refused it.
    await t.db.updateTable('users').set({ disabled: 0 }).where('email', '=', 'disabled@dealer.test').execute();
    expect(JSON.parse((await hit('GET', '/api/auth/me', who.disabled)).body).user).toMatchObject({ email: 'disabled@dealer.test' });
    await t.db.updateTable('users').set({ disabled: 1 }).where('email', '=', 'disabled@dealer.test').execute();
    expect(JSON.parse((await hit('GET', '/api/auth/me', who.disabled)).body)).toEqual({ user: null });
  });
});
