import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from './repo';
import { addStore } from '../stores/service';
import type { Store } from '../../domain/stores';
import type { ManagedUser } from '../../domain/contract/answers';
import { SHARED_PERSON } from '../../domain/users';
import type { ReceivedMail } from '../test/smtp';

const linkIn = (mail: ReceivedMail) => /\/confirm-email\?t=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];

/**
 * Issue 66's takeover, tried again: Northside's manager against a salesman who also sells at
 * Bayview, and against a salesman of her own. Authority is per store; no address moves without
 * its owner; the roster of another store cannot be probed.
 */
describe.each(DIALECTS)('a store manager against people of other stores, on %s', (dialect) => {
  let t: TestApp;
  let nsh: Store;
  let bvt: Store;
  const id: Record<string, string> = {};
  let grace = '';
  let n = 0;

  const as = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie, 'x-store': 'NSH' }, payload });
  const row = (uid: string) => t.db.selectFrom('users').selectAll().where('id', '=', uid).executeTakeFirstOrThrow();
  const stores = async (uid: string) =>
    (await t.db.selectFrom('memberships').select('store_id').where('user_id', '=', uid).orderBy('store_id').execute()).map((m) => Number(m.store_id));
  const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token } });

  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000', SIGNIN_LINKS_PER_ADDRESS: '1000' });
    nsh = await addStore(t.dbh, { name: 'Northside Honda', code: 'NSH', timezone: 'America/Chicago' });
    bvt = await addStore(t.dbh, { name: 'Bayview Toyota', code: 'BVT', timezone: 'America/Los_Angeles' });
    const add = async (key: string, role: string, at: number[]) => {
      id[key] = (await insertUser(t.db, { email: `${key}@dealer.test`, name: `${key.toUpperCase()} Person`, role, stores: at })).id;
    };
    await add('grace', 'manager', [nsh.id]);
    await add('bob', 'manager', [bvt.id]);
    await add('andre', 'staff', [nsh.id, bvt.id]);
    await add('nick', 'staff', [nsh.id]);
    await add('bayrep', 'staff', [bvt.id]);
    grace = await t.signIn('grace@dealer.test');
    await t.signIn(MANAGER);
  });
  afterAll(() => t.close());

  it('cannot make a shared salesman a manager, move his address, block him or drop his other store', async () => {
    const before = await row(id.andre);
    for (const change of [{ role: 'manager' }, { email: 'grace.own@dealer.test' }, { name: 'Renamed' }, { groupManager: false }]) {
      const r = await as(grace, 'PATCH', `/users/${id.andre}`, { email: before.email, ...change });
      expect([r.statusCode, r.json().error], JSON.stringify(change)).toEqual([403, SHARED_PERSON]);
    }
    for (const action of ['disable', 'delete', 'sign-out']) {
      const r = await as(grace, 'POST', `/users/${id.andre}/${action}`);
      expect([r.statusCode, r.json().error], action).toEqual([403, SHARED_PERSON]);
    }
    // Her own store only: Bayview stays his.
    const saved = await as(grace, 'PATCH', `/users/${id.andre}`, { email: before.email, stores: ['NSH'] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await stores(id.andre)).toEqual([nsh.id, bvt.id]);
    const after = await row(id.andre);
    expect([after.role, after.email, after.name, after.disabled]).toEqual([before.role, before.email, before.name, before.disabled]);
    expect(await t.db.selectFrom('email_changes').select('email').where('user_id', '=', id.andre).execute()).toEqual([]);
    // What her screen offers says the same.
    const listed = ((await as(grace, 'GET', '/users')).json().users as ManagedUser[]).find((u) => u.id === id.andre);
    expect(listed?.can).toEqual({
      edit: true,
      changeName: false,
      changeEmail: false,
      changeRole: false,
      disable: false,
      enable: false,
      delete: false,
      restore: false,
      signOut: false,
    });
  });

  it("moves her own salesman's address only when he approves it from his current one; the old address can take it back", async () => {
    const nick = await row(id.nick);
    const nickCookie = await t.signIn(nick.email);
    const mine = `grace.alias.${++n}@dealer.test`;
    const seenOld = t.smtp.count(nick.email);
    const r = await as(grace, 'PATCH', `/users/${id.nick}`, { email: mine });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().user).toMatchObject({ email: nick.email, pendingEmail: mine, pendingLinkTo: nick.email });
    // The link goes to his current address; the one she typed gets nothing to open.
    const approval = await t.smtp.mailTo(nick.email, 5000, seenOld);
    expect(approval.text).toContain(`to ${mine}`);
    await t.drained();
    expect(t.smtp.count(mine)).toBe(0);
    expect((await row(id.nick)).email).toBe(nick.email);

    const seenUndo = t.smtp.count(nick.email);
    const done = await confirm(linkIn(approval) ?? '');
    expect(done.statusCode, done.body).toBe(200);
    expect((await row(id.nick)).email).toBe(mine);
    // Every device of his was signed out.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: nickCookie } })).json().user).toBeNull();
    expect(await t.db.selectFrom('sessions').select('sid').where('user_id', '=', id.nick).execute()).toEqual([]);

    // The old address takes it back within the week.
    const undoMail = await t.smtp.mailTo(nick.email, 5000, seenUndo);
    expect(undoMail.text).toContain('within 7 days');
    const usurper = await t.signIn(mine);
    const undone = await confirm(linkIn(undoMail) ?? '');
    expect(undone.json(), undone.body).toEqual({ email: nick.email });
    expect((await row(id.nick)).email).toBe(nick.email);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: usurper } })).json().user).toBeNull();
    const history = (await as(grace, 'GET', `/users/${id.nick}/audit`)).json().entries as { action: string }[];
    expect(history.slice(0, 3).map((e) => e.action)).toEqual(['email undo', 'update', 'email change']);
  });

  it("answers an address of another store's person as a new one, changes nothing, and tells the group managers", async () => {
    const bay = await row(id.bayrep);
    const before = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const seen = t.smtp.count(MANAGER);
    const r = await as(grace, 'POST', '/users', { email: bay.email, name: 'Probe Name', role: 'staff' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().user).toMatchObject({ email: bay.email, name: 'Probe Name', stores: ['NSH'] });
    expect(r.body).not.toContain(bay.name);
    expect(
      await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(before);
    expect(await stores(id.bayrep)).toEqual([bvt.id]);
    const told = await t.smtp.mailTo(MANAGER, 5000, seen);
    expect(told.text).toContain(`GRACE Person (grace@dealer.test), a manager at Northside Honda, tried to add ${bay.email}`);
    // Nor does asking for his address as someone's new one say it is taken.
    const moved = await as(grace, 'PATCH', `/users/${id.nick}`, { email: bay.email });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.body).not.toContain(bay.name);
    // A person of her own store is named as taken, as before.
    const own = await as(grace, 'POST', '/users', { email: (await row(id.andre)).email, name: 'Again', role: 'staff' });
    expect(own.statusCode).toBe(409);
  });
});
