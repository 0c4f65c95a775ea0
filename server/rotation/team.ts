import type { StoreDb, Db } from '../db';
import { withRotationLock } from '../db';
import { writeAudit, type AuditEntry } from '../users/audit';
import { nextPosition, storeIdsOf } from '../users/repo';
import { ApiError, notFound } from '../http/errors';
import { eligibleQueue, lineOf, movedText, pointerAfterSkip, reorderLine, SKIP_WHOM, skipRefusal, snoozeEnd } from '../../domain/rotation';
import { DEFAULT_RULES, type Rules } from '../../domain/rules';
import { checkIn } from '../../domain/floor';
import type { Actor } from '../../domain/users';
import { loadRules } from '../rules/service';
import { readState, sqlEnv, teamStaff } from './queries';
import { logRotation } from './log';
import { once } from './replay';

/** One transaction: snooze the salesman, log the reason, move the pointer past them. Only someone in the queue can be skipped. */
export async function skip(
  h: StoreDb,
  targetId: string,
  reason: string,
  minutes: number,
  by: Actor,
  opts: { now?: Date; actionId?: string; rules?: Rules } = {},
) {
  const now = opts.now ?? new Date();
  const env = sqlEnv(now, opts.rules ?? DEFAULT_RULES);
  const { store } = h;
  return withRotationLock(h, (trx) =>
    once(trx, opts.actionId, { skip: { targetId, reason, minutes } }, async () => {
      const state = await readState(trx, store);
      const everyone = await teamStaff(trx, store, env);
      const before = eligibleQueue(everyone, now);
      const target = before.find((m) => m.id === targetId);
      if (!target) {
        const someone = everyone.find((m) => m.id === targetId);
        throw new ApiError(400, someone ? skipRefusal(someone, now) : SKIP_WHOM, undefined, 'targetUid');
      }
      const pointer = pointerAfterSkip(before, target, state.pointer_pos);
      const until = snoozeEnd(now, minutes).getTime();
      await trx.updateTable('memberships').set({ snooze_until: until }).where('store_id', '=', store).where('user_id', '=', targetId).execute();
      await logRotation(trx, { store, type: 'skip', target, reason, by, pointer, at: now.getTime() });
      await trx.updateTable('rotation_state').set({ pointer_pos: pointer, updated_by: by.id }).where('id', '=', store).execute();
      return { snoozeUntil: new Date(until).toISOString(), pointerPos: pointer };
    }),
  );
}

/**
 * A manager reorders the line (domain/rotation.ts reorderLine), read under the rotation lock with
 * the stored rules: a screen drawn before the line changed is refused, and the move is logged.
 */
export async function reorder(h: StoreDb, move: { uid: string; shown: string[]; order: string[] }, by: Actor, now = new Date()) {
  const { store } = h;
  return withRotationLock(h, async (trx) => {
    const env = sqlEnv(now, await loadRules(trx, store));
    const state = await readState(trx, store);
    const team = await teamStaff(trx, store, env);
    const plan = reorderLine(lineOf(team, state.pointer_pos, now), move.shown, move.order, move.uid);
    if ('refusal' in plan) throw new ApiError(plan.refusal.status, plan.refusal.error, plan.refusal.status === 409 ? 'line-changed' : undefined);
    const at = now.getTime();
    // Places are unique: everyone who moves first steps onto a free place below all others, then onto his new one.
    const low = await trx
      .selectFrom('memberships')
      .select((eb) => eb.fn.min('position').as('min'))
      .where('store_id', '=', store)
      .executeTakeFirst();
    const free = Math.min(0, Number(low?.min ?? 0)) - 1;
    const place = (id: string, position: number) =>
      trx.updateTable('memberships').set({ position }).where('store_id', '=', store).where('user_id', '=', id).execute();
    for (const [i, p] of plan.places.entries()) await place(p.id, free - i);
    for (const p of plan.places) await place(p.id, p.position);
    await logRotation(trx, { store, type: 'reorder', target: plan.moved, reason: movedText(plan.from, plan.to), by, pointer: state.pointer_pos, at });
    return { id: plan.moved.id, name: plan.moved.name, place: plan.to };
  });
}

/** Served in check-in order: whoever clocks in goes to the end of the line (domain/floor.ts checkIn). */
async function toEndOfLine(trx: Db, store: number, id: string) {
  const [team, state, top] = [await teamStaff(trx, store), await readState(trx, store), (await nextPosition(trx, store)) - 1];
  const r = checkIn(team, id, state.pointer_pos, top);
  for (const p of r.places)
    await trx.updateTable('memberships').set({ position: p.position }).where('store_id', '=', store).where('user_id', '=', p.id).execute();
  await trx.updateTable('rotation_state').set({ pointer_pos: r.pointer }).where('id', '=', store).execute();
}

/**
 * Sets a salesman's active / on-duty flags in a store; each real change goes to the audit log
 * with who made it. He is on the floor of one store at a time: coming on duty in one takes him
 * off duty in his others, under their locks too, so no two stores serve him at once.
 */
export async function setStatus(h: StoreDb, id: string, patch: { active?: boolean; onDuty?: boolean }, by: Actor) {
  const { store } = h;
  const elsewhere = patch.onDuty ? (await storeIdsOf(h.db, id)).filter((s) => s !== store) : [];
  return withRotationLock(
    h,
    async (db) => {
      const before = await db
        .selectFrom('users')
        .innerJoin('memberships', 'memberships.user_id', 'users.id')
        .select(['memberships.active', 'memberships.on_duty'])
        .where('users.id', '=', id)
        .where('memberships.store_id', '=', store)
        .where('role', '=', 'staff')
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!before) throw notFound('User not found');
      const set: { active?: number; on_duty?: number } = {};
      const entries: AuditEntry[] = [];
      let lineUp = false;
      if (patch.active !== undefined && Number(patch.active) !== before.active) {
        set.active = Number(patch.active);
        entries.push({ action: patch.active ? 'activated' : 'deactivated', changes: { active: { from: !patch.active, to: patch.active } } });
      }
      if (patch.onDuty !== undefined && Number(patch.onDuty) !== before.on_duty) {
        set.on_duty = Number(patch.onDuty);
        lineUp = !!patch.onDuty && (await loadRules(db, store)).checkInOrder;
        entries.push({ action: patch.onDuty ? 'on duty' : 'off duty', changes: { onDuty: { from: !patch.onDuty, to: patch.onDuty } } });
      }
      if (elsewhere.length)
        await db.updateTable('memberships').set({ on_duty: 0 }).where('user_id', '=', id).where('store_id', 'in', elsewhere).where('on_duty', '=', 1).execute();
      if (!entries.length) return;
      await db.updateTable('memberships').set(set).where('store_id', '=', store).where('user_id', '=', id).execute();
      await db.updateTable('users').set({ updated_at: Date.now() }).where('id', '=', id).execute();
      if (lineUp) await toEndOfLine(db, store, id);
      await writeAudit(db, id, by, entries);
    },
    elsewhere,
  );
}
