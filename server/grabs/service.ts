import type { Db } from '../db';
import { withRotationLock } from '../db';
import type { StoreCtx } from '../context';
import type { UserRow } from '../users/repo';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors';
import { loadRules } from '../rules/service';
import { sqlEnv, teamLineStaff, teamStaff, UNASSIGNED } from '../rotation/queries';
import { notify, untold, type NoticeEvent } from '../notices/service';
import { upForGrabsSql } from '../rotation/sql';
import { logEvent } from '../leads/life';
import { notifyParked } from '../leads/notify';
import { isEligible, MAX_HANDOFFS, whyNotInLine } from '../../domain/rotation';
import { followUpDue } from '../../domain/leads';
import { poolRule } from '../../domain/routing';
import {
  ALREADY_NO_CUSTOMER,
  CLAIMED,
  claimedFirstText,
  claimedText,
  GRAB_STAGES,
  MANAGERS_DO_NOT_CLAIM,
  MANAGERS_POOL,
  NO_CUSTOMER,
  NOT_IN_POOL_TEAM,
  NOT_UP_FOR_GRABS,
  notEligibleText,
  ONLY_ASSIGNS,
  type GrabLead,
} from '../../domain/grabs';

type Me = Pick<UserRow, 'id' | 'name' | 'role'>;
const MINUTE = 60_000;

/**
 * Puts a lead in a claim pool: unassigned, out of the rotation's Waiting (domain/rotation.ts
 * UP_FOR_GRABS), in `team`'s pool (null: the whole floor's) until `minutes` from now. Called in
 * the caller's rotation transaction (an assign with a rule whose grab.after is 0, the sweep after
 * N hand-ons, the pool's own fallback). The caller tells the floor (announcePool) after commit.
 */
export async function putInPool(trx: Db, leadId: number, store: number, team: number | null, minutes: number, stage: number, now: Date): Promise<void> {
  await trx
    .updateTable('leads')
    .set({
      assigned_to: UNASSIGNED,
      assigned_to_name: UNASSIGNED,
      status: 'new',
      offered_at: null,
      accept_due: null,
      accepted_at: null,
      grab_until: now.getTime() + minutes * MINUTE,
      grab_team: team,
      grab_stage: stage,
    })
    .where('id', '=', leadId)
    .where('store_id', '=', store)
    .execute();
}

/**
 * After a pool changed: every open screen of the store refetches its leads and rotation (the
 * in-page "Up for grabs" list shows the lead at once), and the floor of each pool hears of what
 * waits in it (noticePools). Fire and forget: a notice that cannot be stored is only logged.
 */
export const announcePool = (ctx: StoreCtx) => {
  ctx.bus.publish({ topic: 'leads' });
  ctx.bus.publish({ topic: 'rotation' });
  noticePools(ctx).catch((err: unknown) => ctx.log.error({ err }, 'could not tell the floor of leads up for grabs'));
};

/**
 * Every salesman of a pool's team (any of the store's for the floor's pool) who is in line now
 * hears of each lead in it, as he chose for a new lead: once per lead, pool and person.
 */
export async function noticePools(ctx: StoreCtx, now = new Date()) {
  const { db, store } = ctx.dbh;
  const pooled = await poolLeads(db, store).select(['leads.id', 'leads.grab_team', 'leads.grab_stage']).where('leads.grab_until', '>', now.getTime()).execute();
  if (!pooled.length) return;
  const rules = await loadRules(db, store);
  const inLine = (await teamStaff(db, store, sqlEnv(now, rules, ctx.dbh.tz))).filter((m) => isEligible(m, now));
  const teams = [...new Set(pooled.flatMap((l) => (l.grab_team === null ? [] : [Number(l.grab_team)])))];
  const members = teams.length ? await db.selectFrom('team_members').select(['team_id', 'user_id']).where('team_id', 'in', teams).execute() : [];
  const inPool = (team: number | null, userId: string) => team === null || members.some((m) => Number(m.team_id) === team && m.user_id === userId);
  const events: NoticeEvent[] = pooled.flatMap((l) =>
    inLine
      .filter((m) => inPool(l.grab_team === null ? null : Number(l.grab_team), m.id))
      .map((m) => ({ kind: 'grab' as const, userId: m.id, leadId: Number(l.id), key: `grab:${l.id}:${l.grab_stage}:${m.id}` })),
  );
  const fresh = await untold(db, events, ['grab']);
  if (fresh.length) await notify(ctx, fresh, now);
}

/** The store's leads up for grabs (the rule book's UP_FOR_GRABS, which reads no clock). */
const poolLeads = (db: Db, store: number) =>
  db
    .selectFrom('leads')
    .where('leads.store_id', '=', store)
    .where(upForGrabsSql({ now: 0, holdOut: false, dayStart: 0 }));

/** The store's teams `userId` stands in. */
const teamsOf = async (db: Db, store: number, userId: string) =>
  new Set(
    (
      await db
        .selectFrom('team_members')
        .innerJoin('teams', 'teams.id', 'team_members.team_id')
        .select('teams.id')
        .where('teams.store_id', '=', store)
        .where('team_members.user_id', '=', userId)
        .execute()
    ).map((t) => Number(t.id)),
  );

/** The leads in the store's claim pools, soonest to move on first; canClaim for a salesman in the pool's team (any staff for the floor's pool) and in line now. */
export async function grabList(ctx: StoreCtx, me: Me, now = new Date()): Promise<GrabLead[]> {
  const { db, store } = ctx.dbh;
  const rows = await poolLeads(db, store)
    .leftJoin('teams', 'teams.id', 'leads.grab_team')
    .select(['leads.id', 'leads.customer', 'leads.vehicle', 'leads.source', 'leads.grab_until', 'leads.grab_team', 'teams.name as team_name'])
    .orderBy('leads.grab_until')
    .orderBy('leads.id')
    .execute();
  if (!rows.length) return [];
  let mine = new Set<number>();
  let inLine = false;
  if (me.role === 'staff') {
    mine = await teamsOf(db, store, me.id);
    const rules = await loadRules(db, store);
    const m = (await teamStaff(db, store, sqlEnv(now, rules, ctx.dbh.tz))).find((s) => s.id === me.id);
    inLine = !!m && isEligible(m, now);
  }
  const present = rows.map((l) => ({
    id: Number(l.id),
    customer: l.customer,
    vehicle: l.vehicle,
    source: l.source,
    team: l.grab_team === null ? null : { id: Number(l.grab_team), name: l.team_name ?? '' },
    until: new Date(Number(l.grab_until)).toISOString(),
    canClaim: inLine && (l.grab_team === null || mine.has(Number(l.grab_team))),
  }));
  // A salesman sees the pools he may claim from; a manager sees every pool.
  return me.role === 'manager' ? present : present.filter((l) => l.team === null || mine.has(l.team.id));
}

/**
 * Whether `me` could see the lead in the pool it was claimed from (the whole floor's, or a team's
 * he stands in), and so raced for it: its holder got it by that claim (logged at the moment it
 * became his). Only then does a refusal name who has it; a guessed id hears nothing of anyone.
 */
async function sawItClaimed(trx: Db, store: number, lead: { id: number; assigned_to: string; assigned_at: number }, me: string) {
  const up = await trx
    .selectFrom('rotation_log')
    .select('team_id')
    .where('store_id', '=', store)
    .where('target_id', '=', lead.assigned_to)
    .where('lead_id', '=', Number(lead.id))
    .where('reason', '=', CLAIMED)
    .where('created_at', '=', Number(lead.assigned_at))
    .executeTakeFirst();
  if (!up) return false;
  if (up.team_id === null) return true;
  const member = await trx.selectFrom('team_members').select('user_id').where('team_id', '=', Number(up.team_id)).where('user_id', '=', me).executeTakeFirst();
  return !!member;
}

/**
 * A salesman claims a lead up for grabs: in the store's rotation lock, so of any number pressing
 * Claim at once exactly one gets it, and the others hear who did (sawItClaimed). He must be of the pool's team
 * (any salesman of the store for the floor's pool) and in line now (on duty, not snoozed, held
 * out or capped). Claiming is accepting: the lead is his, accepted, logged as an assign with the
 * reason "Claimed" (so the ledger counts it apart from rotation ups), and no one's turn moves.
 */
export async function claim(ctx: StoreCtx, me: Me, leadId: number, now = new Date()) {
  if (me.role !== 'staff') throw forbidden(MANAGERS_DO_NOT_CLAIM);
  const h = ctx.dbh;
  const rules = await loadRules(h.db, h.store);
  const env = sqlEnv(now, rules, h.tz);
  const at = now.getTime();
  const done = await withRotationLock(h, async (trx) => {
    const lead = await trx.selectFrom('leads').selectAll().where('id', '=', leadId).where('store_id', '=', h.store).executeTakeFirst();
    if (!lead) throw notFound('Lead not found');
    if (lead.assigned_to === me.id) throw new ApiError(409, 'This lead is already yours.');
    if (lead.assigned_to !== UNASSIGNED)
      throw new ApiError(409, (await sawItClaimed(trx, h.store, lead, me.id)) ? claimedFirstText(lead.assigned_to_name) : NOT_UP_FOR_GRABS);
    if (Number(lead.closed)) throw new ApiError(409, NOT_UP_FOR_GRABS);
    if (lead.grab_until === null) throw new ApiError(409, Number(lead.grab_stage) === GRAB_STAGES.managers ? MANAGERS_POOL : NOT_UP_FOR_GRABS);
    const team = lead.grab_team === null ? null : Number(lead.grab_team);
    const staff = team === null ? await teamStaff(trx, h.store, env) : await teamLineStaff(trx, h.store, team, env);
    const m = staff.find((s) => s.id === me.id);
    if (!m) throw forbidden(NOT_IN_POOL_TEAM);
    if (!isEligible(m, now)) throw forbidden(notEligibleText(whyNotInLine(m, now) ?? 'not in line'));
    await trx
      .updateTable('leads')
      .set({
        assigned_to: me.id,
        assigned_to_name: me.name,
        assigned_at: at,
        status: 'handed',
        offered_at: at,
        accepted_at: at,
        accept_due: null,
        follow_up_due: followUpDue(now, rules.followUpHours).getTime(),
        grab_until: null,
        grab_team: null,
      })
      .where('id', '=', lead.id)
      .execute();
    const state = await trx.selectFrom('rotation_state').select('pointer_pos').where('id', '=', h.store).executeTakeFirst();
    await trx
      .insertInto('rotation_log')
      .values({
        store_id: h.store,
        type: 'assign',
        customer: lead.customer,
        target_id: me.id,
        target_name: me.name,
        reason: CLAIMED,
        manager_id: me.id,
        manager_name: me.name,
        pointer_pos_after: state?.pointer_pos ?? 0,
        lead_id: Number(lead.id),
        team_id: team,
        created_at: at,
      })
      .execute();
    await logEvent(trx, Number(lead.id), 'accepted', { id: me.id, name: me.name }, at, { note: claimedText(me.name) });
    return { leadId: Number(lead.id), customer: lead.customer, assignedTo: { id: me.id, name: me.name } };
  });
  announcePool(ctx);
  return done;
}

/**
 * The sweep's turn on the claim pools: each lead whose time ran out moves on, one rotation
 * transaction each (so a claim and a move never both happen): from the first pool to its rule's
 * `then` team's pool for the same minutes (stage 1), from there (or with no `then`) to the
 * managers (stage 2): out of the pools, parked in Unassigned (handoffs MAX_HANDOFFS), and the
 * managers are told as of any parked lead. Answers the leads that moved.
 */
export async function sweepPools(ctx: StoreCtx, now = new Date()): Promise<{ leadId: number; stage: number }[]> {
  const h = ctx.dbh;
  const at = now.getTime();
  const expired = () => poolLeads(h.db, h.store).where('leads.grab_until', '<=', at);
  if (!(await expired().select('id').limit(1).executeTakeFirst())) return [];
  const rules = await loadRules(h.db, h.store);
  const teams = new Set((await h.db.selectFrom('teams').select('id').where('store_id', '=', h.store).execute()).map((t) => Number(t.id)));
  const out: { leadId: number; stage: number }[] = [];
  for (;;) {
    const moved = await withRotationLock(h, async (trx) => {
      const lead = await poolLeads(trx, h.store)
        .where('leads.grab_until', '<=', at)
        .selectAll()
        .orderBy('grab_until')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!lead) return null;
      const id = Number(lead.id);
      const team = lead.grab_team === null ? null : Number(lead.grab_team);
      const rule = Number(lead.grab_stage) === GRAB_STAGES.first ? poolRule(rules.routing, team) : undefined;
      const then = rule?.grab?.then;
      if (rule?.grab && then) {
        const next = 'team' in then && teams.has(then.team) ? then.team : null;
        await putInPool(trx, id, h.store, next, rule.grab.minutes, GRAB_STAGES.fallback, now);
        return { leadId: id, stage: GRAB_STAGES.fallback };
      }
      await trx
        .updateTable('leads')
        .set({ grab_until: null, grab_team: null, grab_stage: GRAB_STAGES.managers, handoffs: MAX_HANDOFFS })
        .where('id', '=', id)
        .execute();
      await trx
        .insertInto('lead_events')
        .values({ lead_id: id, type: 'parked', actor_id: null, actor_name: 'Rotation', channel: null, note: 'No one claimed it', created_at: at })
        .execute();
      return { leadId: id, stage: GRAB_STAGES.managers };
    });
    if (!moved) break;
    out.push(moved);
  }
  if (out.length) {
    announcePool(ctx);
    notifyParked(
      ctx,
      out.filter((m) => m.stage === GRAB_STAGES.managers).map((m) => m.leadId),
    );
  }
  return out;
}

/**
 * Credit-back: a manager marks an assign up "No customer" (a fake or duplicate lead). The up no
 * longer counts (a daily cap reads only unmarked ups), its lead, if open, is closed as lost with
 * the reason "No customer", and the salesman keeps his turn: when the up was a rotation up (no
 * reason: not an override, be-back or claim, which cost no turn) and he still stands in its line,
 * that line's pointer goes back to just before him, so he is Next Up again. Once per up.
 */
export async function markNoCustomer(ctx: StoreCtx, me: Me, logId: number, now = new Date()) {
  const h = ctx.dbh;
  const at = now.getTime();
  const done = await withRotationLock(h, async (trx) => {
    const up = await trx.selectFrom('rotation_log').selectAll().where('id', '=', logId).where('store_id', '=', h.store).executeTakeFirst();
    if (!up) throw notFound('Up not found');
    if (up.type !== 'assign') throw badRequest(ONLY_ASSIGNS);
    if (up.no_customer_at !== null) throw new ApiError(409, ALREADY_NO_CUSTOMER);
    await trx.updateTable('rotation_log').set({ no_customer_at: at, no_customer_by: me.name }).where('id', '=', up.id).execute();
    let leadClosed = false;
    if (up.lead_id !== null) {
      const lead = await trx.selectFrom('leads').select(['id', 'closed']).where('id', '=', up.lead_id).where('store_id', '=', h.store).executeTakeFirst();
      if (lead && !Number(lead.closed)) {
        await trx
          .updateTable('leads')
          .set({
            stage: 'lost',
            lost_reason: NO_CUSTOMER,
            closed: 1,
            status: 'closed',
            closed_at: at,
            closed_by_id: me.id,
            closed_by_name: me.name,
            accept_due: null,
            grab_until: null,
          })
          .where('id', '=', lead.id)
          .execute();
        await logEvent(trx, Number(lead.id), 'lost', { id: me.id, name: me.name }, at, { reason: NO_CUSTOMER });
        leadClosed = true;
      }
    }
    let turnBack = false;
    if (up.reason === null) {
      const team = up.team_id === null ? null : Number(up.team_id);
      if (team === null) {
        const place = await trx
          .selectFrom('memberships')
          .select('position')
          .where('store_id', '=', h.store)
          .where('user_id', '=', up.target_id)
          .where('active', '=', 1)
          .executeTakeFirst();
        if (place) {
          await trx
            .updateTable('rotation_state')
            .set({ pointer_pos: place.position - 1, updated_by: me.id })
            .where('id', '=', h.store)
            .execute();
          turnBack = true;
        }
      } else {
        const place = await trx
          .selectFrom('team_members')
          .select('position')
          .where('team_id', '=', team)
          .where('user_id', '=', up.target_id)
          .executeTakeFirst();
        if (place) {
          await trx
            .updateTable('teams')
            .set({ pointer_pos: place.position - 1 })
            .where('id', '=', team)
            .where('store_id', '=', h.store)
            .execute();
          turnBack = true;
        }
      }
    }
    return { id: Number(up.id), noCustomerAt: new Date(at).toISOString(), targetName: up.target_name, turnBack, leadClosed };
  });
  ctx.bus.publish({ topic: 'rotation' });
  ctx.bus.publish({ topic: 'leads' });
  return done;
}
