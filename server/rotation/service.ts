import type { DbHandle, Db } from '../db';
import { withRotationLock } from '../db';
import { HttpError, notFound } from '../http/errors';
import type { UserRow } from '../users/repo';
import { eligibleQueue, followUpDue, LEAD_SOURCE, pickNext, pointerAfterSkip, servingOrder, snoozeEnd, swapTarget, type Member } from '../../domain/rotation';

export const toMember = (u: UserRow): Member => ({
  id: u.id,
  name: u.name,
  role: u.role,
  position: u.position,
  active: !!u.active,
  onDuty: !!u.on_duty,
  snoozeUntil: u.snooze_until ? new Date(u.snooze_until) : null,
  disabled: !!u.disabled,
  deletedAt: u.deleted_at ? new Date(u.deleted_at) : null,
});

/** Staff still on the team (not disabled or deleted), in rotation order. */
export const teamStaff = (db: Db) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('role', '=', 'staff')
    .where('disabled', '=', 0)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();

const candidates = (db: Db) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('role', '=', 'staff')
    .where('active', '=', 1)
    .where('on_duty', '=', 1)
    .where('disabled', '=', 0)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();

const readState = (db: Db) => db.selectFrom('rotation_state').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();

export interface Actor {
  id: string | null;
  name: string;
}

/** One transaction: read the pointer and the eligible, create the lead, log it, move the pointer. */
export async function assignNext(h: DbHandle, customer: string, by: Actor, now = new Date()) {
  return withRotationLock(h, async (trx) => {
    const state = await readState(trx);
    const eligible = eligibleQueue((await candidates(trx)).map(toMember), now);
    const next = pickNext(eligible, state.pointer_pos);
    if (!next) throw new HttpError(409, 'No eligible associates right now.');
    const at = now.getTime();
    const lead = await trx
      .insertInto('leads')
      .values({
        customer,
        assigned_to: next.id,
        assigned_to_name: next.name,
        assigned_by: by.id,
        assigned_by_name: by.name,
        assigned_at: at,
        status: 'handed',
        follow_up_due: followUpDue(now).getTime(),
        closed: 0,
        source: LEAD_SOURCE,
        closed_at: null,
        closed_by_id: null,
        closed_by_name: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('rotation_log')
      .values({
        type: 'assign',
        customer,
        target_id: next.id,
        target_name: next.name,
        reason: null,
        manager_id: by.id,
        manager_name: by.name,
        pointer_pos_after: next.position,
        lead_id: Number(lead.id),
        created_at: at,
      })
      .execute();
    await trx
      .updateTable('rotation_state')
      .set({ pointer_pos: next.position, last_assigned_to: next.id, last_assigned_at: at, updated_by: by.id })
      .where('id', '=', 1)
      .execute();
    return { leadId: Number(lead.id), assignedTo: { id: next.id, name: next.name }, pointerPos: next.position };
  });
}

/** One transaction: snooze the salesman, log the reason, move the pointer past them. */
export async function skip(h: DbHandle, targetId: string, reason: string, minutes: number, by: Actor, now = new Date()) {
  return withRotationLock(h, async (trx) => {
    const target = await trx.selectFrom('users').selectAll().where('id', '=', targetId).executeTakeFirst();
    if (!target || target.deleted_at !== null) throw notFound('User not found');
    const state = await readState(trx);
    const before = eligibleQueue((await candidates(trx)).map(toMember), now);
    const skipped = before.find((m) => m.id === targetId);
    const pointer = skipped ? pointerAfterSkip(before, skipped, state.pointer_pos) : state.pointer_pos;
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
  });
}

/** Swaps a salesman with the neighbour above or below in the rotation order. */
export async function reorder(h: DbHandle, id: string, dir: 'up' | 'down') {
  return withRotationLock(h, async (trx) => {
    const team = (await teamStaff(trx)).map(toMember);
    if (!team.some((m) => m.id === id)) throw notFound('User not found');
    const other = swapTarget(team, id, dir);
    if (!other) throw new HttpError(409, dir === 'up' ? 'Already first in the rotation.' : 'Already last in the rotation.');
    const me = team.find((m) => m.id === id)!;
    const now = Date.now();
    await trx.updateTable('users').set({ position: other.position, updated_at: now }).where('id', '=', me.id).execute();
    await trx.updateTable('users').set({ position: me.position, updated_at: now }).where('id', '=', other.id).execute();
  });
}

export async function setStatus(db: Db, id: string, patch: { active?: boolean; onDuty?: boolean }) {
  const set: { active?: number; on_duty?: number; updated_at: number } = { updated_at: Date.now() };
  if (patch.active !== undefined) set.active = patch.active ? 1 : 0;
  if (patch.onDuty !== undefined) set.on_duty = patch.onDuty ? 1 : 0;
  const r = await db.updateTable('users').set(set).where('id', '=', id).where('role', '=', 'staff').where('deleted_at', 'is', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw notFound('User not found');
}

/** What the overview and routing screens show: the queue from Next Up on, the team, the recent log. */
export async function rotationView(db: Db, logSize: number, now = new Date()) {
  const [state, team, log] = await Promise.all([
    readState(db),
    teamStaff(db),
    db.selectFrom('rotation_log').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(logSize).execute(),
  ]);
  const members = team.map(toMember);
  const queue = servingOrder(eligibleQueue(members, now), state.pointer_pos);
  const snoozes = members.map((m) => m.snoozeUntil?.getTime() ?? 0).filter((t) => t > now.getTime());
  return {
    pointerPos: state.pointer_pos,
    nextUp: queue[0] ? { id: queue[0].id, name: queue[0].name } : null,
    queue: queue.map((m, i) => ({ id: m.id, name: m.name, place: i + 1, position: m.position, active: m.active, onDuty: m.onDuty })),
    team: members.map((m) => ({
      id: m.id,
      name: m.name,
      position: m.position,
      active: m.active,
      onDuty: m.onDuty,
      snoozeUntil: m.snoozeUntil && m.snoozeUntil > now ? m.snoozeUntil.toISOString() : null,
      eligible: queue.some((q) => q.id === m.id),
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
export type RotationView = Awaited<ReturnType<typeof rotationView>>;
