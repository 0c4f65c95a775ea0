import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import type { ManagedUser } from '../../domain/contract/answers';

type Action = Exclude<keyof ManagedUser['can'], 'edit'>;
const ACTIONS: Action[] = ['changeEmail', 'changeRole', 'disable', 'enable', 'delete', 'restore'];
const KINDS = ['salesman', 'disabled salesman', 'deleted salesman', 'another manager', 'himself', 'a MANAGER_EMAILS manager'] as const;
type Kind = (typeof KINDS)[number];

/**
 * Each person answer's `can` is the server's policy: for two managers (one set by MANAGER_EMAILS)
 * and every kind of person, an action `can` offers goes through and one it withholds is refused
 * or changes nothing, tried on a fresh person of that kind where the kind allows one.
 */
describe.each(DIALECTS)('what a person answer says a manager can do, on %s', (dialect) => {
  let t: TestApp;
  const cookies: Record<'boss' | 'deputy', string> = { boss: '', deputy: '' };
  const ids: Record<'boss' | 'deputy', string> = { boss: '', deputy: '' };
  let n = 0;

  const hit = (as: 'boss' | 'deputy', method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/users${url}`, headers: { cookie: cookies[as] }, payload });
  const row = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '100000' });
    cookies.boss = await t.signIn(MANAGER);
    ids.boss = (await t.db.selectFrom('users').select('id').where('email', '=', MANAGER).executeTakeFirstOrThrow()).id;
    const deputy = (await hit('boss', 'POST', '', { email: 'deputy.can@dealer.test', name: 'Deputy Can', role: 'manager' })).json().user;
    ids.deputy = deputy.id;
    cookies.deputy = await t.signIn('deputy.can@dealer.test');
  });
  afterAll(() => t.close());

  /** A person of the kind, as `as` sees him: a fresh one where the kind allows. */
  async function person(as: 'boss' | 'deputy', kind: Kind): Promise<string> {
    if (kind === 'himself') return ids[as];
    if (kind === 'a MANAGER_EMAILS manager') return ids.boss;
    const role = kind === 'another manager' ? 'manager' : 'staff';
    const { id } = (await hit('boss', 'POST', '', { email: `person.${++n}@dealer.test`, name: `Person ${n}`, role })).json().user;
    if (kind === 'disabled salesman') await hit('boss', 'POST', `/${id}/disable`);
    if (kind === 'deleted salesman') await hit('boss', 'POST', `/${id}/delete`);
    return id;
  }

  /** Whether the action went through: answered 2xx and changed what it is about. */
  async function tryIt(as: 'boss' | 'deputy', action: Action, id: string): Promise<boolean> {
    const before = await row(id);
    const r =
      action === 'changeEmail'
        ? await hit(as, 'PATCH', `/${id}`, { email: `moved.${++n}@dealer.test` })
        : action === 'changeRole'
          ? await hit(as, 'PATCH', `/${id}`, { email: before.email, role: before.role === 'manager' ? 'staff' : 'manager' })
          : await hit(as, 'POST', `/${id}/${action}`);
    if (r.statusCode >= 500) throw new Error(`${action} answered ${r.statusCode}: ${r.body}`);
    if (r.statusCode >= 300) return false;
    const after = await row(id);
    if (action === 'changeEmail') return r.json().user.pendingEmail !== null;
    if (action === 'changeRole') return after.role !== before.role;
    return after.disabled !== before.disabled || after.deleted_at !== before.deleted_at;
  }

  it('offers exactly what the server then allows, for each manager and kind of person', async () => {
    const differ: string[] = [];
    let offered = 0;
    for (const as of ['boss', 'deputy'] as const)
      for (const kind of KINDS)
        for (const action of ACTIONS) {
          const id = await person(as, kind);
          const listed = (await hit(as, 'GET', '?deleted=1')).json().users as ManagedUser[];
          const can = listed.find((u) => u.id === id)?.can[action];
          if (can === undefined) throw new Error(`${as} does not see ${kind}`);
          const did = await tryIt(as, action, id);
          if (can) offered++;
          if (can !== did) differ.push(`${as} / ${kind} / ${action}: can says ${can}, the server ${did ? 'allowed' : 'refused'} it`);
        }
    expect(differ).toEqual([]);
    expect(offered).toBeGreaterThan(15);
  }, 120_000);
});
