import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../../test/harness';
import { linkIn } from '../../test/smtp';
import { openEvents } from '../../test/sse';
import { FIRST_STORE_ID, insertUser } from '../../users/repo';
import { addStore } from '../../stores/service';
import { SESSION_IDLE_MS } from '../tokens';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const DAY = 86_400_000;

describe.each(DIALECTS)('signed-in devices on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    // Its sessions' times and flags are moved in the database by hand, which publishes nothing: no session is kept between requests.
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000', SIGNIN_LINKS_PER_ADDRESS: '1000' }, { sessionKeepMs: 0 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  /** Signs in through the real link from a browser (its User-Agent) at an address. */
  async function signIn(email: string, userAgent = CHROME_WINDOWS, ip = '198.51.100.7') {
    const seen = t.smtp.count(email);
    await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email }, remoteAddress: ip });
    const link = linkIn(await t.smtp.mailTo(email, 5000, seen));
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/auth/complete',
      headers: { 'user-agent': userAgent },
      remoteAddress: ip,
      payload: { email: link.searchParams.get('e'), token: link.searchParams.get('t') },
    });
    expect(done.statusCode).toBe(200);
    return `bdc_session=${done.cookies.find((c) => c.name === 'bdc_session')?.value}`;
  }
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string, store?: string) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie, ...(store && { 'x-store': store }) } });
  const me = async (cookie: string) => (await call('GET', '/auth/me', cookie)).json().user as { uid: string; email: string } | null;
  const list = async (cookie: string) =>
    (await call('GET', '/auth/sessions', cookie)).json().sessions as { sid: string; device: string; how: string; place: string; current: boolean }[];

  it('lists only his own sessions, each with its browser, how and where, and marks this one', async () => {
    const laptop = await signIn('lister@dealer.test', CHROME_WINDOWS, '198.51.100.7');
    const phone = await signIn('lister@dealer.test', SAFARI_IPHONE, '203.0.113.9');
    await signIn('someone.else@dealer.test');
    const seen = await list(phone);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ device: 'Safari on iPhone', how: 'E-mail link', place: 'Address 203.0.113.9', current: true });
    expect(seen[1]).toMatchObject({ device: 'Chrome on Windows', how: 'E-mail link', place: 'Address 198.51.100.7', current: false });
    const fromLaptop = await list(laptop);
    expect(fromLaptop.filter((s) => s.current).map((s) => s.sid)).toEqual([seen[1].sid]);
    const row = (await call('GET', '/auth/sessions', phone)).json().sessions[0];
    expect(Date.parse(row.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(row.signedInAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await call('GET', '/auth/sessions', '')).statusCode).toBe(401);
  });

  it("signs one of his devices out: its next request is signed out and its live stream ends; someone else's is not found", async () => {
    const laptop = await signIn('two.places@dealer.test');
    const phone = await signIn('two.places@dealer.test', SAFARI_IPHONE);
    const stranger = await signIn('stranger@dealer.test');
    const phoneSid = (await list(phone)).find((s) => s.current)!.sid;
    const [onPhone, onLaptop] = await Promise.all([openEvents(`${base}/api/events`, phone), openEvents(`${base}/api/events`, laptop)]);
    await Promise.all([onPhone.next('hello'), onLaptop.next('hello')]);

    // Another person's session, or no session at all: 404, and nothing changes.
    const other = await call('DELETE', `/auth/sessions/${phoneSid}`, stranger);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Session not found');
    for (const bad of ['nope', 'a'.repeat(101)]) expect((await call('DELETE', `/auth/sessions/${bad}`, laptop)).statusCode).toBe(404);
    expect((await call('DELETE', '/auth/sessions/%00', laptop)).statusCode).toBe(400);
    expect(await me(phone)).toMatchObject({ email: 'two.places@dealer.test' });

    const out = await call('DELETE', `/auth/sessions/${phoneSid}`, laptop);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ended: 1 });
    // The laptop's own cookie stays; the phone is signed out at once.
    expect(out.cookies.find((c) => c.name === 'bdc_session')).toBeUndefined();
    expect(await me(phone)).toBeNull();
    expect(await me(laptop)).toMatchObject({ email: 'two.places@dealer.test' });
    expect((await list(laptop)).map((s) => s.device)).toEqual(['Chrome on Windows']);
    expect(await onPhone.next('session-revoked')).toMatchObject({ signedOut: true });
    await onPhone.ended();
    // The other device of the same person keeps its stream.
    expect(onLaptop.events.map((e) => e.topic)).not.toContain('session-revoked');
    expect((await openEvents(`${base}/api/events`, phone)).status).toBe(401);
    onLaptop.close();
  });

  it('signs out everywhere: every session of his, this one too, and the cookie is cleared', async () => {
    const a = await signIn('everywhere@dealer.test');
    const b = await signIn('everywhere@dealer.test', SAFARI_IPHONE);
    const other = await signIn('bystander@dealer.test');
    const stream = await openEvents(`${base}/api/events`, b);
    await stream.next('hello');
    const out = await call('POST', '/auth/sessions/end-all', a);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ended: 2 });
    expect(out.cookies.find((c) => c.name === 'bdc_session')).toMatchObject({ value: '' });
    expect(await me(a)).toBeNull();
    expect(await me(b)).toBeNull();
    expect(await me(other)).toMatchObject({ email: 'bystander@dealer.test' });
    await stream.next('session-revoked');
    await stream.ended();
    expect((await call('POST', '/auth/sessions/end-all', a)).statusCode).toBe(401);
  });

  it("lets a manager sign a person out everywhere, recorded in his history; a store manager only his own store's people", async () => {
    const boss = await signIn(MANAGER);
    const south = await addStore(t.dbh, { name: 'Southside Toyota', code: 'SST', timezone: 'America/Denver' });
    await insertUser(t.db, { email: 'south.rep@dealer.test', name: 'South Rep', stores: [south.id] });
    await insertUser(t.db, { email: 'north.boss@dealer.test', name: 'North Boss', role: 'manager', stores: [FIRST_STORE_ID] });
    const rep = await signIn('lost.phone@dealer.test');
    const rep2 = await signIn('lost.phone@dealer.test', SAFARI_IPHONE);
    const southRep = await signIn('south.rep@dealer.test');
    const storeBoss = await signIn('north.boss@dealer.test');
    const repId = (await me(rep))!.uid;
    const southId = (await me(southRep))!.uid;

    // A salesman may not; a store manager cannot reach another store's person (as every user route).
    expect((await call('POST', `/users/${southId}/sign-out`, rep)).statusCode).toBe(403);
    const elsewhere = await call('POST', `/users/${southId}/sign-out`, storeBoss);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().error).toBe('User not found');
    expect((await call('POST', `/users/${southId}/sign-out`, storeBoss, 'SST')).json().error).toBe('Store not found');
    expect(await me(southRep)).toMatchObject({ email: 'south.rep@dealer.test' });

    const stream = await openEvents(`${base}/api/events`, rep2);
    await stream.next('hello');
    const out = await call('POST', `/users/${repId}/sign-out`, storeBoss);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ended: 2 });
    expect(await me(rep)).toBeNull();
    expect(await me(rep2)).toBeNull();
    expect(await me(storeBoss)).toMatchObject({ email: 'north.boss@dealer.test' });
    expect(await stream.next('session-revoked')).toMatchObject({ signedOut: true });
    await stream.ended();
    const history = (await call('GET', `/users/${repId}/audit`, boss)).json().entries;
    expect(history[0]).toMatchObject({ action: 'sign out', actorName: 'North Boss', changes: { sessions: { from: 2, to: 0 } } });
    // A group manager reaches the other store's person there.
    expect((await call('POST', `/users/${southId}/sign-out`, boss, 'SST')).json()).toEqual({ ended: 1 });
    expect(await me(southRep)).toBeNull();
  });

  it('renews a session on use: used after 29 days idle it still works and runs 30 days from now; unused for 30 days it is gone', async () => {
    const cookie = await signIn('idle@dealer.test');
    const sid = (await list(cookie))[0].sid;
    const row = () => t.db.selectFrom('sessions').selectAll().where('sid', '=', sid).executeTakeFirstOrThrow();
    // Signed in 29 days ago and not used since.
    const then = Date.now() - 29 * DAY;
    await t.db
      .updateTable('sessions')
      .set({ created_at: then, last_seen_at: then, expires_at: then + SESSION_IDLE_MS })
      .where('sid', '=', sid)
      .execute();
    const before = Date.now();
    expect(await me(cookie)).toMatchObject({ email: 'idle@dealer.test' });
    const renewed = await row();
    expect(Number(renewed.expires_at)).toBeGreaterThanOrEqual(before + SESSION_IDLE_MS);
    expect(Number(renewed.last_seen_at)).toBeGreaterThanOrEqual(before);

    // Thirty days unused: it ran out, and the list no longer shows it.
    const other = await signIn('idle@dealer.test', SAFARI_IPHONE);
    await t.db
      .updateTable('sessions')
      .set({ created_at: Date.now() - 30 * DAY, last_seen_at: Date.now() - 30 * DAY, expires_at: Date.now() - 1 })
      .where('sid', '=', sid)
      .execute();
    expect(await me(cookie)).toBeNull();
    expect((await list(other)).map((s) => s.device)).toEqual(['Safari on iPhone']);
  });
});
