import type { Db, DbHandle } from '../db';
import { withRotationLock } from '../db';
import { ApiError, notFound } from '../http/errors';
import { writeAudit } from './audit';
import { findUser, findUserByEmail, insertUser, isBlocked, nextPosition, type UserRow } from './repo';
import { diff, USER_MSG, type AuditAction } from '../../domain/users';
import { checkKeepsAManager, checkLockout } from './policy';
import type { Role } from '../../domain/roles';
import { fieldChanges } from '../../domain/contract/answers';
import { isRecord } from '../../domain/guards';

import type { Actor } from '../../domain/users';
export type { Actor };

/** The fields the audit log follows, as the API names them. */
const audited = (u: Pick<UserRow, 'email' | 'name' | 'role' | 'disabled' | 'deleted_at'>) => ({
  email: u.email,
  name: u.name,
  role: u.role,
  disabled: !!u.disabled,
  deletedAt: u.deleted_at ? new Date(u.deleted_at).toISOString() : null,
});

const isUniqueViolation = (err: unknown) => isRecord(err) && (err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE');

async function audit(db: Db, userId: string, by: Actor, action: AuditAction, before: UserRow | null, after: UserRow) {
  // A new record's status is the default; its entry records what the manager chose.
  const changes = before ? diff(audited(before), audited(after)) : diff(null, { email: after.email, name: after.name, role: after.role });
  if (action === 'update' && !Object.keys(changes).length) return;
  await writeAudit(db, userId, by, [{ action, changes }]);
}

async function emailFree(db: Db, email: string, selfId: string | null) {
  const other = await findUserByEmail(db, email);
  if (other && other.id !== selfId)
    throw new ApiError(409, other.deleted_at !== null ? USER_MSG.duplicateDeleted : USER_MSG.duplicateEmail, undefined, 'email');
}

async function guardManagers(db: Db, before: UserRow, after: Pick<UserRow, 'role' | 'disabled' | 'deleted_at'>) {
  checkKeepsAManager(await db.selectFrom('users').selectAll().where('role', '=', 'manager').execute(), before, after);
}

/**
 * User changes take the same write lock as assign and skip: a role or status change moves
 * people in and out of the rotation, and the last-manager check must see settled data.
 */
async function locked<T>(h: DbHandle, fn: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await withRotationLock(h, fn);
  } catch (err) {
    // A sign-in creating the same address at the same instant.
    if (isUniqueViolation(err)) throw new ApiError(409, USER_MSG.duplicateEmail, undefined, 'email');
    throw err;
  }
}

export async function listUsers(db: Db, withDeleted: boolean) {
  let q = db.selectFrom('users').selectAll();
  if (!withDeleted) q = q.where('deleted_at', 'is', null);
  return q.orderBy('name').orderBy('email').execute();
}

export function createUser(h: DbHandle, v: { email: string; name: string; role: Role }, by: Actor) {
  return locked(h, async (db) => {
    await emailFree(db, v.email, null);
    const row = await insertUser(db, v);
    await audit(db, row.id, by, 'create', null, row);
    return row;
  });
}

async function load(db: Db, id: string) {
  const row = await findUser(db, id);
  if (!row) throw notFound(USER_MSG.notFound);
  return row;
}

/** A newcomer, a restored person or a new salesman joins at the end of the order, off duty. */
const joining = async (db: Db) => ({ position: await nextPosition(db), on_duty: 0 });

/**
 * Name and role change at once; a new e-mail address is only asked for (`askEmail` mails its
 * owner a link, see email-change.ts) and the row keeps the old one until it is confirmed.
 */
export function editUser(
  h: DbHandle,
  id: string,
  v: { email: string; name?: string; role?: Role },
  by: Actor,
  managerEmails: readonly string[] = [],
  askEmail?: (trx: Db, before: UserRow, email: string) => Promise<void>,
) {
  return locked(h, async (db) => {
    const before = await load(db, id);
    if (before.deleted_at !== null) throw new ApiError(409, USER_MSG.editDeleted);
    const next = { name: v.name ?? before.name, role: v.role ?? before.role };
    const newEmail = v.email !== before.email ? v.email : null;
    if (newEmail) {
      if (!askEmail) throw new ApiError(400, 'The e-mail address cannot be changed here.', undefined, 'email');
      checkLockout(before, 'email', by, managerEmails);
      await emailFree(db, newEmail, id);
    }
    if (before.role === 'manager' && next.role !== 'manager') checkLockout(before, 'demote', by, managerEmails);
    await guardManagers(db, before, { ...before, role: next.role });
    const patch: Partial<UserRow> = { ...next, updated_at: Date.now() };
    if (next.role === 'staff' && before.role !== 'staff') Object.assign(patch, await joining(db));
    await db.updateTable('users').set(patch).where('id', '=', id).execute();
    const after = { ...before, ...patch };
    await audit(db, id, by, 'update', before, after);
    if (newEmail && askEmail) await askEmail(db, before, newEmail);
    return after;
  });
}

/** The owner of a new address confirmed it (see email-change.ts), under the same lock as every user change. */
export const confirmEmail = (h: DbHandle, fn: (db: Db) => Promise<UserRow>) => locked(h, fn);

const STATUS = {
  disable: (r: UserRow) => ({ disabled: 1, deleted_at: r.deleted_at }),
  delete: (r: UserRow) => ({ disabled: 1, deleted_at: r.deleted_at ?? Date.now() }),
  enable: () => ({ disabled: 0, deleted_at: null }),
  restore: () => ({ disabled: 0, deleted_at: null }),
} as const;
export type StatusAction = keyof typeof STATUS;

/** Disable, soft-delete, enable or restore; blocking also ends every session of the person. */
export function setStatus(h: DbHandle, id: string, action: StatusAction, by: Actor, managerEmails: readonly string[] = []) {
  return locked(h, async (db) => {
    const before = await load(db, id);
    const flags = STATUS[action](before);
    const after: UserRow = { ...before, ...flags };
    if (after.disabled === before.disabled && after.deleted_at === before.deleted_at) return { row: before, revoked: false };
    if (action === 'disable' || action === 'delete') checkLockout(before, action, by, managerEmails);
    await guardManagers(db, before, after);
    const set: Partial<UserRow> = { ...flags, updated_at: Date.now() };
    // Back from disabled or deleted: at the end of the order and off duty, like a newcomer.
    if (isBlocked(before) && !isBlocked(after)) Object.assign(set, await joining(db));
    Object.assign(after, set);
    await db.updateTable('users').set(set).where('id', '=', id).execute();
    const revoked = isBlocked(after);
    if (revoked) await db.deleteFrom('sessions').where('user_id', '=', id).execute();
    await audit(db, id, by, action, before, after);
    return { row: after, revoked };
  });
}

export async function auditOf(db: Db, id: string, limit = 20) {
  await load(db, id);
  const rows = await db
    .selectFrom('audit_log')
    .leftJoin('users as a', 'a.id', 'audit_log.actor_id')
    .select(['audit_log.id', 'audit_log.action', 'audit_log.actor_name', 'a.email as actor_email', 'audit_log.changes', 'audit_log.at'])
    .where('audit_log.user_id', '=', id)
    .orderBy('audit_log.at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    action: r.action,
    actorName: r.actor_name,
    actorEmail: r.actor_email,
    changes: fieldChanges.parse(JSON.parse(r.changes)),
    at: new Date(Number(r.at)).toISOString(),
  }));
}
