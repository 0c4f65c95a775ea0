export const USER_MSG = {
  duplicateEmail: 'Another person already has this e-mail address.',
  duplicateDeleted: 'Another person already has this e-mail address. They are soft-deleted: tick "Show deleted" and restore them.',
  lastManager: 'You are the last manager; make someone else a manager first.',
  editDeleted: 'This person is soft-deleted: restore them before editing.',
  notFound: 'User not found',
  selfDisable: 'You cannot disable your own account: you would lock yourself out. Ask another manager.',
  selfDelete: 'You cannot delete your own account: you would lock yourself out. Ask another manager.',
  selfDemote: 'You cannot take away your own manager role: you would lock yourself out. Ask another manager.',
  configured:
    'This manager is set by configuration (MANAGER_EMAILS): remove the address from that setting before changing their e-mail, disabling, deleting or demoting them.',
};

export type Lockout = 'disable' | 'delete' | 'demote' | 'email';

/**
 * Why a manager may not make this change, or null. Nobody locks himself out, and an address in
 * MANAGER_EMAILS stays a live manager with that address whatever the portal says.
 */
export function lockoutRefusal(
  target: { id: string; email: string },
  change: Lockout,
  actorId: string | null,
  managerEmails: readonly string[],
): string | null {
  if (managerEmails.includes(target.email)) return USER_MSG.configured;
  // A new address of one's own waits for its confirmation: no lock-out.
  if (target.id !== actorId || change === 'email') return null;
  return change === 'disable' ? USER_MSG.selfDisable : change === 'delete' ? USER_MSG.selfDelete : USER_MSG.selfDemote;
}

/** Who made a change: a person, or the system (id null: "command line", an integration, the rotation). */
export interface Actor {
  id: string | null;
  name: string;
}

export interface Person {
  id: string;
  email: string;
  name: string;
  /** As stored; anything but 'manager' is not a manager. */
  role: string;
  disabled: boolean;
  deletedAt: string | number | null;
}

export type Status = 'active' | 'disabled' | 'deleted';

export const statusOf = (p: Pick<Person, 'disabled' | 'deletedAt'>): Status => (p.deletedAt !== null ? 'deleted' : p.disabled ? 'disabled' : 'active');

const liveManager = (p: Pick<Person, 'role' | 'disabled' | 'deletedAt'>) => p.role === 'manager' && statusOf(p) === 'active';

/**
 * True when changing `target` to `after` would leave no live manager, i.e. it disables,
 * deletes or demotes the last one. Nobody else could then manage the team.
 */
export function leavesNoManager(people: Person[], target: Person, after: Pick<Person, 'role' | 'disabled' | 'deletedAt'>): boolean {
  if (!liveManager(target) || liveManager(after)) return false;
  return !people.some((p) => p.id !== target.id && liveManager(p));
}

/** The management list: soft-deleted people only when asked for, ordered by name then e-mail. */
export function visibleUsers<T extends Person>(people: T[], showDeleted: boolean): T[] {
  return people
    .filter((p) => showDeleted || p.deletedAt === null)
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.email.localeCompare(b.email));
}

export type Changes = Record<string, { from: unknown; to: unknown }>;

/** Which of the fields in `after` differ from `before`, from what to what. */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown>): Changes {
  const out: Changes = {};
  for (const [k, to] of Object.entries(after)) {
    const from = before ? (before[k] ?? null) : null;
    if (from !== (to ?? null)) out[k] = { from, to: to ?? null };
  }
  return out;
}

export type AuditAction = 'create' | 'update' | 'disable' | 'enable' | 'delete' | 'restore' | 'email change' | 'email undo' | 'sign out';

const ACTION: Record<string, string> = {
  create: 'Added',
  update: 'Edited',
  disable: 'Disabled',
  enable: 'Enabled',
  delete: 'Soft-deleted',
  restore: 'Restored',
  'email change': 'E-mail change asked (waits for its link to be opened)',
  'email undo': 'E-mail change taken back from the old address',
  'sign out': 'Signed out everywhere',
};
const FIELD: Record<string, string> = { email: 'Email', name: 'Name', role: 'Role', disabled: 'Disabled', deletedAt: 'Deleted' };

const show = (v: unknown) =>
  v === null || v === undefined || v === ''
    ? '—'
    : v === true
      ? 'yes'
      : v === false
        ? 'no'
        : typeof v === 'string' || typeof v === 'number'
          ? String(v)
          : JSON.stringify(v);

/** One line for the history list, e.g. "Edited: Name User → Ann; Role staff → manager". */
export function describeAudit(action: string, changes: Changes): string {
  const head = ACTION[action] ?? action;
  if (action === 'sign out') {
    const n = Number(changes.sessions?.from ?? 0);
    return `${head} (${n === 1 ? '1 device' : `${n} devices`})`;
  }
  if (action !== 'update' && action !== 'create' && action !== 'email change' && action !== 'email undo') return head;
  const parts = Object.entries(changes).map(([k, c]) =>
    action === 'create' ? `${FIELD[k] ?? k} ${show(c.to)}` : `${FIELD[k] ?? k} ${show(c.from)} → ${show(c.to)}`,
  );
  return parts.length ? `${head}: ${parts.join('; ')}` : head;
}

/**
 * How far a manager's authority over a person reaches. A group manager's covers everyone; a
 * store manager's covers the whole person (name, address, role, status, sessions) only when he
 * manages every store the person works in, else just the person's place in his own stores. No
 * one but a group manager changes a group manager.
 */
export type Authority = 'whole' | 'place' | 'none';

export function authorityOver(editor: { group: boolean; stores: readonly string[] }, person: { group: boolean; stores: readonly string[] }): Authority {
  if (editor.group) return 'whole';
  if (person.group) return 'none';
  return person.stores.every((s) => editor.stores.includes(s)) ? 'whole' : 'place';
}

export const SHARED_PERSON = 'This person also works in a store you do not manage: only a group manager can change their name, e-mail, role or status.';

/**
 * Whose link makes a new address take effect: the new address's owner when the person asks for
 * it himself or a group manager does (audited); the person, from his current address, when
 * anyone else asks, so no manager can move someone's sign-in to an address of his own.
 */
export const confirmedBy = (editor: { id: string; group: boolean }, personId: string): 'new' | 'old' =>
  editor.group || editor.id === personId ? 'new' : 'old';
