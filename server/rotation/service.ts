import type { RotationView } from '../../domain/contract/answers';
import type { DbHandle, Db, Dialect } from '../db';
import { withRotationLock } from '../db';
import { writeAudit, type AuditEntry } from '../users/audit';
import { HttpError, notFound } from '../http/errors';
import type { UserRow } from '../users/repo';
import type { Selectable } from 'kysely';
import type { LeadsTable } from '../db/schema';
import {
  eligibleQueue,
  lineOf,
  movedText,
  outOfLine,
  PENDING_ACCEPT,
  pickNext,
  pointerAfterSkip,
  reorderLine,
  SKIP_WHOM,
  skipRefusal,
  snoozeEnd,
  whyNotInLine,
  type Member,
} from '../../domain/rotation';
import { holds } from '../../domain/conditions';
import { followUpDue, LEAD_SOURCE } from '../../domain/leads';
import { DEFAULT_RULES, type Rules } from '../../domain/rules';
import { beBack, checkIn, override } from '../../domain/floor';
import { loadRules } from '../rules/service';
import { acceptDue, handOn, missReason, takers } from '../../domain/speed';
import { assignOnPostgres } from './assign-postgres';
import { eligibleSql, leadFacts, nextUpOrderSql, overdueSql, pastDueCountSql, pastDueSql, waitingSql, type SqlEnv } from './sql';
import { newLeadMail, type LeadMail } from '../leads/notify';
import type { Announcement } from '../events/bus';

export const toMember = (u: UserRow & { past_due?: number | string | null }): Member => ({
  id: u.id,
  name: u.name,
  role: u.role,
  position: u.position,
  active: !!u.active,
  onDuty: !!u.on_duty,
  snoozeUntil: u.snooze_until ? new Date(u.snooze_until) : null,
  disabled: !!u.disabled,
  deletedAt: u.deleted_at ? new Date(u.deleted_at) : null,
  pastDue: Number(u.past_due ?? 0),
});

/** The rule book's SQL for a moment: now and the hold-out rule (sql.ts). */
export const sqlEnv = (now: Date, rules: Pick<Rules, 'holdOut'>): SqlEnv => ({ now: now.getTime(), holdOut: rules.holdOut });

/** Staff still on the team (not disabled or deleted), in rotation order; with `env`, each with his past-due count under the hold-out rule. */
const teamStaff = (db: Db, env?: SqlEnv) =>
  db
    .selectFrom('users')
    .selectAll('users')
    .$if(!!env, (qb) => qb.select(pastDueCountSql(env!).as('past_due')))
    .where('role', '=', 'staff')
    .where('disabled', '=', 0)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();

/** The eligible (the rule book's ELIGIBLE, applied by the database), in place order, each with his past-due count. */
export const candidates = (db: Db, env: SqlEnv) =>
  db.selectFrom('users').selectAll('users').select(pastDueCountSql(env).as('past_due')).where(eligibleSql(env)).orderBy('position').orderBy('id').execute();

const readState = (db: Db) => db.selectFrom('rotation_state').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();

import type { Actor } from '../../domain/users';
export type { Actor };

/** A lead to hand out: a manager's walk-in is just a customer; an integration's has details. */
export interface NewLead {
  customer: string;
  phone?: string | null;
  email?: string | null;
  vehicle?: string | null;
  vin?: string | null;
  comments?: string | null;
  source?: string;
  /** A prospect id and who issued it: the same pair twice is one lead. */
  externalSource?: string | null;
  externalId?: string | null;
  /** Finds the lead this one repeats (inside the rotation transaction); without it the same prospect id is enough. */
  findRepeat?: (trx: Db) => Promise<{ id: number; customer: string; assigned_to: string; assigned_to_name: string } | undefined>;
  /** Intake details kept as they are: the folded customer name, a trade-in (JSON), a missing name, the document. */
  customerKey?: string | null;
  tradeIn?: string | null;
  nameMissing?: boolean;
  documentId?: number | null;
}

export interface Assigned {
  leadId: number;
  customer: string;
  /** null: kept unassigned because no one was eligible. */
  assignedTo: { id: string; name: string } | null;
  pointerPos: number;
  /** The lead already existed (same prospect id from the same source). */
  duplicate: boolean;
}

/**
 * A manager's assign or skip runs once per action id (made when the form was filled): a repeat
 * (double-click, a retry after a dropped connection, two tabs) gets the first answer and changes
 * nothing. Call inside the rotation transaction, which makes the check and the write one step.
 */
async function once<T extends object>(trx: Db, actionId: string | undefined, request: object, run: () => Promise<T>): Promise<T & { replayed?: true }> {
  if (!actionId) return run();
  const asked = JSON.stringify(request);
  const seen = await trx.selectFrom('rotation_actions').selectAll().where('id', '=', actionId).executeTakeFirst();
  if (seen) {
    if (seen.request !== asked) throw new HttpError(422, 'This action id was already used for a different request.');
    return { ...(JSON.parse(seen.result) as T), replayed: true };
  }
  const result = await run();
  await trx
    .insertInto('rotation_actions')
    .values({ id: actionId, request: asked, result: JSON.stringify(result), created_at: Date.now() })
    .execute();
  return result;
}

/**
 * Logs the assign and moves the pointer to the salesman who got the lead; a manager's override
 * logs his reason and leaves the pointer where override() puts it.
 */
async function logAssign(trx: Db, leadId: number, customer: string, next: Member, by: Actor, at: number, named?: { reason: string; pointer: number }) {
  const pointer = named ? named.pointer : next.position;
  await trx
    .insertInto('rotation_log')
    .values({
      type: 'assign',
      customer,
      target_id: next.id,
      target_name: next.name,
      reason: named?.reason ?? null,
      manager_id: by.id,
      manager_name: by.name,
      pointer_pos_after: pointer,
      lead_id: leadId,
      created_at: at,
    })
    .execute();
  await trx
    .updateTable('rotation_state')
    .set({ pointer_pos: pointer, last_assigned_to: next.id, last_assigned_at: at, updated_by: by.id })
    .where('id', '=', 1)
    .execute();
}

/** Next Up (the rule book's ELIGIBLE and NEXT_UP, applied by the database), with his address for the mail about his lead. */
const nextUp = async (trx: Db, env: SqlEnv, dialect: Dialect) => {
  const state = await readState(trx);
  const row = await trx
    .selectFrom('users')
    .selectAll('users')
    .where(eligibleSql(env))
    .orderBy(nextUpOrderSql(env, dialect, state.pointer_pos))
    .limit(1)
    .executeTakeFirst();
  return { state, next: row ? toMember(row) : null, email: row?.email ?? '' };
};

/**
 * Why an assign did nothing and asks to be called again: the rules it was given are no longer
 * the stored ones (read them again), or leads wait in Unassigned (hand them out first).
 */
export class AskAgain extends Error {
  constructor(readonly why: 'rules' | 'waiting') {
    super(`assign: ask again (${why})`);
  }
}

/** Leads waiting for someone eligible (the rule book's WAITING). */
const waiting = (db: Db, env: SqlEnv) => db.selectFrom('leads').where(waitingSql(env));

/** What an assign checks under the lock before acting (bdc_assign_next does the same on PostgreSQL). */
async function askFirst(trx: Db, env: SqlEnv, rulesText: string | undefined, waitingFirst: boolean) {
  if (rulesText === undefined && !waitingFirst) return;
  const seen = await trx
    .selectNoFrom((eb) => [
      eb.selectFrom('settings').select('value').where('key', '=', 'rules').as('rules'),
      eb.exists(waiting(trx, env).select('id')).as('waiting'),
    ])
    .executeTakeFirstOrThrow();
  if (rulesText !== undefined && (seen.rules ?? '') !== rulesText) throw new AskAgain('rules');
  if (waitingFirst && seen.waiting) throw new AskAgain('waiting');
}

/** Stores a new lead with its holder (null: it waits in Unassigned); a be-back has no Accept window. */
async function insertLead(trx: Db, l: NewLead, holder: Member | null, by: Actor, now: Date, rules: Rules, beBack = false) {
  const at = now.getTime();
  const ext = !!(l.externalSource && l.externalId);
  const due = {
    follow_up_due: followUpDue(now, rules.followUpHours).getTime(),
    accept_due: holder && !beBack ? (acceptDue(now, rules.responseWindowMinutes)?.getTime() ?? null) : null,
  };
  const row = await trx
    .insertInto('leads')
    .values({
      customer: l.customer,
      assigned_to: holder?.id ?? UNASSIGNED,
      assigned_to_name: holder?.name ?? UNASSIGNED,
      assigned_by: by.id,
      assigned_by_name: by.name,
      assigned_at: at,
      status: holder ? 'handed' : 'new',
      follow_up_due: due.follow_up_due,
      closed: 0,
      source: l.source ?? LEAD_SOURCE,
      closed_at: null,
      closed_by_id: null,
      closed_by_name: null,
      phone: l.phone || null,
      email: l.email || null,
      vehicle: l.vehicle || null,
      vin: l.vin || null,
      comments: l.comments || null,
      external_source: ext ? l.externalSource : null,
      external_id: ext ? l.externalId : null,
      customer_key: l.customerKey ?? null,
      trade_in: l.tradeIn ?? null,
      name_missing: l.nameMissing ? 1 : 0,
      document_id: l.documentId ?? null,
      offered_at: holder ? at : null,
      accept_due: due.accept_due,
      be_back: beBack ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), ...due };
}

/**
 * A be-back: the lead goes to the salesman the customer asks for (domain/floor.ts), logged as a
 * be-back; the pointer does not move, so no one loses a turn.
 */
export function assignBeBack(h: DbHandle, l: NewLead, askedFor: string, by: Actor, opts: { now?: Date; actionId?: string; rules?: Rules } = {}) {
  const now = opts.now ?? new Date();
  return withRotationLock(h, (trx) =>
    once(trx, opts.actionId, { beBack: l, askedFor }, async (): Promise<Assigned> => {
      const state = await readState(trx);
      const r = beBack((await teamStaff(trx)).map(toMember), askedFor, state.pointer_pos);
      if ('refusal' in r) throw new HttpError(409, r.refusal);
      const { id: leadId } = await insertLead(trx, l, r.to, by, now, opts.rules ?? DEFAULT_RULES, true);
      await trx
        .insertInto('rotation_log')
        .values({
          type: 'beback',
          customer: l.customer,
          target_id: r.to.id,
          target_name: r.to.name,
          reason: null,
          manager_id: by.id,
          manager_name: by.name,
          pointer_pos_after: r.pointer,
          lead_id: leadId,
          created_at: now.getTime(),
        })
        .execute();
      return { leadId, customer: l.customer, assignedTo: { id: r.to.id, name: r.to.name }, pointerPos: r.pointer, duplicate: false };
    }),
  );
}

/**
 * An assign's answer and, never part of an answer, what the salesman's mail says and whether the
 * assign already told open screens (`announce`, sent with its commit).
 */
export type Handed = Assigned & { replayed?: true; mail?: LeadMail; told?: true };

/**
 * One transaction: read the pointer and the eligible, create the lead, log it, move the pointer.
 * With `keep`, a lead no one can take is stored unassigned instead of refused; with `wait` too,
 * it is stored unassigned whoever could take it. Given `rulesText` (the rules' stored text) or
 * `waitingFirst`, it first checks under the lock and throws AskAgain when the rules changed or
 * leads wait.
 */
export async function assignNext(
  h: DbHandle,
  lead: string | NewLead,
  by: Actor,
  opts: {
    now?: Date;
    keep?: boolean;
    actionId?: string;
    stepwise?: boolean;
    rules?: Rules;
    rulesText?: string;
    waitingFirst?: boolean;
    wait?: boolean;
    announce?: Announcement | null;
  } = {},
): Promise<Handed> {
  const l: NewLead = typeof lead === 'string' ? { customer: lead } : lead;
  const now = opts.now ?? new Date();
  const rules = opts.rules ?? DEFAULT_RULES;
  // PostgreSQL: the same steps in one round trip (assign-postgres.ts); `stepwise` keeps the
  // statement-by-statement transaction below (the benchmark's baseline).
  // Leads with a prospect id or intake details (the ADF repeat rule, trade-ins, documents) take the
  // stepwise path; the one-call function covers the plain lead a manager assigns.
  const plain = !l.externalId && !l.findRepeat && !l.tradeIn && !l.nameMissing && !l.documentId && !l.customerKey;
  if (h.dialect === 'postgres' && plain && !opts.stepwise && !opts.wait) {
    const r = await assignOnPostgres(h, l, by, { ...opts, now, rules });
    if ('askAgain' in r) throw new AskAgain(r.askAgain);
    return r;
  }
  const ext = !!(l.externalSource && l.externalId);
  let mail: LeadMail | undefined;
  const env = sqlEnv(now, rules);
  const answer = await withRotationLock(h, async (trx) => {
    await askFirst(trx, env, opts.rulesText, !!opts.waitingFirst);
    return once(trx, opts.actionId, { assign: l }, async (): Promise<Assigned> => {
      if (ext) {
        const seen = l.findRepeat
          ? await l.findRepeat(trx)
          : await trx
              .selectFrom('leads')
              .selectAll()
              .where('external_source', '=', l.externalSource!)
              .where('external_id', '=', l.externalId!)
              .executeTakeFirst();
        if (seen) {
          const to = seen.assigned_to ? { id: seen.assigned_to, name: seen.assigned_to_name } : null;
          return { leadId: Number(seen.id), customer: seen.customer, assignedTo: to, pointerPos: (await readState(trx)).pointer_pos, duplicate: true };
        }
      }
      // `wait`: the floor is closed, so the lead waits in Unassigned for the morning.
      const { state, next, email } = opts.wait ? { state: await readState(trx), next: null, email: '' } : await nextUp(trx, env, h.dialect);
      if (!next && !opts.keep) throw new HttpError(409, 'No eligible associates right now.');
      const at = now.getTime();
      const stored = await insertLead(trx, l, next, by, now, rules);
      const leadId = stored.id;
      if (!next) return { leadId, customer: l.customer, assignedTo: null, pointerPos: state.pointer_pos, duplicate: false };
      await logAssign(trx, leadId, l.customer, next, by, at);
      mail = newLeadMail(leadId, l, { name: next.name, email }, stored.follow_up_due, stored.accept_due);
      return { leadId, customer: l.customer, assignedTo: { id: next.id, name: next.name }, pointerPos: next.position, duplicate: false };
    });
  });
  return mail ? { ...answer, mail } : answer;
}

/** assigned_to of a lead that is waiting for someone eligible. */
export const UNASSIGNED = '';

/** Who let each of these leads pass (the sweep handed it on from them), by lead. */
async function passersOf(db: Db, leadIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!leadIds.length) return out;
  const rows = await db.selectFrom('lead_events').select(['lead_id', 'actor_id']).where('lead_id', 'in', leadIds).where('type', '=', 'handed_on').execute();
  for (const r of rows) if (r.actor_id) out.set(Number(r.lead_id), [...(out.get(Number(r.lead_id)) ?? []), r.actor_id]);
  return out;
}

/** How many waiting leads one hand-out looks at for one someone eligible may take. */
const WAITING_LOOK = 50;

/**
 * The oldest waiting lead someone eligible may take, and who: the first in serving order who did
 * not let that lead pass before (so a lead never goes back to someone who let it pass; those
 * passed over lose this turn, as a skip would). Null when nothing waits or no one may take it.
 */
async function nextWaiting(trx: Db, now: Date, env: SqlEnv, lock: boolean) {
  const leads = await waiting(trx, env)
    .selectAll()
    .orderBy('assigned_at')
    .orderBy('id')
    .limit(WAITING_LOOK)
    .$if(lock, (qb) => qb.forUpdate())
    .execute();
  if (!leads.length) return null;
  const state = await readState(trx);
  const queue = eligibleQueue((await candidates(trx, env)).map(toMember), now);
  if (!queue.length) return null;
  const passed = await passersOf(
    trx,
    leads.map((l) => Number(l.id)),
  );
  for (const lead of leads) {
    const to = pickNext(takers(queue, passed.get(Number(lead.id)) ?? []), state.pointer_pos);
    if (to) return { lead, to };
  }
  return null;
}

/** Gives a lead that waits in Unassigned to Next Up (or, `named`, to whom a manager named) and starts its Accept window. */
async function give(
  trx: Db,
  lead: Selectable<LeadsTable>,
  next: Member,
  by: Actor,
  now: Date,
  rules: Rules,
  named?: { reason: string; pointer: number },
): Promise<Assigned> {
  const at = now.getTime();
  await trx
    .updateTable('leads')
    .set({
      assigned_to: next.id,
      assigned_to_name: next.name,
      assigned_at: at,
      follow_up_due: followUpDue(now, rules.followUpHours).getTime(),
      status: 'handed',
      offered_at: at,
      accept_due: acceptDue(now, rules.responseWindowMinutes)?.getTime() ?? null,
      accepted_at: null,
    })
    .where('id', '=', lead.id)
    .execute();
  const leadId = Number(lead.id);
  await logAssign(trx, leadId, lead.customer, next, by, at, named);
  return { leadId, customer: lead.customer, assignedTo: { id: next.id, name: next.name }, pointerPos: named ? named.pointer : next.position, duplicate: false };
}

/** Hands the waiting leads out, oldest first, one rotation transaction each, until none is left that someone eligible may take. The lead keeps whoever sent it as its assigner. */
export async function handOutWaiting(h: DbHandle, now = new Date(), rules = DEFAULT_RULES): Promise<Assigned[]> {
  const out: Assigned[] = [];
  // Nearly always nothing waits: look without the lock first so assigns do not queue twice.
  const env = sqlEnv(now, rules);
  if (!(await waiting(h.db, env).select('id').limit(1).executeTakeFirst())) return out;
  for (;;) {
    const done = await withRotationLock(h, async (trx): Promise<Assigned | null> => {
      const found = await nextWaiting(trx, now, env, h.dialect === 'postgres');
      if (!found) return null;
      const { lead, to } = found;
      return give(trx, lead, to, { id: lead.assigned_by, name: lead.assigned_by_name }, now, rules);
    });
    if (!done) return out;
    out.push(done);
  }
}

/**
 * A manager hands one lead that waits in Unassigned (parked ones too) out to Next Up, or to a
 * salesman he names with his reason (an override, domain/floor.ts override); a lead waiting for
 * its salesman's Accept may be handed to someone he names too.
 */
export function handOutLead(h: DbHandle, leadId: number, by: Actor, opts: { now?: Date; rules?: Rules; to?: string; reason?: string } = {}): Promise<Assigned> {
  const { now = new Date(), rules = DEFAULT_RULES, to } = opts;
  const env = sqlEnv(now, rules);
  return withRotationLock(h, async (trx) => {
    const lead = await trx
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', leadId)
      .$if(h.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!lead) throw notFound('Lead not found');
    if (lead.closed) throw new HttpError(409, 'This lead is closed. Reopen it first.');
    const movable = lead.assigned_to === UNASSIGNED || (!!to && holds(PENDING_ACCEPT, leadFacts(lead), now) && to !== lead.assigned_to);
    if (!movable) throw new HttpError(409, `This lead is already with ${lead.assigned_to_name}.`);
    if (!to) {
      const { next } = await nextUp(trx, env, h.dialect);
      if (!next) throw new HttpError(409, 'No eligible associates right now.');
      return give(trx, lead, next, by, now, rules);
    }
    const named = await trx.selectFrom('users').selectAll('users').select(pastDueCountSql(env).as('past_due')).where('id', '=', to).executeTakeFirst();
    const state = await readState(trx);
    const r = override(named && toMember(named), eligibleQueue((await candidates(trx, env)).map(toMember), now), state.pointer_pos);
    if ('refusal' in r) throw new HttpError(409, r.refusal, undefined, 'to');
    return give(trx, lead, r.to, by, now, rules, { reason: opts.reason ?? '', pointer: r.pointer });
  });
}

/** What the sweep did with one overdue lead. */
export interface HandedOn {
  leadId: number;
  customer: string;
  missed: { id: string; name: string };
  /** The salesman who has it now; null when it waits in Unassigned. */
  to: { id: string; name: string } | null;
  parked: boolean;
}

const ROTATION: Actor = { id: null, name: 'Rotation' };

/**
 * The oldest lead whose Accept window has passed (the partial index on accept_due finds it).
 * With `lock` (PostgreSQL, inside the transaction) the row stays locked until the hand-on
 * commits: an Accept arriving meanwhile waits and then finds the lead gone, and one that
 * committed first makes this read find the lead accepted.
 */
export const firstOverdue = (db: Db, env: SqlEnv, lock = false) =>
  db
    .selectFrom('leads')
    .selectAll()
    .where(overdueSql(env))
    .orderBy('accept_due')
    .orderBy('id')
    .limit(1)
    .$if(lock, (qb) => qb.forUpdate())
    .executeTakeFirst();

/**
 * Takes back every lead not accepted in time, one rotation transaction each: the salesman who
 * missed it is skipped and snoozed with the reason, and the lead goes to the next eligible
 * salesman as his turn (domain/speed.ts handOn), or waits in Unassigned. Each lead is acted on
 * once, by whichever app server takes the rotation lock first: the next one finds it done.
 */
export async function handOnOverdue(h: DbHandle, now = new Date(), rules = DEFAULT_RULES): Promise<HandedOn[]> {
  const out: HandedOn[] = [];
  const env = sqlEnv(now, rules);
  if (!(await firstOverdue(h.db, env))) return out;
  for (;;) {
    const done = await withRotationLock(h, async (trx): Promise<HandedOn | null> => {
      const lead = await firstOverdue(trx, env, h.dialect === 'postgres');
      if (!lead) return null;
      const at = now.getTime();
      const state = await readState(trx);
      const members = (await candidates(trx, env)).map(toMember);
      const missed = { id: lead.assigned_to, name: lead.assigned_to_name };
      const given = Math.round((Number(lead.accept_due) - Number(lead.offered_at ?? lead.assigned_at)) / 60_000);
      const reason = missReason(given);
      const passed = (await passersOf(trx, [Number(lead.id)])).get(Number(lead.id)) ?? [];
      const step = handOn(members, missed.id, state.pointer_pos, passed, now);
      const snooze = snoozeEnd(now, rules.skipSnoozeMinutes).getTime();
      await trx
        .updateTable('users')
        .set({ snooze_until: snooze, updated_at: at })
        .where('id', '=', missed.id)
        .where((eb) => eb.or([eb('snooze_until', 'is', null), eb('snooze_until', '<', snooze)]))
        .execute();
      await trx
        .insertInto('rotation_log')
        .values({
          type: 'skip',
          customer: lead.customer,
          target_id: missed.id,
          target_name: missed.name,
          reason,
          manager_id: null,
          manager_name: ROTATION.name,
          pointer_pos_after: step.pointer,
          lead_id: Number(lead.id),
          created_at: at,
        })
        .execute();
      await trx.updateTable('rotation_state').set({ pointer_pos: step.pointer, updated_by: null }).where('id', '=', 1).execute();
      await trx
        .insertInto('lead_events')
        .values({ lead_id: Number(lead.id), type: 'handed_on', actor_id: missed.id, actor_name: missed.name, channel: null, note: reason, created_at: at })
        .execute();
      await trx.updateTable('leads').set({ handoffs: step.handoffs }).where('id', '=', lead.id).execute();
      const result = { leadId: Number(lead.id), customer: lead.customer, missed, parked: step.kind === 'park' };
      if (step.kind === 'next') {
        await give(trx, lead, step.to, ROTATION, now, rules);
        return { ...result, to: { id: step.to.id, name: step.to.name } };
      }
      await trx
        .updateTable('leads')
        .set({ assigned_to: UNASSIGNED, assigned_to_name: UNASSIGNED, status: 'new', offered_at: null, accept_due: null })
        .where('id', '=', lead.id)
        .execute();
      if (step.kind === 'park') {
        await trx
          .insertInto('lead_events')
          .values({ lead_id: Number(lead.id), type: 'parked', actor_id: null, actor_name: ROTATION.name, channel: null, note: null, created_at: at })
          .execute();
      }
      return { ...result, to: null };
    });
    if (!done) return out;
    out.push(done);
  }
}

/** One transaction: snooze the salesman, log the reason, move the pointer past them. Only someone in the queue can be skipped. */
export async function skip(
  h: DbHandle,
  targetId: string,
  reason: string,
  minutes: number,
  by: Actor,
  opts: { now?: Date; actionId?: string; rules?: Rules } = {},
) {
  const now = opts.now ?? new Date();
  const env = sqlEnv(now, opts.rules ?? DEFAULT_RULES);
  return withRotationLock(h, (trx) =>
    once(trx, opts.actionId, { skip: { targetId, reason, minutes } }, async () => {
      const state = await readState(trx);
      const everyone = (await teamStaff(trx, env)).map(toMember);
      const before = eligibleQueue(everyone, now);
      const target = before.find((m) => m.id === targetId);
      if (!target) {
        const someone = everyone.find((m) => m.id === targetId);
        throw new HttpError(400, someone ? skipRefusal(someone, now) : SKIP_WHOM, undefined, 'targetUid');
      }
      const pointer = pointerAfterSkip(before, target, state.pointer_pos);
      const until = snoozeEnd(now, minutes).getTime();
      await trx.updateTable('users').set({ snooze_until: until, updated_at: now.getTime() }).where('id', '=', targetId).execute();
      await trx
        .insertInto('rotation_log')
        .values({
          type: 'skip',
          customer: null,
          target_id: target.id,
          target_name: target.name,
          reason,
          manager_id: by.id,
          manager_name: by.name,
          pointer_pos_after: pointer,
          lead_id: null,
          created_at: now.getTime(),
        })
        .execute();
      await trx.updateTable('rotation_state').set({ pointer_pos: pointer, updated_by: by.id }).where('id', '=', 1).execute();
      return { snoozeUntil: new Date(until).toISOString(), pointerPos: pointer };
    }),
  );
}

/**
 * A manager reorders the line (domain/rotation.ts reorderLine), read under the rotation lock with
 * the stored rules: a screen drawn before the line changed is refused, and the move is logged.
 */
export async function reorder(h: DbHandle, move: { uid: string; shown: string[]; order: string[] }, by: Actor, now = new Date()) {
  return withRotationLock(h, async (trx) => {
    const env = sqlEnv(now, await loadRules(trx));
    const state = await readState(trx);
    const team = (await teamStaff(trx, env)).map(toMember);
    const plan = reorderLine(lineOf(team, state.pointer_pos, now), move.shown, move.order, move.uid);
    if ('refusal' in plan) throw new HttpError(plan.refusal.status, plan.refusal.error, plan.refusal.status === 409 ? 'line-changed' : undefined);
    const at = now.getTime();
    // Places are unique: everyone who moves first steps onto a free place below all others, then onto his new one.
    const low = await trx
      .selectFrom('users')
      .select((eb) => eb.fn.min('position').as('min'))
      .executeTakeFirst();
    const free = Math.min(0, Number(low?.min ?? 0)) - 1;
    for (const [i, p] of plan.places.entries())
      await trx
        .updateTable('users')
        .set({ position: free - i })
        .where('id', '=', p.id)
        .execute();
    for (const p of plan.places) await trx.updateTable('users').set({ position: p.position, updated_at: at }).where('id', '=', p.id).execute();
    await trx
      .insertInto('rotation_log')
      .values({
        type: 'reorder',
        customer: null,
        target_id: plan.moved.id,
        target_name: plan.moved.name,
        reason: movedText(plan.from, plan.to),
        manager_id: by.id,
        manager_name: by.name,
        pointer_pos_after: state.pointer_pos,
        lead_id: null,
        created_at: at,
      })
      .execute();
    return { id: plan.moved.id, name: plan.moved.name, place: plan.to };
  });
}

/** The place after everyone's: the end of the line. */
const lastPlace = async (db: Db) => {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('position').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
};

/** Served in check-in order: whoever clocks in goes to the end of the line (domain/floor.ts checkIn). */
async function toEndOfLine(trx: Db, id: string) {
  const [team, state, top] = [(await teamStaff(trx)).map(toMember), await readState(trx), (await lastPlace(trx)) - 1];
  const r = checkIn(team, id, state.pointer_pos, top);
  for (const p of r.places) await trx.updateTable('users').set({ position: p.position }).where('id', '=', p.id).execute();
  await trx.updateTable('rotation_state').set({ pointer_pos: r.pointer }).where('id', '=', 1).execute();
}

/** Sets a salesman's active / on-duty flags; each real change goes to the audit log with who made it. */
export function setStatus(h: DbHandle, id: string, patch: { active?: boolean; onDuty?: boolean }, by: Actor) {
  return withRotationLock(h, async (db) => {
    const before = await db.selectFrom('users').selectAll().where('id', '=', id).where('role', '=', 'staff').where('deleted_at', 'is', null).executeTakeFirst();
    if (!before) throw notFound('User not found');
    const at = Date.now();
    const set: { active?: number; on_duty?: number; updated_at: number } = { updated_at: at };
    const entries: AuditEntry[] = [];
    let lineUp = false;
    if (patch.active !== undefined && Number(patch.active) !== before.active) {
      set.active = Number(patch.active);
      entries.push({ action: patch.active ? 'activated' : 'deactivated', changes: { active: { from: !patch.active, to: patch.active } } });
    }
    if (patch.onDuty !== undefined && Number(patch.onDuty) !== before.on_duty) {
      set.on_duty = Number(patch.onDuty);
      lineUp = !!patch.onDuty && (await loadRules(db)).checkInOrder;
      entries.push({ action: patch.onDuty ? 'on duty' : 'off duty', changes: { onDuty: { from: !patch.onDuty, to: patch.onDuty } } });
    }
    if (!entries.length) return;
    await db.updateTable('users').set(set).where('id', '=', id).execute();
    if (lineUp) await toEndOfLine(db, id);
    await writeAudit(db, id, by, entries);
  });
}

/** How many leads waiting for an Accept the routing screen lists at most. */
const PENDING_LOOK = 100;

/**
 * What the overview and routing screens show: the queue from Next Up on, the team (the line,
 * then those not in line), the leads waiting for an Accept, the recent log. This is everything,
 * as a manager sees it; presentRotation (present.ts) shapes it for each reader.
 */
export async function rotationView(db: Db, logSize: number, now = new Date()): Promise<RotationView> {
  const [state, team, log, rules, pending] = await Promise.all([
    readState(db),
    teamStaff(db),
    db.selectFrom('rotation_log').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(logSize).execute(),
    loadRules(db),
    // Only leads on the clock have an accept_due (an Accept, a close or a hand-on clears it): the
    // partial index finds them, and the rule book says which of them wait (a condition on
    // `closed` here would lead SQLite to walk every open lead instead).
    db
      .selectFrom('leads')
      .selectAll()
      .where('id', 'in', (eb) =>
        eb.selectFrom('leads as due').select('due.id').where('due.accept_due', 'is not', null).orderBy('due.accept_due').orderBy('due.id').limit(PENDING_LOOK),
      )
      .execute(),
  ]);
  // The hold-out rule: who has which past-due follow-ups (none are listed while it is off).
  const pastDue = new Map<string, { id: number; customer: string }[]>();
  if (rules.holdOut) {
    const rows = await db
      .selectFrom('leads')
      .select(['id', 'customer', 'assigned_to'])
      .where(pastDueSql(sqlEnv(now, rules)))
      .orderBy('follow_up_due')
      .execute();
    for (const r of rows) pastDue.set(r.assigned_to, [...(pastDue.get(r.assigned_to) ?? []), { id: Number(r.id), customer: r.customer }]);
  }
  const members = team.map((u) => ({ ...toMember(u), pastDue: pastDue.get(u.id)?.length ?? 0 }));
  const queue = lineOf(members, state.pointer_pos, now);
  const snoozes = members.map((m) => m.snoozeUntil?.getTime() ?? 0).filter((t) => t > now.getTime());
  // One reading of a place in line everywhere: counted from Next Up (#1), as the overview shows it.
  const place = new Map(queue.map((m, i) => [m.id, i + 1]));
  return {
    pointerPos: state.pointer_pos,
    nextUp: queue[0] ? { id: queue[0].id, name: queue[0].name } : null,
    queue: queue.map((m, i) => ({ id: m.id, name: m.name, place: i + 1, active: m.active, onDuty: m.onDuty })),
    team: [...queue, ...outOfLine(members, state.pointer_pos, now)].map((m) => ({
      id: m.id,
      name: m.name,
      active: m.active,
      onDuty: m.onDuty,
      snoozeUntil: m.snoozeUntil && m.snoozeUntil > now ? m.snoozeUntil.toISOString() : null,
      eligible: place.has(m.id),
      place: place.get(m.id) ?? null,
      notInLine: whyNotInLine(m, now),
      pastDueCount: m.pastDue ?? 0,
      pastDue: pastDue.get(m.id) ?? [],
    })),
    pending: pending
      .filter((l) => holds(PENDING_ACCEPT, leadFacts(l), now))
      .sort((a, b) => Number(a.accept_due) - Number(b.accept_due) || Number(a.id) - Number(b.id))
      .map((l) => ({
        leadId: Number(l.id),
        customer: l.customer,
        salesman: { id: l.assigned_to, name: l.assigned_to_name },
        acceptDue: new Date(Number(l.accept_due)).toISOString(),
      })),
    log: log.map((e) => ({
      id: Number(e.id),
      type: e.type,
      customer: e.customer,
      targetId: e.target_id,
      targetName: e.target_name,
      reason: e.reason,
      managerName: e.manager_name,
      pointerPosAfter: e.pointer_pos_after,
      createdAt: new Date(e.created_at).toISOString(),
    })),
    /** When a snooze ends and the queue changes by itself; screens refresh then. */
    nextChangeAt: snoozes.length ? new Date(Math.min(...snoozes)).toISOString() : null,
  };
}
