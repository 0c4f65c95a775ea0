import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import type { PortalEvent } from '../events/bus';
import { editUser, setStatus } from './service';
import { USER_MSG } from '../../domain/users';

describe.each(DIALECTS)('user management on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let bossId: string;
  let n = 0;
  const events: PortalEvent[] = [];
  const waiters = new Set<() => void>();
  /** Resolves once the events published so far satisfy `ok` (on PostgreSQL they arrive through NOTIFY). */
  const published = (ok: (list: PortalEvent[]) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!ok(events)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  const topics = (list: PortalEvent[], topic: PortalEvent['topic']) => list.filter((e) => e.topic === topic);

  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000' });
    boss = await t.signIn(MANAGER);
    bossId = (await me(boss)).json().user.uid;
    t.app.ctx.bus.subscribe((e) => {
      events.push(e);
      for (const check of [...waiters]) check();
    });
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, cookie = boss) =>
    t.app.inject({ method, url: `/api/users${url}`, headers: { cookie }, payload });
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
  const list = async (deleted = false) => (await call('GET', deleted ? '?deleted=1' : '')).json().users as any[];
  const row = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const history = async (id: string) => (await call('GET', `/${id}/audit`)).json().entries as any[];
  const unique = (p = 'person') => `${p}.${++n}@dealer.test`;
  const add = async (body: object) => {
    const r = await call('POST', '', body);
    expect(r.statusCode, r.body).toBe(200);
    return r.json().user;
  };

  it('adds a person with the save rules: e-mail trimmed and lower-cased, name trimmed, role normalised', async () => {
    const u = await add({ email: '  New.Hire@Example.COM ', name: '  Nia  ', role: ' MANAGER ' });
    expect(u).toMatchObject({ email: 'new.hire@example.com', name: 'Nia', role: 'manager', disabled: false, deletedAt: null, signedInAt: null });
    const d = await add({ email: unique(), name: '   ', role: 'owner' });
    expect(d).toMatchObject({ name: 'User', role: 'staff' });
    const bare = await add({ email: unique() });
    expect(bare).toMatchObject({ name: 'User', role: 'staff' });
    expect((await list()).map((x) => x.email)).toEqual(expect.arrayContaining(['new.hire@example.com', d.email, bare.email]));
  });

  it('new staff join the rotation at the end, off duty until they clock in', async () => {
    await add({ email: unique('rot'), name: 'Rota One' });
    await add({ email: unique('rot'), name: 'Rota Two' });
    const view = (await t.app.inject({ method: 'GET', url: '/api/rotation', headers: { cookie: boss } })).json();
    const names = view.team.map((m: any) => m.name);
    expect(names.slice(-2)).toEqual(['Rota One', 'Rota Two']);
    expect(view.team.at(-1)).toMatchObject({ active: true, onDuty: false, eligible: false, place: null });
    expect(view.queue.map((m: any) => m.name)).not.toContain('Rota Two');
  });

  it('refuses a missing or blank e-mail with the specification message and stores nothing', async () => {
    const before = (await list(true)).length;
    for (const body of [{}, { email: '' }, { email: '   ' }, { email: null, name: 'X' }]) {
      const r = await call('POST', '', body);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('Email is required.');
    }
    const bad = await call('POST', '', { email: 'not-an-address' });
    expect(bad.statusCode).toBe(400);
    expect((await call('POST', '', { email: unique(), extra: 1 })).statusCode).toBe(400);
    expect((await call('POST', '', { email: unique(), name: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await list(true)).length).toBe(before);
  });

  it('refuses a second person with the same e-mail, on add and on edit', async () => {
    const email = unique('dup');
    const first = await add({ email, name: 'First' });
    const again = await call('POST', '', { email: email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Another person already has this e-mail address.');
    const other = await add({ email: unique('dup'), name: 'Other' });
    const clash = await call('PATCH', `/${other.id}`, { email, name: 'Renamed' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe('Another person already has this e-mail address.');
    expect((await row(other.id)).name).toBe('Other');
    // Saving a person with their own address is not a clash.
    expect((await call('PATCH', `/${first.id}`, { email, name: 'First Again' })).statusCode).toBe(200);
  });

  it('says so when the address belongs to someone soft-deleted', async () => {
    const u = await add({ email: unique('gone') });
    await call('POST', `/${u.id}/delete`);
    const r = await call('POST', '', { email: u.email });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toMatch(/^Another person already has this e-mail address\. .*restore/);
  });

  it('edits e-mail, name and role, keeps fields left out, and writes the audit log', async () => {
    const u = await add({ email: unique('edit'), name: 'Eddie', role: 'manager' });
    const r = await call('PATCH', `/${u.id}`, { email: ` ${u.email.toUpperCase()} `, name: ' Edward ', role: 'staff' });
    expect(r.statusCode).toBe(200);
    expect(r.json().user).toMatchObject({ email: u.email, name: 'Edward', role: 'staff' });
    // Only the e-mail is sent: name and role stay, and the new address waits for its owner (email-change.test.ts).
    const moved = unique('moved');
    expect((await call('PATCH', `/${u.id}`, { email: moved })).json().user).toMatchObject({
      email: u.email,
      pendingEmail: moved,
      name: 'Edward',
      role: 'staff',
    });
    expect((await call('PATCH', `/${u.id}`, { name: 'X' })).json().error).toBe('Email is required.');
    expect((await call('PATCH', '/no-such-id', { email: unique() })).statusCode).toBe(404);

    const h = await history(u.id);
    expect(h.map((e) => e.action)).toEqual(['email change', 'update', 'create']);
    expect(h[0]).toMatchObject({ actorName: 'User', actorEmail: MANAGER, changes: { email: { from: u.email, to: moved } } });
    expect(h[1].changes).toEqual({ name: { from: 'Eddie', to: 'Edward' }, role: { from: 'manager', to: 'staff' } });
    expect(h[2].changes.email).toEqual({ from: null, to: u.email });
    expect(Date.now() - new Date(h[0].at).getTime()).toBeLessThan(60_000);
    // A save that changes nothing adds no entry.
    await call('PATCH', `/${u.id}`, { email: u.email, name: 'Edward', role: 'staff' });
    expect(await history(u.id)).toHaveLength(3);
  });

  it('a person added before they ever signed in is claimed by their first sign-in, with the values the manager set', async () => {
    // Not in ALLOWED_EMAIL_DOMAINS: only the manager's record lets them in.
    const u = await add({ email: 'outside.hire@elsewhere.test', name: 'Olga Outside', role: 'manager' });
    const cookie = await t.signIn('outside.hire@elsewhere.test');
    const who = (await me(cookie)).json().user;
    expect(who).toMatchObject({ uid: u.id, name: 'Olga Outside', role: 'manager', isManager: true });
    expect((await row(u.id)).signed_in_at).not.toBeNull();
    expect((await list(true)).filter((x) => x.email === 'outside.hire@elsewhere.test')).toHaveLength(1);
  });

  it('disable keeps the person listed, ends their sessions at once, blocks sign-in and takes them out of the queue; enable undoes it', async () => {
    const email = unique('dis');
    const cookie = await t.signIn(email);
    const id = (await me(cookie)).json().user.uid;
    const queue = async () => (await t.app.inject({ method: 'GET', url: '/api/rotation', headers: { cookie: boss } })).json().team.map((m: any) => m.id);
    expect(await queue()).toContain(id);
    events.length = 0;

    const r = await call('POST', `/${id}/disable`);
    expect(r.statusCode).toBe(200);
    expect(r.json().user).toMatchObject({ disabled: true, deletedAt: null });
    expect((await me(cookie)).json()).toEqual({ user: null });
    expect(await t.db.selectFrom('sessions').selectAll().where('user_id', '=', id).execute()).toHaveLength(0);
    expect((await list()).find((x) => x.id === id)).toMatchObject({ disabled: true });
    expect(await queue()).not.toContain(id);
    await published((list) => topics(list, 'users').length > 0 && topics(list, 'rotation').length > 0 && topics(list, 'session-revoked').length > 0);
    expect(topics(events, 'session-revoked').map((e) => e.userId)).toEqual([id]);

    // A disabled person's link request is answered like any other, but its mail is dropped when
    // it is queued: the sender never sees it, so nothing can reach the inbox later.
    const mails = t.smtp.count(email);
    const asked = await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email } });
    expect(asked.statusCode).toBe(200);
    const queued = await t.db.selectFrom('outbox').select('state').where('recipient', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(queued.state).toBe('dropped');
    await t.drained();
    expect(t.smtp.count(email)).toBe(mails);

    const on = await call('POST', `/${id}/enable`);
    expect(on.json().user).toMatchObject({ disabled: false, deletedAt: null });
    expect(await queue()).toContain(id);
    expect((await history(id)).map((e) => e.action).slice(0, 2)).toEqual(['enable', 'disable']);
  });

  it("soft delete hides the person until asked for; a soft-deleted user's existing session cookie stops working; restore clears both", async () => {
    const email = unique('del');
    const cookie = await t.signIn(email);
    const id = (await me(cookie)).json().user.uid;
    expect((await me(cookie)).statusCode).toBe(200);

    const r = await call('POST', `/${id}/delete`);
    expect(r.statusCode).toBe(200);
    expect(r.json().user.disabled).toBe(true);
    expect(r.json().user.deletedAt).not.toBeNull();
    expect((await me(cookie)).json()).toEqual({ user: null });
    expect((await t.app.inject({ method: 'GET', url: '/api/rotation', headers: { cookie } })).statusCode).toBe(401);
    expect((await list()).find((x) => x.id === id)).toBeUndefined();
    expect((await list(true)).find((x) => x.id === id)).toMatchObject({ disabled: true });
    const stored = await row(id);
    expect(stored.disabled).toBe(1);
    expect(stored.deleted_at).toBeGreaterThan(Date.now() - 60_000);

    const back = await call('POST', `/${id}/restore`);
    expect(back.json().user).toMatchObject({ disabled: false, deletedAt: null });
    expect((await list()).find((x) => x.id === id)).toBeDefined();
    // The old cookie stays dead: restoring does not revive ended sessions.
    expect((await me(cookie)).json()).toEqual({ user: null });
    const fresh = await t.signIn(email);
    expect((await me(fresh)).json().user.uid).toBe(id);
    expect((await history(id)).map((e) => e.action).slice(0, 2)).toEqual(['restore', 'delete']);
  });

  it('nobody locks himself out, and a MANAGER_EMAILS manager cannot be disabled, deleted or demoted', async () => {
    // A group manager, as every manager was before stores: one who may change any other.
    const deputy = await add({ email: unique('deputy'), name: 'Deputy', role: 'manager', groupManager: true });
    const deputyCookie = await t.signIn(deputy.email);
    const attempts = (id: string, email: string) =>
      [
        ['POST', `/${id}/disable`, undefined],
        ['POST', `/${id}/delete`, undefined],
        ['PATCH', `/${id}`, { email, role: 'staff' }],
      ] as const;
    // A configured manager's address stays: changing it first once opened the way to disable him.
    for (const cookie of [boss, deputyCookie]) {
      const r = await call('PATCH', `/${bossId}`, { email: unique('renamed.boss'), role: 'manager' }, cookie);
      expect(r.statusCode).toBe(409);
      expect(r.json().error).toBe(USER_MSG.configured);
    }
    expect(await t.db.selectFrom('email_changes').selectAll().where('user_id', '=', bossId).execute()).toEqual([]);
    const own = ['You cannot disable your own account', 'You cannot delete your own account', 'You cannot take away your own manager role'];
    for (const [i, [method, url, body]] of attempts(deputy.id, deputy.email).entries()) {
      const r = await call(method, url, body, deputyCookie);
      expect(r.statusCode).toBe(409);
      expect(r.json().error).toBe(`${own[i]}: you would lock yourself out. Ask another manager.`);
    }
    for (const [method, url, body] of [...attempts(bossId, MANAGER)]) {
      for (const cookie of [boss, deputyCookie]) {
        const r = await call(method, url, body, cookie);
        expect(r.statusCode).toBe(409);
        expect(r.json().error).toContain('MANAGER_EMAILS');
      }
    }
    expect(await row(bossId)).toMatchObject({ role: 'manager', disabled: 0, deleted_at: null });
    expect(await row(deputy.id)).toMatchObject({ role: 'manager', disabled: 0, deleted_at: null });
    expect((await me(deputyCookie)).statusCode).toBe(200);
    const listed = await list();
    expect(listed.find((u) => u.id === bossId).configured).toBe(true);
    expect(listed.find((u) => u.id === deputy.id).configured).toBe(false);
    // Another manager may step the deputy down.
    expect((await call('PATCH', `/${deputy.id}`, { email: deputy.email, role: 'staff' })).json().user.role).toBe('staff');
  });

  it('the command line cannot remove the last manager either', async () => {
    const last = await add({ email: unique('last'), role: 'manager' });
    await t.db.updateTable('users').set({ role: 'staff' }).where('id', '!=', last.id).where('role', '=', 'manager').execute();
    const shell = { id: null, name: 'command line' };
    await expect(editUser(t.dbh, last.id, { email: last.email, role: 'staff' }, shell)).rejects.toThrow(
      'You are the last manager; make someone else a manager first.',
    );
    await expect(setStatus(t.dbh, last.id, 'disable', shell)).rejects.toThrow('You are the last manager');
    expect(await row(last.id)).toMatchObject({ role: 'manager', disabled: 0 });
    await t.db.updateTable('users').set({ role: 'manager' }).where('id', '=', bossId).execute();
  });

  it('staff and signed-out callers are refused; unknown ids are 404', async () => {
    const staff = await t.signIn(unique('staff'));
    expect((await call('GET', '', undefined, staff)).statusCode).toBe(403);
    expect((await call('POST', '', { email: unique() }, staff)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/users' })).statusCode).toBe(401);
    expect((await call('POST', '/nobody/disable')).statusCode).toBe(404);
    expect((await call('GET', '/nobody/audit')).json().error).toBe('User not found');
  });

  it('every change is published so open lists refresh', async () => {
    events.length = 0;
    const u = await add({ email: unique('live') });
    await call('PATCH', `/${u.id}`, { email: u.email, name: 'Live' });
    await published((list) => topics(list, 'users').length >= 2 && topics(list, 'rotation').length >= 2);
    expect(topics(events, 'users').length).toBeGreaterThanOrEqual(2);
    expect(topics(events, 'rotation').length).toBeGreaterThanOrEqual(2);
  });
});
