import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { withRotationLock } from '../db';
import { insertUser, type UserRow } from '../users/repo';
import { presentLead } from './present';
import type { Lead } from '../../domain/contract/answers';
import { dayKey } from '../../domain/time';

type Action = keyof Lead['can'];
const ACTIONS: Action[] = ['lose', 'sell', 'appoint', 'markShown', 'reopen', 'name', 'accept', 'contact', 'handOut', 'timeline', 'document'];
const SCENES = ['waiting for accept', 'accepted', 'appointment set', 'lost by him', 'lost by a manager', 'sold', 'unassigned', 'name missing'] as const;
let minute = 0;
/** Two days ahead on any clock, as a date-time field sends it, a minute later each time (a new appointment moves it). */
const later = () => `${dayKey(new Date(Date.now() + 2 * 86_400_000), 'UTC')}T10:${String(++minute % 60).padStart(2, '0')}`;
/** Today where the day starts last: never a day ahead of the store's clock. */
const today = () => dayKey(new Date(), 'Pacific/Pago_Pago');
type Scene = (typeof SCENES)[number];

/**
 * Each lead answer's `can` is the server's policy: for every reader (a manager, the salesman who
 * holds the lead, another salesman) and every kind of lead, an action `can` offers succeeds and
 * one it withholds is refused or changes nothing, when tried on a fresh lead of that kind.
 */
describe.each(DIALECTS)('what a lead answer says its reader can do, on %s', (dialect) => {
  let t: TestApp;
  const who: Record<'boss' | 'ann' | 'bob', { cookie: string; row: UserRow }> = {} as never;
  let n = 0;

  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '100000' });
    const boss = await t.signIn(MANAGER);
    for (const name of ['ann', 'bob'] as const)
      await withRotationLock(t.dbh, (trx) => insertUser(trx, { email: `${name}.can@dealer.test`, name: `${name} Can`, onDuty: true }));
    for (const [name, email] of [
      ['boss', MANAGER],
      ['ann', 'ann.can@dealer.test'],
      ['bob', 'bob.can@dealer.test'],
    ] as const) {
      const cookie = name === 'boss' ? boss : await t.signIn(email);
      who[name] = { cookie, row: await t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow() };
    }
    // Leads wait for their salesman's Accept.
    expect((await hit('boss', 'PATCH', '/rules', { responseWindowMinutes: 10 })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  let sales = 0;
  /** A sale for Sold, each with its own action id. */
  const sale = () => ({ actionId: `can-${++sales}-${Date.now()}`, date: today(), frontGross: '1500', vehicleType: 'new', split: 'full' });
  const hit = (as: keyof typeof who, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie: who[as].cookie }, payload });
  const row = (id: number) => t.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** A fresh lead of Ann's in the scene. */
  async function lead(scene: Scene): Promise<number> {
    const customer = `Can ${++n}`;
    const r = await hit('boss', 'POST', '/rotation/assign', { customer, askedFor: who.ann.row.id });
    expect(r.statusCode, r.body).toBe(200);
    const id: number = r.json().leadId;
    if (scene === 'accepted') await hit('ann', 'POST', `/leads/${id}/accept`);
    if (scene === 'appointment set') expect((await hit('ann', 'POST', `/leads/${id}/appointment`, { at: later() })).statusCode).toBe(200);
    if (scene === 'lost by him') expect((await hit('ann', 'POST', `/leads/${id}/lost`, { reason: 'Credit' })).statusCode).toBe(200);
    if (scene === 'lost by a manager') expect((await hit('boss', 'POST', `/leads/${id}/lost`, { reason: 'Duplicate' })).statusCode).toBe(200);
    if (scene === 'sold') expect((await hit('ann', 'POST', `/leads/${id}/sold`, sale())).statusCode).toBe(200);
    if (scene === 'unassigned')
      await t.db.updateTable('leads').set({ assigned_to: '', assigned_to_name: '', accept_due: null, offered_at: null }).where('id', '=', id).execute();
    if (scene === 'name missing') await t.db.updateTable('leads').set({ name_missing: 1 }).where('id', '=', id).execute();
    return id;
  }

  /** Whether the action went through: answered 2xx and, for a step of the lead's life, changed its stage. */
  async function tryIt(as: keyof typeof who, action: Action, id: number): Promise<boolean> {
    const before = await row(id);
    const path = `/leads/${id}`;
    const body = { lose: { reason: 'Not in market' }, sell: sale(), appoint: { at: later() }, markShown: { shown: true } } as const;
    const step = { lose: 'lost', sell: 'sold', appoint: 'appointment', markShown: 'shown' } as const;
    const r =
      action === 'lose' || action === 'sell' || action === 'appoint' || action === 'markShown'
        ? await hit(as, 'POST', `${path}/${step[action]}`, body[action])
        : action === 'reopen' || action === 'accept'
          ? await hit(as, 'POST', `${path}/${action}`)
          : action === 'name'
            ? await hit(as, 'POST', `${path}/name`, { customer: 'Named Now' })
            : action === 'contact'
              ? await hit(as, 'POST', `${path}/contact`, { channel: 'Call' })
              : action === 'handOut'
                ? await hit(as, 'POST', `${path}/handout`, before.assigned_to ? { to: who.bob.row.id, reason: 'Can test' } : {})
                : await hit(as, 'GET', action === 'timeline' ? `${path}/timeline` : `${path}/document`);
    if (r.statusCode >= 500) throw new Error(`${action} answered ${r.statusCode}: ${r.body}`);
    if (r.statusCode >= 300) return false;
    if (action === 'lose' || action === 'sell' || action === 'appoint' || action === 'markShown' || action === 'reopen') {
      const after = await row(id);
      return after.stage !== before.stage || after.appointment_at !== before.appointment_at;
    }
    return true;
  }

  /** What the reader's own answer says he can do; a lead his list does not show him (another's, one waiting in Unassigned), the presenter speaks for. */
  async function canOf(as: keyof typeof who, id: number): Promise<Lead['can']> {
    const r = await row(id);
    const list = await hit(as, 'GET', `/leads${as === 'boss' ? '' : '/mine'}?q=${encodeURIComponent(r.customer)}&open=0`);
    const found = (list.json().leads as Lead[]).find((l) => l.id === id);
    return found?.can ?? presentLead(r, who[as].row, t.store.config.APP_TIMEZONE).can;
  }

  it('offers exactly what the server then allows, for every reader and kind of lead', async () => {
    const differ: string[] = [];
    let offered = 0;
    for (const as of ['boss', 'ann', 'bob'] as const)
      for (const scene of SCENES)
        for (const action of ACTIONS) {
          const id = await lead(scene);
          const can = (await canOf(as, id))[action];
          const did = await tryIt(as, action, id);
          if (can) offered++;
          if (can !== did) differ.push(`${as} / ${scene} / ${action}: can says ${can}, the server ${did ? 'allowed' : 'refused'} it`);
        }
    expect(differ).toEqual([]);
    // Both answers came up often: the sample is not all refusals.
    expect(offered).toBeGreaterThan(30);
  }, 120_000);
});
