import type { ManagedUser } from '../../domain/contract/answers';
import { confirmedBy, lockoutRefusal } from '../../domain/users';
import { isBlocked, toUser } from './repo';
import type { StorePerson } from './service';
import { authority, type Reach } from './authority';

const NOTHING = {
  edit: false,
  changeName: false,
  changeEmail: false,
  changeRole: false,
  disable: false,
  enable: false,
  delete: false,
  restore: false,
  signOut: false,
};

/**
 * What a manager may do to a person now, by the rules the routes enforce: his authority (a
 * shared person's name, address, role and status are a group manager's to change), and the
 * lock-out rules (a manager by MANAGER_EMAILS stays one with his address; nobody locks himself
 * out). The last-manager guard is asked when the change is made: it depends on everyone else.
 */
function personCan(reach: Reach, u: StorePerson, managerEmails: readonly string[]) {
  const free = (change: 'disable' | 'delete' | 'demote' | 'email') => lockoutRefusal(u, change, reach.me.id, managerEmails) === null;
  const a = authority(reach, u);
  if (a === 'none') return NOTHING;
  const live = u.deleted_at === null;
  if (a === 'place') return { ...NOTHING, edit: live };
  return {
    edit: live,
    changeName: live,
    changeEmail: live && free('email'),
    changeRole: live && (u.role !== 'manager' || free('demote')),
    disable: !isBlocked(u) && free('disable'),
    // Enable and restore both bring back a disabled or deleted person (the screen names one by his status).
    enable: isBlocked(u),
    delete: live && free('delete'),
    restore: isBlocked(u),
    signOut: true,
  };
}

/**
 * A person as a manager sees him: `configured` a manager by MANAGER_EMAILS, the address waiting
 * for its link and where that link went, whose link a new address would need, and what he may do.
 */
export function presentPerson(
  reach: Reach,
  u: StorePerson,
  pending: Map<string, { email: string; kind: 'new' | 'old' }>,
  managerEmails: readonly string[],
): ManagedUser {
  const waiting = pending.get(u.id);
  return {
    ...toUser(u, u.place),
    configured: managerEmails.includes(u.email),
    groupManager: !!u.all_stores,
    stores: u.stores,
    pendingEmail: waiting?.email ?? null,
    pendingLinkTo: waiting ? (waiting.kind === 'new' ? waiting.email : u.email) : null,
    emailConfirmedBy: confirmedBy({ id: reach.me.id, group: reach.group }, u.id),
    can: personCan(reach, u, managerEmails),
  };
}
