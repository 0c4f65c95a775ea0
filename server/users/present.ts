import type { ManagedUser } from '../../domain/contract/answers';
import { lockoutRefusal } from '../../domain/users';
import { isBlocked, toUser, type UserRow } from './repo';
import type { StorePerson } from './service';

/**
 * What a manager may do to a person now, by the lock-out rules the routes enforce (a manager by
 * MANAGER_EMAILS stays one with his address; nobody locks himself out). The last-manager guard
 * is asked when the change is made: it depends on everyone else.
 */
function personCan(me: Pick<UserRow, 'id' | 'all_stores'>, u: UserRow, managerEmails: readonly string[]) {
  const free = (change: 'disable' | 'delete' | 'demote' | 'email') => lockoutRefusal(u, change, me.id, managerEmails) === null;
  // A store manager leaves the group's managers to a group manager.
  if (u.all_stores && !me.all_stores)
    return { edit: false, changeEmail: false, changeRole: false, disable: false, enable: false, delete: false, restore: false };
  return {
    edit: u.deleted_at === null,
    changeEmail: u.deleted_at === null && free('email'),
    changeRole: u.deleted_at === null && (u.role !== 'manager' || free('demote')),
    disable: !isBlocked(u) && free('disable'),
    // Enable and restore both bring back a disabled or deleted person (the screen names one by his status).
    enable: isBlocked(u),
    delete: u.deleted_at === null && free('delete'),
    restore: isBlocked(u),
  };
}

/** A person as a manager sees him: `configured` a manager by MANAGER_EMAILS, the address waiting for its confirmation, and what he may do. */
export const presentPerson = (
  me: Pick<UserRow, 'id' | 'all_stores'>,
  u: StorePerson,
  pending: Map<string, string>,
  managerEmails: readonly string[],
): ManagedUser => ({
  ...toUser(u, u.place),
  configured: managerEmails.includes(u.email),
  groupManager: !!u.all_stores,
  stores: u.stores,
  pendingEmail: pending.get(u.id) ?? null,
  can: personCan(me, u, managerEmails),
});
