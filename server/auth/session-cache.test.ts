import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { openDb, type DbHandle } from '../db';
import type { PortalEvent } from '../events/bus';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { addStore } from '../stores/service';

/** An app server's answer to "who am I" for this cookie: the person, or null when signed out. */
const meOn = async (app: FastifyInstance, cookie: string) =>
  (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json<{ user: { email: string; role: string; store: string } | null }>().user;

/** Resolves with the first event on `app`'s bus that `which` picks: the news has reached that server. */
function hears(app: FastifyInstance, which: (e: PortalEvent) => boolean) {
  return new Promise<void>((resolve) => {
    const stop = app.ctx.bus.subscribe((e) => {
      if (!which(e)) return;
      stop();
      resolve();
    });
  });
}

describe.each(DIALECTS)('sessions kept by an app server on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
  });
  afterAll(() => t.close());

  const idOf = async (email: string) => (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const act = (method: 'POST' | 'PATCH' | 'PUT', url: string, cookie: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  it('answers for a session it has seen without the database: a row deleted by hand, which publishes nothing, still signs in', async () => {
    const cookie = await t.signIn('kept@dealer.test');
    expect(await meOn(t.app, cookie)).toMatchObject({ email: 'kept@dealer.test' });
    await t.db
      .deleteFrom('sessions')
      .where('user_id', '=', await idOf('kept@dealer.test'))
      .execute();
    expect(await meOn(t.app, cookie)).toMatchObject({ email: 'kept@dealer.test' });
    // An app server that keeps nothing reads the database every time.
    const plain = await buildApp({ config: t.config, dbh: t.dbh, sessionKeepMs: 0 });
    try {
      expect(await meOn(plain, cookie)).toBeNull();
    } finally {
      await plain.close();
    }
  });

  it('a sign-out from another device, a manager signing him out everywhere, and a disable each end the kept session at once', async () => {
    const phone = await t.signIn('ends@dealer.test');
    const laptop = await t.signIn('ends@dealer.test');
    expect(await meOn(t.app, phone)).toMatchObject({ email: 'ends@dealer.test' });
    expect((await act('POST', '/api/auth/sessions/end-all', laptop)).statusCode).toBe(200);
    expect(await meOn(t.app, phone)).toBeNull();
    expect(await meOn(t.app, laptop)).toBeNull();

    const again = await t.signIn('ends@dealer.test');
    const id = await idOf('ends@dealer.test');
    expect(await meOn(t.app, again)).not.toBeNull();
    expect((await act('POST', `/api/users/${id}/sign-out`, boss)).json()).toEqual({ ended: 1 });
    expect(await meOn(t.app, again)).toBeNull();

    const last = await t.signIn('ends@dealer.test');
    expect(await meOn(t.app, last)).not.toBeNull();
    expect((await act('POST', `/api/users/${id}/disable`, boss)).statusCode).toBe(200);
    expect(await meOn(t.app, last)).toBeNull();
  });

  it('his own changes and a manager’s show on his next request: notes, the store he opens, a new role', async () => {
    const cookie = await t.signIn('changes@dealer.test');
    const id = await idOf('changes@dealer.test');
    expect((await t.app.inject({ method: 'GET', url: '/api/profile/notes', headers: { cookie } })).json()).toEqual({ notes: '' });
    expect((await act('PUT', '/api/profile/notes', cookie, { notes: 'Call the Garcias' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/profile/notes', headers: { cookie } })).json()).toEqual({ notes: 'Call the Garcias' });

    const second = await addStore(t.dbh, { name: `Kept Store ${dialect}`, code: dialect === 'sqlite' ? 'KSQ' : 'KPG', timezone: 'America/Chicago' });
    await t.db.insertInto('memberships').values({ store_id: second.id, user_id: id, position: 1, active: 1, on_duty: 0, created_at: Date.now() }).execute();
    expect((await meOn(t.app, cookie))?.store).not.toBe(second.code);
    expect((await act('PUT', '/api/profile/store', cookie, { code: second.code })).statusCode).toBe(200);
    expect((await meOn(t.app, cookie))?.store).toBe(second.code);

    expect((await meOn(t.app, cookie))?.role).toBe('staff');
    expect((await act('PATCH', `/api/users/${id}`, boss, { email: 'changes@dealer.test', role: 'manager' })).statusCode).toBe(200);
    expect((await meOn(t.app, cookie))?.role).toBe('manager');
  });

  it.runIf(dialect === 'postgres')('another app server on the same database forgets the session as soon as the news of a sign-out reaches it', async () => {
    let twinDb: DbHandle | null = null;
    let twin: FastifyInstance | null = null;
    try {
      twinDb = await openDb({ databaseUrl: t.dbh.url ?? '', dataDir: t.dbh.dir });
      twin = await buildApp({ config: t.config, dbh: twinDb });
      const cookie = await t.signIn('twin@dealer.test');
      const id = await idOf('twin@dealer.test');
      // Both servers have read the session.
      expect(await meOn(t.app, cookie)).not.toBeNull();
      expect(await meOn(twin, cookie)).not.toBeNull();

      // A manager on this server changes his role: the twin hears it and answers with the new one.
      const roleNews = hears(twin, (e) => e.topic === 'users');
      expect((await act('PATCH', `/api/users/${id}`, boss, { email: 'twin@dealer.test', role: 'manager' })).statusCode).toBe(200);
      await roleNews;
      expect((await meOn(twin, cookie))?.role).toBe('manager');

      // He signs out here: the twin refuses the cookie once the news is there.
      const signedOut = hears(twin, (e) => e.topic === 'session-revoked' && e.userId === id);
      expect((await act('POST', '/api/auth/logout', cookie)).statusCode).toBe(200);
      await signedOut;
      expect(await meOn(twin, cookie)).toBeNull();
    } finally {
      await twin?.close();
      await twinDb?.close();
    }
  });
});
