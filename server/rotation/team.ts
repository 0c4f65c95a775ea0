import type { DbHandle, Db } from '../db';
import { withRotationLock } from '../db';
import { writeAudit, type AuditEntry } from '../users/audit';
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
      const everyone = await teamStaff(trx, env);
      const before = eligibleQueue(everyone, now);
      const target = before.find((m) => m.id === targetId);
      if (!target) {
        const someone = everyone.find((m) => m.id === targetId);
        throw new ApiError(400, someone ? skipRefusal(someone, now) : SKIP_WHOM, undefined, 'targetUid');
      }
      const pointer = pointerAfterSkip(before, target, state.pointer_pos);
      const until = snoozeEnd(now, minutes).getTime();
      await trx.updateTable('users').set({ snooze_until: until, updated_at: now.getTime() }).where('id', '=', targetId).execute();
      await logRotation(trx, { type: 'skip', target, reason, by, pointer, at: now.getTime() });
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
    const team = await teamStaff(trx, env);
    const plan = reorderLine(lineOf(team, state.pointer_pos, now), move.shown, move.order, move.uid);
    if ('refusal' in plan) throw new ApiError(plan.refusal.status, plan.refusal.error, plan.refusal.status === 409 ? 'line-changed' : undefined);
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
    await logRotation(trx, { type: 'reorder', target: plan.moved, reason: movedText(plan.from, plan.to), by, pointer: state.pointer_pos, at });
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
  const [team, state, top] = [await teamStaff(trx), await readState(trx), (await lastPlace(trx)) - 1];
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
