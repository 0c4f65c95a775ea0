import { ApiError } from '../http/errors';
import { leavesNoManager, lockoutRefusal, USER_MSG, type Actor, type Lockout, type Person } from '../../domain/users';
import type { UserRow } from './repo';

const person = (u: UserRow): Person => ({ id: u.id, email: u.email, name: u.name, role: u.role, disabled: !!u.disabled, deletedAt: u.deleted_at });

/** Refuses a change that would lock the actor out, or touch a manager set by configuration. */
export function checkLockout(target: UserRow, change: Lockout, by: Actor, managerEmails: readonly string[]): void {
  const why = lockoutRefusal(target, change, by.id, managerEmails);
  if (why) throw new ApiError(409, why);
}

/** Refuses a change that would leave the portal without a live manager; `managers` are the manager rows as stored. */
export function checkKeepsAManager(managers: UserRow[], before: UserRow, after: Pick<UserRow, 'role' | 'disabled' | 'deleted_at'>): void {
  if (leavesNoManager(managers.map(person), person(before), { role: after.role, disabled: !!after.disabled, deletedAt: after.deleted_at })) {
    throw new ApiError(409, USER_MSG.lastManager);
  }
}
