import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { withRotationLock } from '../db';
import { loadRules, rememberedRules } from '../rules/service';
import { claim, noticePools, putInPool, sweepPools } from './service';
import { DEFAULT_ROUTING, type Routing } from '../../domain/routing';
import { isEligible, MAX_HANDOFFS } from '../../domain/rotation';
import { DEFAULT_RULES } from '../../domain/rules';
import { sqlEnv, teamStaff } from '../rotation/queries';
import type { PortalEvent } from '../events/bus';

/**
 * Up for grabs and credit-back through the API: a lead in a team's claim pool goes to the first
 * of that team to press Claim (exactly one, under concurrency), moves on to the fallback team's
 * pool and then to the managers when no one claims it; a manager marks an up "No customer" and
 * the salesman is Next Up again, the up no longer counting toward his daily cap.
 */
describe.each(DIALECTS)('up for grabs on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  type Person = { id: string; name: string; cookie: string };
  let ann: Person;
  let ben: Person;
  let cy: Person;
  let newTeam: number;
  let usedTeam: number;

  const call = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const person = async (email: string, name: string): Promise<Person> => {
    const u = await insertUser(t.db, { email, name, onDuty: true });
    return { id: u.id, name, cookie: await t.signIn(email) };
  };
  const team = async (name: string, people: Person[]) => {
    const row = await t.db.insertInto('teams').values({ store_id: t.store.store.id, name, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
    const id = Number(row.id);
    await t.db
      .insertInto('team_members')
      .values(people.map((p, i) => ({ team_id: id, user_id: p.id, position: i + 1, created_at: Date.now() })))
      .execute();
    return id;
  };
  const setRouting = async (routing: Routing) => {
    const rules = await loadRules(t.db, t.store.store.id);
    await t.db
      .updateTable('stores')
      .set({ rules: JSON.stringify({ ...rules, routing }) })
      .where('id', '=', t.store.store.id)
      .execute();
    // As a manager's save does: this app server reads them afresh.
    await rememberedRules(t.store.dbh, true);
  };
  /** A new lead of the store, waiting for no one yet (as stored by an assign or the intake). */
  const newLead = async (customer: string, to: { id: string; name: string } | null = null) => {
    const at = Date.now();
    const row = await t.db
      .insertInto('leads')
      .values({
        store_id: t.store.store.id,
        customer,
        assigned_to: to?.id ?? '',
        assigned_to_name: to?.name ?? '',
        assigned_by: null,
        assigned_by_name: 'Rotation',
        assigned_at: at,
        status: to ? 'handed' : 'new',
        follow_up_due: at + 86_400_000,
        closed: 0,
        source: 'Internet',
        closed_at: null,
        closed_by_id: null,
        closed_by_name: null,
        phone: null,
        email: null,
        vehicle: '2026 Civic',
        vin: null,
        comments: null,
        external_source: null,
        external_id: null,
        customer_key: null,
        trade_in: null,
        document_id: null,
        offered_at: to ? at : null,
        accept_due: null,
        accepted_at: null,
        first_contact_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  /** A lead put in a pool, as the routing's grab rule does. */
  const pooled = async (customer: string, pool: number | null, opts: { minutes?: number; stage?: number; now?: Date } = {}) => {
    const id = await newLead(customer);
    await withRotationLock(t.store.dbh, (trx) => putInPool(trx, id, t.store.store.id, pool, opts.minutes ?? 10, opts.stage ?? 0, opts.now ?? new Date()));
    return id;
  };
  const lead = (id: number) => t.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const pointer = async () =>
    (await t.db.selectFrom('rotation_state').select('pointer_pos').where('id', '=', t.store.store.id).executeTakeFirstOrThrow()).pointer_pos;

  beforeAll(async () => {
    // Its devices are at push.test, which never resolves: a push fails, as one to a service that is down.
    t = await testApp(dialect, { PUSH_HOSTS: 'push.test' });
    boss = await t.signIn(MANAGER);
    ann = await person('ann.grab@dealer.test', 'Ann Grab');
    ben = await person('ben.grab@dealer.test', 'Ben Grab');
    cy = await person('cy.grab@dealer.test', 'Cy Grab');
    newTeam = await team('New', [ann, ben]);
    usedTeam = await team('Used', [cy]);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await setRouting(DEFAULT_ROUTING);
    await t.db.deleteFrom('lead_events').execute();
    await t.db.deleteFrom('rotation_log').execute();
    await t.db.deleteFrom('leads').execute();
    await t.db.updateTable('memberships').set({ on_duty: 1, snooze_until: null, daily_cap: null }).execute();
  });

  it("lists a team's pool to its floor; the first to claim gets it, accepted, logged as Claimed; the next hears who did", async () => {
    const id = await pooled('Pat Pool', newTeam);
    const at = await pointer();
    const list = (await call(ann.cookie, 'GET', '/grabs')).json().leads;
    expect(list).toMatchObject([{ id, customer: 'Pat Pool', team: { id: newTeam, name: 'New' }, canClaim: true }]);
    // Not his team's pool: another salesman does not see it; a manager sees every pool, claiming none.
    expect((await call(cy.cookie, 'GET', '/grabs')).json().leads).toEqual([]);
    expect((await call(boss, 'GET', '/grabs')).json().leads).toMatchObject([{ id, canClaim: false }]);

    const seen: PortalEvent[] = [];
    const stop = t.app.ctx.bus.subscribe((e) => seen.push(e));
    const won = await call(ann.cookie, 'POST', `/leads/${id}/claim`);
    await expect.poll(() => seen.some((e) => e.topic === 'leads')).toBe(true);
    stop();
    expect(won.statusCode, won.body).toBe(200);
    expect(won.json()).toEqual({ leadId: id, customer: 'Pat Pool', assignedTo: { id: ann.id, name: 'Ann Grab' } });
    const l = await lead(id);
    expect(l).toMatchObject({ assigned_to: ann.id, assigned_to_name: 'Ann Grab', status: 'handed', grab_until: null, grab_team: null, accept_due: null });
    expect(l.accepted_at).not.toBeNull();
    const claims = await t.db
      .selectFrom('rotation_log')
      .select(['type', 'target_id', 'reason'])
      .where('lead_id', '=', id)
      .where('reason', '=', 'Claimed')
      .execute();
    expect(claims).toEqual([{ type: 'assign', target_id: ann.id, reason: 'Claimed' }]);
    expect(await pointer()).toBe(at);
    const timeline = (await call(ann.cookie, 'GET', `/leads/${id}/timeline`)).json().entries;
    expect(timeline).toContainEqual(expect.objectContaining({ type: 'accepted', actorName: 'Ann Grab', note: 'Claimed by Ann Grab' }));

    const lost = await call(ben.cookie, 'POST', `/leads/${id}/claim`);
    expect([lost.statusCode, lost.json().error]).toEqual([409, 'Ann Grab claimed it first.']);
    expect((await call(ben.cookie, 'GET', '/grabs')).json().leads).toEqual([]);
  });

  it("names who has a lead only to a salesman the lead's pool showed it to, never to one who guesses its id", async () => {
    // Handed to Ann, never in a pool: Ben could not see it.
    const handed = await newLead('Hal Handed', ann);
    const guess = await call(ben.cookie, 'POST', `/leads/${handed}/claim`);
    expect([guess.statusCode, guess.json().error]).toEqual([409, 'This lead is no longer up for grabs.']);
    // Claimed by Ann from the New team's pool: Cy, of another team, never saw it there.
    const pooledId = await pooled('Tess Team', newTeam);
    expect((await call(ann.cookie, 'POST', `/leads/${pooledId}/claim`)).statusCode).toBe(200);
    const other = await call(cy.cookie, 'POST', `/leads/${pooledId}/claim`);
    expect([other.statusCode, other.json().error]).toEqual([409, 'This lead is no longer up for grabs.']);
    // Ben, of that team, raced for it: he hears who won.
    const raced = await call(ben.cookie, 'POST', `/leads/${pooledId}/claim`);
    expect(raced.json().error).toBe('Ann Grab claimed it first.');
  });

  it('refuses someone not of the pool team, off duty, or a manager; the floor pool is for any salesman', async () => {
    const id = await pooled('Team Only', newTeam);
    const r = await call(cy.cookie, 'POST', `/leads/${id}/claim`);
    expect([r.statusCode, r.json().error]).toEqual([403, "This lead is up for grabs for another team's floor."]);
    await t.db.updateTable('memberships').set({ on_duty: 0 }).where('user_id', '=', ben.id).execute();
    const off = await call(ben.cookie, 'POST', `/leads/${id}/claim`);
    expect([off.statusCode, off.json().error]).toEqual([403, 'You cannot claim a lead now: off duty.']);
    expect((await call(boss, 'POST', `/leads/${id}/claim`)).statusCode).toBe(403);
    expect((await call(ann.cookie, 'POST', '/leads/999999/claim')).statusCode).toBe(404);
    expect((await lead(id)).assigned_to).toBe('');

    const floor = await pooled('Whole Floor', null);
    expect((await call(cy.cookie, 'GET', '/grabs')).json().leads).toMatchObject([{ id: floor, team: null, canClaim: true }]);
    expect((await call(cy.cookie, 'POST', `/leads/${floor}/claim`)).statusCode).toBe(200);
    expect((await lead(floor)).assigned_to).toBe(cy.id);
  });

  it("moves an unclaimed lead to the rule's fallback team's pool, then to the managers, where a claim is refused", async () => {
    const id = await pooled('Slow Sam', newTeam, { minutes: 5, now: new Date(Date.now() - 6 * 60_000) });
    await setRouting({
      ...DEFAULT_ROUTING,
      rules: [{ name: 'New cars', when: {}, to: { team: newTeam }, grab: { after: 0, minutes: 5, then: { team: usedTeam } } }],
    });
    const now = new Date();
    expect(await sweepPools(t.store, now)).toEqual([{ leadId: id, stage: 1 }]);
    expect(await lead(id)).toMatchObject({ assigned_to: '', grab_team: usedTeam, grab_stage: 1, grab_until: now.getTime() + 5 * 60_000 });
    // Nothing more is due yet; the fallback team's floor sees it now, the first team's no longer.
    expect(await sweepPools(t.store, now)).toEqual([]);
    expect((await call(cy.cookie, 'GET', '/grabs')).json().leads.map((l: { id: number }) => l.id)).toEqual([id]);
    expect((await call(ann.cookie, 'GET', '/grabs')).json().leads).toEqual([]);

    const later = new Date(now.getTime() + 6 * 60_000);
    expect(await sweepPools(t.store, later)).toEqual([{ leadId: id, stage: 2 }]);
    expect(await lead(id)).toMatchObject({ assigned_to: '', grab_until: null, grab_stage: 2, handoffs: MAX_HANDOFFS, closed: 0 });
    const parked = await t.db.selectFrom('lead_events').select('type').where('lead_id', '=', id).execute();
    expect(parked).toEqual([{ type: 'parked' }]);
    const r = await call(cy.cookie, 'POST', `/leads/${id}/claim`);
    expect([r.statusCode, r.json().error]).toEqual([409, 'This lead waits for a manager to hand it out.']);
    // The manager hands it out as any parked lead.
    expect((await call(boss, 'POST', `/leads/${id}/handout`, {})).statusCode).toBe(200);
  });

  it("tells the pool's floor, each as he chose for a new lead, once; the fallback team's floor when it moves on", async () => {
    // Wednesday noon at the store: no quiet hours hold the pushes back.
    const noon = new Date('2026-11-25T17:00:00Z');
    await t.db.deleteFrom('notices').execute();
    await t.db.deleteFrom('push_subscriptions').execute();
    for (const p of [ann, ben, cy])
      await t.db
        .insertInto('push_subscriptions')
        .values({ user_id: p.id, endpoint: `https://push.test/${p.id}`, p256dh: 'k', auth: 'a', label: 'Phone', created_at: noon.getTime() })
        .execute();
    await t.db.updateTable('memberships').set({ on_duty: 0 }).where('user_id', '=', ben.id).execute();
    await setRouting({
      ...DEFAULT_ROUTING,
      rules: [{ name: 'New cars', when: {}, to: { team: newTeam }, grab: { after: 0, minutes: 5, then: { team: usedTeam } } }],
    });
    const id = await pooled('Gail Grab', newTeam, { minutes: 5, now: noon });
    const told = () => t.db.selectFrom('notices').select(['user_id', 'kind', 'channel']).where('lead_id', '=', id).orderBy('id').execute();
    await noticePools(t.store, noon);
    // Ben is off duty and Cy is of another team: only Ann hears of it.
    expect(await told()).toEqual([{ user_id: ann.id, kind: 'grab', channel: 'push' }]);
    await noticePools(t.store, noon);
    expect(await told()).toHaveLength(1);

    const later = new Date(noon.getTime() + 6 * 60_000);
    expect(await sweepPools(t.store, later)).toEqual([{ leadId: id, stage: 1 }]);
    await noticePools(t.store, later);
    expect(await told()).toEqual([
      { user_id: ann.id, kind: 'grab', channel: 'push' },
      { user_id: cy.id, kind: 'grab', channel: 'push' },
    ]);
  });

  it('with no fallback team, an unclaimed lead goes straight to the managers', async () => {
    const id = await pooled('No Then', null, { minutes: 1, now: new Date(Date.now() - 2 * 60_000) });
    expect(await sweepPools(t.store, new Date())).toEqual([{ leadId: id, stage: 2 }]);
    expect(await lead(id)).toMatchObject({ grab_until: null, handoffs: MAX_HANDOFFS });
  });

  it('credit-back: a manager marks an up No customer; its lead is lost, the salesman is Next Up again and under his cap; once only', async () => {
    const first = (await call(boss, 'GET', '/rotation')).json().nextUp;
    await t.db.updateTable('memberships').set({ daily_cap: 1 }).where('user_id', '=', first.id).execute();
    // The rotation's up, as the assign writes it: the lead is his, the log has the assign, the pointer stops at his place.
    const leadId = await newLead('Fake Lead', first);
    const place = await t.db.selectFrom('memberships').select('position').where('user_id', '=', first.id).executeTakeFirstOrThrow();
    await t.db.updateTable('rotation_state').set({ pointer_pos: place.position }).where('id', '=', t.store.store.id).execute();
    const up = await t.db
      .insertInto('rotation_log')
      .values({
        store_id: t.store.store.id,
        type: 'assign',
        customer: 'Fake Lead',
        target_id: first.id,
        target_name: first.name,
        reason: null,
        manager_id: null,
        manager_name: 'Rotation',
        pointer_pos_after: place.position,
        lead_id: leadId,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // At his cap he is out of line (the rule book's ELIGIBLE, with his ups today counted).
    const inLine = async () => {
      const me = (await teamStaff(t.db, t.store.store.id, sqlEnv(new Date(), DEFAULT_RULES, t.store.dbh.tz))).find((m) => m.id === first.id);
      return !!me && isEligible(me, new Date());
    };
    expect(await inLine()).toBe(false);
    const a = { json: () => ({ leadId }) };
    expect((await call(ann.cookie, 'POST', `/rotation/log/${up.id}/no-customer`)).statusCode).toBe(403);
    const r = await call(boss, 'POST', `/rotation/log/${up.id}/no-customer`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ id: Number(up.id), targetName: first.name, turnBack: true, leadClosed: true });
    expect((await call(boss, 'GET', '/rotation')).json().nextUp.id).toBe(first.id);
    expect(await inLine()).toBe(true);
    const l = await lead(a.json().leadId);
    expect(l).toMatchObject({ closed: 1, stage: 'lost', lost_reason: 'No customer' });
    const log = (await call(boss, 'GET', '/rotation')).json().log;
    expect(log.find((e: { id: number }) => e.id === Number(up.id))).toMatchObject({ noCustomer: true });

    const again = await call(boss, 'POST', `/rotation/log/${up.id}/no-customer`);
    expect([again.statusCode, again.json().error]).toEqual([409, 'This up is already marked No customer.']);
    const skip = await call(boss, 'POST', '/rotation/skip', { targetUid: first.id, reason: 'Lunch', minutes: 5 });
    expect(skip.statusCode, skip.body).toBe(200);
    const skipRow = await t.db.selectFrom('rotation_log').select('id').where('type', '=', 'skip').executeTakeFirstOrThrow();
    const bad = await call(boss, 'POST', `/rotation/log/${skipRow.id}/no-customer`);
    expect([bad.statusCode, bad.json().error]).toEqual([400, 'Only an assign can be marked No customer.']);
    expect((await call(boss, 'POST', '/rotation/log/999999/no-customer')).statusCode).toBe(404);
  });

  it.runIf(dialect === 'postgres')('ten salesmen claiming at once: exactly one gets it, logged once', async () => {
    const floor: { id: string; name: string; role: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const u = await insertUser(t.db, { email: `rush${i}.grab@dealer.test`, name: `Rush ${i}`, onDuty: true });
      floor.push({ id: u.id, name: u.name, role: u.role });
    }
    const id = await pooled('Hot Lead', null);
    const results = await Promise.allSettled(floor.map((me) => claim(t.store, me, id)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<{ assignedTo: { id: string; name: string } }>).value.assignedTo;
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect(r.reason).toMatchObject({ status: 409, message: `${winner.name} claimed it first.` });
    expect((await lead(id)).assigned_to).toBe(winner.id);
    const rows = await t.db.selectFrom('rotation_log').select('target_id').where('lead_id', '=', id).where('reason', '=', 'Claimed').execute();
    expect(rows).toEqual([{ target_id: winner.id }]);
    await t.db
      .deleteFrom('memberships')
      .where(
        'user_id',
        'in',
        floor.map((f) => f.id),
      )
      .execute();
  });
});
