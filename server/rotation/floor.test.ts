import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { withRotationLock } from '../db';
import { setPlaces } from '../test/places';

const HOUR = 3_600_000;

describe.each(DIALECTS)('the floor by the day on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  const rep: Record<string, { id: string; cookie: string }> = {};

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    for (const name of ['Amy', 'Bob', 'Cy']) {
      const email = `${name.toLowerCase()}.floor@dealer.test`;
      const u = await withRotationLock(t.dbh, (trx) => insertUser(trx, { email, name: `${name} Floor`, onDuty: true }));
      rep[name] = { id: u.id, cookie: await t.signIn(email) };
    }
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie = boss, payload?: object) =>
    t.app.inject({ method, url: `/api/${url}`, headers: { cookie }, payload });
  const view = async () => (await call('GET', 'rotation')).json();

  it('gives a be-back to the salesman asked for, off the floor too, marks it, and leaves Next Up and the pointer where they were', async () => {
    expect((await call('POST', 'rotation/duty', rep.Cy.cookie, { onDuty: false })).statusCode).toBe(200);
    const before = await view();
    const r = await call('POST', 'rotation/assign', boss, { customer: 'Returning Rita', askedFor: rep.Cy.id });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ assignedTo: { id: rep.Cy.id }, pointerPos: before.pointerPos });
    const after = await view();
    expect(after.nextUp).toEqual(before.nextUp);
    expect(after.pointerPos).toBe(before.pointerPos);
    expect(after.log[0]).toMatchObject({ type: 'beback', targetName: 'Cy Floor', customer: 'Returning Rita' });
    const lead = (await call('GET', 'leads/mine?open=1', rep.Cy.cookie)).json().leads.find((l: { customer: string }) => l.customer === 'Returning Rita');
    expect(lead).toMatchObject({ beBack: true, waiting: true, acceptDue: null });
    // Counted apart from ups.
    const kpi = (await call('GET', 'leads/kpis')).json().associates.find((a: { id: string }) => a.id === rep.Cy.id);
    expect(kpi).toMatchObject({ received: 0, beBacks: 1 });
  });

  it('refuses a be-back for someone inactive or not on the team, and changes nothing', async () => {
    await call('POST', 'rotation/status', boss, { uid: rep.Cy.id, active: false });
    const count = async () =>
      (
        await t.db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const n = Number(await count());
    const inactive = await call('POST', 'rotation/assign', boss, { customer: 'Nope', askedFor: rep.Cy.id });
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json().error).toBe('The salesman the customer asks for is inactive. Activate him first, or assign the lead by the rotation.');
    expect((await call('POST', 'rotation/assign', boss, { customer: 'Nope', askedFor: 'no-such-id' })).json().error).toBe(
      'The salesman the customer asks for is not on the team.',
    );
    expect(Number(await count())).toBe(n);
    await call('POST', 'rotation/status', boss, { uid: rep.Cy.id, active: true });
  });

  it('serves in check-in order when the rule is on: clocking out and in again goes to the end', async () => {
    const order = async () => (await view()).team.map((m: { name: string }) => m.name);
    expect((await call('PATCH', 'rules', boss, { checkInOrder: true })).statusCode).toBe(200);
    for (const r of [rep.Amy, rep.Bob, rep.Cy]) await call('POST', 'rotation/duty', r.cookie, { onDuty: false });
    for (const r of [rep.Bob, rep.Cy, rep.Amy]) await call('POST', 'rotation/duty', r.cookie, { onDuty: true });
    expect(await order()).toEqual(['Bob Floor', 'Cy Floor', 'Amy Floor']);
    await call('POST', 'rotation/duty', rep.Bob.cookie, { onDuty: false });
    await call('POST', 'rotation/duty', rep.Bob.cookie, { onDuty: true });
    expect(await order()).toEqual(['Cy Floor', 'Amy Floor', 'Bob Floor']);
    // Off: clocking in keeps today's fixed order.
    await call('PATCH', 'rules', boss, { checkInOrder: false });
    await call('POST', 'rotation/duty', rep.Cy.cookie, { onDuty: false });
    await call('POST', 'rotation/duty', rep.Cy.cookie, { onDuty: true });
    expect(await order()).toEqual(['Cy Floor', 'Amy Floor', 'Bob Floor']);
  });

  it('takes the follow-up time and the skip snooze from the rules', async () => {
    expect((await call('PATCH', 'rules', boss, { followUpHours: 48, skipSnoozeMinutes: 5 })).statusCode).toBe(200);
    const r = (await call('POST', 'rotation/assign', boss, { customer: 'Later Larry' })).json();
    const lead = await t.db.selectFrom('leads').selectAll().where('id', '=', r.leadId).executeTakeFirstOrThrow();
    expect(Number(lead.follow_up_due) - Number(lead.assigned_at)).toBe(48 * HOUR);
    const next = (await view()).nextUp;
    const skipped = (await call('POST', 'rotation/skip', boss, { targetUid: next.id, reason: 'Lunch' })).json();
    expect(Date.parse(skipped.snoozeUntil) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(Date.parse(skipped.snoozeUntil) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
  });

  it('holds out a salesman with a past-due follow-up when the rule is on, says which lead, and lets him back in once he makes contact', async () => {
    await setPlaces(t.db, { snooze_until: null, on_duty: 1, active: 1 }, (u) => u.where('role', '=', 'staff'));
    await t.db.updateTable('leads').set({ first_contact_at: Date.now() }).execute();
    const late = (await call('POST', 'rotation/assign', boss, { customer: 'Overdue Olga' })).json();
    const holder = late.assignedTo as { id: string; name: string };
    await t.db
      .updateTable('leads')
      .set({ follow_up_due: Date.now() - 1000, first_contact_at: null })
      .where('id', '=', late.leadId)
      .execute();
    const cookie = Object.values(rep).find((r) => r.id === holder.id)!.cookie;

    // Off by default: nothing changes.
    expect((await view()).team.find((m: { id: string }) => m.id === holder.id)).toMatchObject({ eligible: true, pastDue: [] });
    expect((await call('PATCH', 'rules', boss, { holdOut: true })).statusCode).toBe(200);
    const held = (await view()).team.find((m: { id: string }) => m.id === holder.id);
    expect(held).toMatchObject({ eligible: false, place: null, pastDueCount: 1, pastDue: [{ id: late.leadId, customer: 'Overdue Olga' }] });
    // Another salesman sees that he is held out, how many and why, but not which lead or customer;
    // the holder sees his own.
    const bystander = Object.values(rep).find((r) => r.id !== holder.id)!;
    const seen = (await call('GET', 'rotation', bystander.cookie)).json();
    expect(seen.team.find((m: { id: string }) => m.id === holder.id)).toMatchObject({
      pastDueCount: 1,
      notInLine: 'Held out: 1 past-due follow-up',
      pastDue: [],
    });
    expect(seen.team.flatMap((m: { pastDue: unknown[] }) => m.pastDue)).toEqual([]);
    expect(JSON.stringify([seen.team, seen.pending])).not.toContain('Overdue Olga');
    const own = (await call('GET', 'rotation', cookie)).json();
    expect(own.team.find((m: { id: string }) => m.id === holder.id).pastDue).toEqual([{ id: late.leadId, customer: 'Overdue Olga' }]);
    // Every assign while he is held out goes to someone else (the one-call path on PostgreSQL too).
    for (let i = 0; i < 4; i++) expect((await call('POST', 'rotation/assign', boss, { customer: `Other ${i}` })).json().assignedTo.id).not.toBe(holder.id);
    // He is not in line, so he cannot be skipped: the pointer stays where it was.
    const before = (await view()).pointerPos;
    const skipped = await call('POST', 'rotation/skip', boss, { targetUid: holder.id, reason: 'Lunch' });
    expect(skipped.statusCode).toBe(400);
    expect(skipped.json().error).toBe(`${holder.name} is not in line (held out: 1 past-due follow-up). Only someone in line can be skipped.`);
    expect((await view()).pointerPos).toBe(before);

    expect((await call('POST', `leads/${late.leadId}/contact`, cookie, { channel: 'Text' })).statusCode).toBe(200);
    expect((await view()).team.find((m: { id: string }) => m.id === holder.id)).toMatchObject({ eligible: true, pastDue: [] });
    await call('PATCH', 'rules', boss, { holdOut: false });
  });
});
