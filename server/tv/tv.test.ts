import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { openEvents } from '../test/sse';
import { FIRST_STORE_ID, insertUser } from '../users/repo';
import { addStore } from '../stores/service';
import { dayKey } from '../../domain/time';
import { TV_REVOKED } from '../../domain/tv';
import type { Store } from '../../domain/stores';

/**
 * The showroom TV by its own link (issue #66): a manager makes a view-only link for his store's
 * TV; its token opens that store's leaderboard and its live updates, and nothing else: no other
 * route, no other store, no session. Revoked, it stops at once, and an open TV is told so.
 */
describe.each(DIALECTS)('the showroom TV link on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let north: Store;
  let boss: string;
  let northBoss: string;
  let rep: string;
  let nick: string;

  const inject = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers, payload });
  const as = (cookie: string, store?: string) => ({ cookie, ...(store ? { 'x-store': store } : {}) });
  const tokenOf = (url: string) => new URL(url).hash.slice(1);
  const board = (token: string, headers: Record<string, string> = {}) => inject('GET', '/tv/board', { 'x-tv-token': token, ...headers });
  const sell = async (cookie: string, store: string) => {
    const r = await inject('POST', '/sales', as(cookie, store), {
      date: dayKey(new Date(), 'America/New_York'),
      vehicleType: 'new',
      frontGross: '2000',
      split: 'full',
    });
    expect(r.statusCode, r.body).toBe(201);
  };

  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000', SIGNIN_LINKS_PER_ADDRESS: '1000' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    north = await addStore(t.dbh, { name: 'Northside Honda', code: 'NSH', timezone: 'America/New_York' });
    await insertUser(t.db, { email: 'nora@dealer.test', name: 'Nora North', role: 'manager', stores: [north.id] });
    await insertUser(t.db, { email: 'rita@dealer.test', name: 'Rita Rep', stores: [FIRST_STORE_ID], onDuty: true });
    await insertUser(t.db, { email: 'nick@dealer.test', name: 'Nick North', stores: [north.id], onDuty: true });
    boss = await t.signIn(MANAGER);
    northBoss = await t.signIn('nora@dealer.test');
    rep = await t.signIn('rita@dealer.test');
    nick = await t.signIn('nick@dealer.test');
  });
  afterAll(async () => {
    t.dbh.pool?.on('error', () => undefined);
    await t.close();
  });

  it('a manager makes, lists and revokes his store’s TV links; the token is shown once and kept only hashed', async () => {
    const made = await inject('POST', '/tv/links', as(boss, 'MAIN'), { name: '  Showroom TV ' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.headers['set-cookie']).toBeUndefined();
    const { url, link } = made.json();
    expect(url).toMatch(new RegExp(`^${t.config.PUBLIC_URL}/tv#[A-Za-z0-9_-]{40,}$`));
    expect(link).toMatchObject({ name: 'Showroom TV', revokedAt: null, lastSeenAt: null });
    const row = await t.db.selectFrom('tv_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(tokenOf(url));

    const second = (await inject('POST', '/tv/links', as(boss, 'MAIN'), { name: 'Service lounge' })).json();
    const list = await inject('GET', '/tv/links', as(boss, 'MAIN'));
    expect(list.statusCode).toBe(200);
    expect(list.json().links.map((l: { name: string }) => l.name)).toEqual(['Service lounge', 'Showroom TV']);
    expect(list.body).not.toContain(tokenOf(url));

    const revoked = await inject('POST', `/tv/links/${second.link.id}/revoke`, as(boss, 'MAIN'));
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().link.revokedAt).not.toBeNull();
    expect((await board(tokenOf(second.url))).json()).toMatchObject({ error: TV_REVOKED, code: 'tv_revoked' });
    // The other link still opens its board.
    expect((await board(tokenOf(url))).statusCode).toBe(200);

    // A name is needed; a salesman may not make one.
    const blank = await inject('POST', '/tv/links', as(boss, 'MAIN'), { name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('Name the TV link');
    expect((await inject('POST', '/tv/links', as(rep, 'MAIN'), { name: 'Mine' })).statusCode).toBe(403);
    expect((await inject('GET', '/tv/links', as(rep, 'MAIN'))).statusCode).toBe(403);
  });

  it('the token opens its store’s board without a session, and nothing else: no other route, no other store', async () => {
    const { url } = (await inject('POST', '/tv/links', as(boss, 'MAIN'), { name: 'Floor TV' })).json();
    const token = tokenOf(url);
    await sell(rep, 'MAIN');
    await sell(nick, 'NSH');

    const r = await board(token);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['set-cookie']).toBeUndefined();
    const b = r.json();
    expect(b.store).toBe('Main store');
    // The board's own columns: a name, units, pace and days since the last sale; no ids, money or addresses.
    expect(b.rows.find((row: { name: string }) => row.name === 'Rita Rep')).toEqual({
      name: 'Rita Rep',
      units: 1,
      pace: expect.any(Number),
      daysSinceLastSale: 0,
    });
    expect(Object.keys(b.team).sort()).toEqual(['daysSinceLastSale', 'pace', 'units']);
    expect(r.body).not.toMatch(/Nick|@|commission|gross/i);
    // Naming another store changes nothing, nor another store's manager's session beside it: the link is its store's.
    const others: Record<string, string>[] = [{ 'x-store': 'NSH' }, as(northBoss, 'NSH')];
    for (const other of others) expect((await board(token, other)).json().store).toBe('Main store');
    expect((await inject('GET', '/tv/board?store=NSH', { 'x-tv-token': token })).json().store).toBe('Main store');

    // The token, however it is sent, opens no other route.
    const forms: Record<string, string>[] = [
      { 'x-tv-token': token },
      { authorization: `Bearer ${token}` },
      { 'x-api-key': token },
      { cookie: `bdc_session=${token}` },
    ];
    const routes = ['/leads', '/users', '/sales/board', '/sales/board.csv', '/rotation', '/sales', '/tv/links', '/integrations/keys', '/group'];
    for (const headers of forms) {
      for (const route of routes) {
        const res = await inject('GET', route, headers);
        expect(res.statusCode, `${route} with ${Object.keys(headers)[0]}`).toBe(401);
      }
      expect((await inject('GET', '/auth/me', headers)).json()).toEqual({ user: null });
      expect((await inject('POST', '/tv/links', headers, { name: 'Sneaky' })).statusCode).toBe(401);
      expect((await inject('POST', '/rotation/assign', headers, { customer: 'Sneaky' })).statusCode).toBe(401);
      const events = await openEvents(`${base}/api/events?tv=${token}`, headers.cookie ?? '');
      expect(events.status).toBe(401);
      events.close();
    }
    expect((await inject('GET', `/leads?tv=${token}`)).statusCode).toBe(401);
    // Without a token, or with a made-up one: refused.
    expect((await inject('GET', '/tv/board')).statusCode).toBe(401);
    expect((await board('made-up-token-that-is-long-enough-to-look-real')).json().error).toMatch(/not valid/);
  });

  it('the TV hears its store’s sales live, with no one’s id, and is told at once when its link is revoked', async () => {
    const { url, link } = (await inject('POST', '/tv/links', as(boss, 'MAIN'), { name: 'Live TV' })).json();
    const token = tokenOf(url);
    const tv = await openEvents(`${base}/api/tv/events?tv=${encodeURIComponent(token)}`, '');
    expect(tv.status).toBe(200);
    await tv.next('hello');
    // Another store's sale, then one here: only this store's reaches the TV.
    await sell(nick, 'NSH');
    await sell(rep, 'MAIN');
    const news = await tv.next('sales');
    expect(Object.keys(news).sort()).toEqual(['at', 'topic']);
    expect(tv.events.filter((e) => e.topic === 'sales')).toHaveLength(1);

    const done = await inject('POST', `/tv/links/${link.id}/revoke`, as(boss, 'MAIN'));
    expect(done.statusCode).toBe(200);
    await tv.next('tv-revoked');
    await tv.ended();
    const again = await openEvents(`${base}/api/tv/events?tv=${encodeURIComponent(token)}`, '');
    expect(again.status).toBe(401);
    again.close();
    expect((await board(token)).statusCode).toBe(401);
    // The manager's list shows when the TV was last seen.
    const listed = (await inject('GET', '/tv/links', as(boss, 'MAIN'))).json().links.find((l: { id: number }) => l.id === link.id);
    expect(listed.revokedAt).not.toBeNull();
  });

  it('a store’s manager makes, sees and revokes no link of another store', async () => {
    // Nora manages Northside only.
    expect((await inject('POST', '/tv/links', as(northBoss, 'MAIN'), { name: 'Not mine' })).statusCode).toBe(404);
    expect((await inject('GET', '/tv/links', as(northBoss, 'MAIN'))).statusCode).toBe(404);
    const main = (await inject('POST', '/tv/links', as(boss, 'MAIN'), { name: 'Main TV' })).json();
    const tried = await inject('POST', `/tv/links/${main.link.id}/revoke`, as(northBoss, 'NSH'));
    expect(tried.statusCode).toBe(404);
    expect(tried.json().error).toBe('TV link not found');
    expect((await board(tokenOf(main.url))).statusCode).toBe(200);
    // Her own store's link shows her store's board, and her list holds only it.
    const own = await inject('POST', '/tv/links', as(northBoss, 'NSH'), { name: 'North TV' });
    expect(own.statusCode, own.body).toBe(201);
    expect((await board(tokenOf(own.json().url))).json().store).toBe('Northside Honda');
    expect((await inject('GET', '/tv/links', as(northBoss, 'NSH'))).json().links.map((l: { name: string }) => l.name)).toEqual(['North TV']);
  });
});
