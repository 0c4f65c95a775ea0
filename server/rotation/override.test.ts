import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { withRotationLock } from '../db';
import { UNASSIGNED } from './queries';
import { setPlaces } from '../test/places';

const MIN = 60_000;

describe.each(DIALECTS)('leads a manager hands to a salesman he names, and leads waiting for an Accept, on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  const rep: Record<string, { id: string; email: string; cookie: string }> = {};

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    for (const name of ['Amy', 'Bob', 'Cy']) {
      const email = `${name.toLowerCase()}.named@dealer.test`;
      const u = await withRotationLock(t.dbh, (trx) => insertUser(trx, { email, name: `${name} Named`, onDuty: true }));
      rep[name] = { id: u.id, email, cookie: await t.signIn(email) };
    }
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await setPlaces(t.db, { snooze_until: null, on_duty: 1, active: 1 }, (u) => u.where('role', '=', 'staff'));
    await t.db.updateTable('leads').set({ accept_due: null, accepted_at: Date.now() }).where('accepted_at', 'is', null).execute();
  });

  const call = (method: 'GET' | 'POST', url: string, cookie = boss, payload?: object) =>
    t.app.inject({ method, url: `/api/${url}`, headers: { cookie }, payload });
  const view = async (cookie = boss) => (await call('GET', 'rotation?log=12', cookie)).json();
  const lead = (id: number) => t.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** A lead waiting in Unassigned, as the intake API leaves one when no one is on the floor. */
  const waitingLead = async (customer: string) => {
    const now = Date.now();
    const row = await t.db
      .insertInto('leads')
      .values({
        customer,
        assigned_to: UNASSIGNED,
        assigned_to_name: UNASSIGNED,
        assigned_by: null,
        assigned_by_name: 'Website',
        assigned_at: now,
        status: 'new',
        follow_up_due: now + 24 * 60 * MIN,
        closed: 0,
        source: 'Website',
        closed_at: null,
        closed_by_id: null,
        closed_by_name: null,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };

  it('lists each lead waiting for an Accept with its salesman and when it is due: all to a manager, his own to a salesman', async () => {
    const sent = Date.now();
    const given: { leadId: number; assignedTo: { id: string; name: string } }[] = [];
    for (const c of ['Pending Pat', 'Pending Quinn']) given.push((await call('POST', 'rotation/assign', boss, { customer: c })).json());
    const pending = (await view()).pending;
    expect(pending.map((p: { customer: string }) => p.customer)).toEqual(['Pending Pat', 'Pending Quinn']);
    expect(pending.map((p: { salesman: { id: string } }) => p.salesman.id)).toEqual(given.map((g) => g.assignedTo.id));
    const due = Date.parse(pending[0].acceptDue);
    expect(due).toBeGreaterThanOrEqual(sent + 10 * MIN);
    expect(due).toBeLessThanOrEqual(Date.now() + 10 * MIN);

    const holder = Object.values(rep).find((r) => r.id === given[0].assignedTo.id)!;
    expect((await view(holder.cookie)).pending.map((p: { leadId: number }) => p.leadId)).toEqual([given[0].leadId]);
    const bystander = Object.values(rep).find((r) => !given.some((g) => g.assignedTo.id === r.id))!;
    expect((await view(bystander.cookie)).pending).toEqual([]);

    // Accepted: no longer waiting.
    expect((await call('POST', `leads/${given[0].leadId}/accept`, holder.cookie)).statusCode).toBe(200);
    expect((await view()).pending.map((p: { customer: string }) => p.customer)).toEqual(['Pending Quinn']);
  });

  it('hands a waiting lead to the salesman named, off the floor too: logged with who and why, and no one loses a turn', async () => {
    await call('POST', 'rotation/duty', rep.Cy.cookie, { onDuty: false });
    const id = await waitingLead('Spanish Sofia');
    const before = await view();
    const r = await call('POST', `leads/${id}/handout`, boss, { to: rep.Cy.id, reason: 'Speaks Spanish' });
    expect(r.statusCode).toBe(200);
    expect(r.json().lead).toMatchObject({ customer: 'Spanish Sofia', assignedTo: rep.Cy.id, assignedToName: 'Cy Named', waiting: true });
    expect(r.json().lead.acceptDue).not.toBeNull();
    const after = await view();
    expect(after.log[0]).toMatchObject({ type: 'assign', customer: 'Spanish Sofia', targetName: 'Cy Named', reason: 'Speaks Spanish', managerName: 'User' });
    expect(after.pointerPos).toBe(before.pointerPos);
    expect(after.nextUp).toEqual(before.nextUp);
    expect(after.pending.some((p: { leadId: number; salesman: { id: string } }) => p.leadId === id && p.salesman.id === rep.Cy.id)).toBe(true);
    await t.smtp.mailTo(rep.Cy.email);
    const timeline = (await call('GET', `leads/${id}/timeline`)).json().entries;
    expect(timeline.at(-1)).toMatchObject({ type: 'assigned', actorName: 'User', targetName: 'Cy Named' });
  });

  it('naming Next Up is his turn, as a hand-out by the rotation would be', async () => {
    const before = await view();
    const id = await waitingLead('Turn Tina');
    const r = await call('POST', `leads/${id}/handout`, boss, { to: before.nextUp.id, reason: 'Asked for the next one' });
    expect(r.statusCode).toBe(200);
    const after = await view();
    expect(after.nextUp.id).toBe(before.queue[1].id);
  });

  it('moves a lead its salesman sits on to the salesman named; the first can no longer accept it', async () => {
    const given = (await call('POST', 'rotation/assign', boss, { customer: 'Sitting Sam' })).json();
    const from = Object.values(rep).find((r) => r.id === given.assignedTo.id)!;
    const to = Object.values(rep).find((r) => r.id !== from.id)!;
    expect((await call('POST', `leads/${given.leadId}/handout`, boss, {})).json().error).toBe(`This lead is already with ${given.assignedTo.name}.`);
    const r = await call('POST', `leads/${given.leadId}/handout`, boss, { to: to.id, reason: `${given.assignedTo.name} is on a test drive` });
    expect(r.statusCode).toBe(200);
    expect(r.json().lead).toMatchObject({ assignedTo: to.id, waiting: true });
    const accept = await call('POST', `leads/${given.leadId}/accept`, from.cookie);
    expect(accept.statusCode).toBe(403);
    expect(accept.json().error).toBe('Only the salesman who holds this lead can accept it.');
    expect((await call('POST', `leads/${given.leadId}/handout`, boss, { to: to.id, reason: 'Again' })).statusCode).toBe(409);
    // Accepted, it is his: no one hands it out any more.
    expect((await call('POST', `leads/${given.leadId}/accept`, to.cookie)).statusCode).toBe(200);
    const late = await call('POST', `leads/${given.leadId}/handout`, boss, { to: from.id, reason: 'Back' });
    expect(late.statusCode).toBe(409);
    expect((await lead(given.leadId)).assigned_to).toBe(to.id);
  });

  it('refuses someone inactive, deleted, disabled, a manager or no one, and a name without a reason, saying why and changing nothing', async () => {
    const id = await waitingLead('Nobody Ned');
    const make = async (name: string, { active, ...set }: { active?: number; disabled?: number; deleted_at?: number }) => {
      const u = await withRotationLock(t.dbh, (trx) => insertUser(trx, { email: `${name.toLowerCase()}.refused@dealer.test`, name }));
      if (Object.keys(set).length) await t.db.updateTable('users').set(set).where('id', '=', u.id).execute();
      if (active !== undefined) await setPlaces(t.db, { active }, (q) => q.where('id', '=', u.id));
      return u.id;
    };
    // A manager on the store's team (a group manager is on no store's team).
    const manager = await withRotationLock(t.dbh, (trx) => insertUser(trx, { email: 'mo.refused@dealer.test', name: 'Mo', role: 'manager', stores: [1] }));
    const cases: [string, string][] = [
      [await make('Ivy', { active: 0 }), 'Ivy is inactive. Activate him first, or name someone else.'],
      [await make('Dee', { disabled: 1, deleted_at: Date.now() }), 'Dee was deleted. Restore him first, or name someone else.'],
      [await make('Xi', { disabled: 1 }), 'Xi is disabled. Enable him first, or name someone else.'],
      [manager.id, 'Mo is a manager: only salesmen take leads.'],
      ['no-such-id', 'The salesman you named is not on the team.'],
    ];
    const logBefore = (await view()).log[0]?.id;
    for (const [to, error] of cases) {
      const r = await call('POST', `leads/${id}/handout`, boss, { to, reason: 'Because' });
      expect(r.statusCode, error).toBe(409);
      expect(r.json()).toMatchObject({ error, field: 'to' });
    }
    const bare = await call('POST', `leads/${id}/handout`, boss, { to: rep.Amy.id });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ error: 'Say why you hand it to this salesman', field: 'reason' });
    expect((await lead(id)).assigned_to).toBe(UNASSIGNED);
    expect((await view()).log[0]?.id).toBe(logBefore);
  });
});
