import type { Db, StoreDb } from '../db';
import { isUniqueViolation, withRotationLock } from '../db';
import { ApiError, notFound } from '../http/errors';
import { writeAudit } from './audit';
import { findUser, findUserByEmail, insertUser, isBlocked, join, storeIdsOf, type Place, type UserRow } from './repo';
import type { Store } from '../../domain/stores';
import { diff, USER_MSG, type AuditAction } from '../../domain/users';
import { checkKeepsAManager, checkLockout } from './policy';
import type { Role } from '../../domain/roles';
import { fieldChanges } from '../../domain/contract/answers';

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

async function audit(db: Db, userId: string, by: Actor, action: AuditAction, before: UserRow | null, after: UserRow) {
  // A new record's status is the default; its entry records what the manager chose.
  const changes = before ? diff(audited(before), audited(after)) : diff(null, { email: after.email, name: after.name, role: after.role });
  if (action === 'update' && !Object.keys(changes).length) return;
  await writeAudit(db, userId, by, [{ action, changes }]);
}

/** Refuses an address someone else has; `known` says whether the asker may learn so (else the link's confirmation refuses it later). */
async function emailFree(db: Db, email: string, selfId: string | null, known: (db: Db, other: UserRow) => Promise<boolean> = async () => true) {
  const other = await findUserByEmail(db, email);
  if (other && other.id !== selfId && (await known(db, other)))
    throw new ApiError(409, other.deleted_at !== null ? USER_MSG.duplicateDeleted : USER_MSG.duplicateEmail, undefined, 'email');
}

async function guardManagers(db: Db, before: UserRow, after: Pick<UserRow, 'role' | 'disabled' | 'deleted_at'>) {
  checkKeepsAManager(await db.selectFrom('users').selectAll().where('role', '=', 'manager').execute(), before, after);
}

/**
 * User changes take the same write lock as assign and skip, of the store and of every other store
 * the change touches: a role or status change moves people in and out of the lines, and the
 * last-manager check must see settled data.
 */
async function locked<T>(h: StoreDb, fn: (db: Db) => Promise<T>, also: number[] = []): Promise<T> {
  try {
    return await withRotationLock(h, fn, also);
  } catch (err) {
    // A sign-in creating the same address at the same instant.
    if (isUniqueViolation(err)) throw new ApiError(409, USER_MSG.duplicateEmail, undefined, 'email');
    throw err;
  }
}

/** A person as a store's managers see him: his place in its line, if any, and the codes of his stores. */
export type StorePerson = UserRow & { place: Place | null; stores: string[] };

/**
 * The people of a store (its line and its managers) and the group managers, each with his place
 * there and his stores. `id` narrows it to one person; with `anywhere` he is found even when he is
 * in other stores only (the answer to a change that just took him out of this one).
 */
export async function listUsers(db: Db, store: number, opts: { deleted?: boolean; id?: string; anywhere?: boolean } = {}): Promise<StorePerson[]> {
  const rows = await db
    .selectFrom('users')
    .leftJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'users.id').on('memberships.store_id', '=', store))
    .selectAll('users')
    .select(['memberships.active', 'memberships.on_duty', 'memberships.snooze_until', 'memberships.store_id as here'])
    .$if(!opts.anywhere, (q) => q.where((eb) => eb.or([eb('users.all_stores', '=', 1), eb('memberships.store_id', 'is not', null)])))
    .$if(!opts.deleted, (q) => q.where('users.deleted_at', 'is', null))
    .$if(opts.id !== undefined, (q) => q.where('users.id', '=', opts.id ?? ''))
    .orderBy('users.name')
    .orderBy('users.email')
    .execute();
  if (!rows.length) return [];
  const codes = new Map<string, string[]>();
  const places = await db
    .selectFrom('memberships')
    .innerJoin('stores', 'stores.id', 'memberships.store_id')
    .select(['memberships.user_id', 'stores.code'])
    .where(
      'memberships.user_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('stores.id')
    .execute();
  for (const p of places) codes.set(p.user_id, [...(codes.get(p.user_id) ?? []), p.code]);
  return rows.map(({ active, on_duty, snooze_until, here, ...u }) => ({
    ...u,
    place: here === null ? null : { active: Number(active), on_duty: Number(on_duty), snooze_until },
    stores: codes.get(u.id) ?? [],
  }));
}

/** One person of the store, as listUsers shows him; a person of another store is not found (`anywhere`: see listUsers). */
export async function personOf(db: Db, store: number, id: string, anywhere = false): Promise<StorePerson> {
  const [row] = await listUsers(db, store, { deleted: true, id, anywhere });
  if (!row) throw notFound(USER_MSG.notFound);
  return row;
}

/** Who a new or changed person is in the group: his stores (a group manager has them all). */
export interface Placing {
  groupManager?: boolean;
  stores?: Pick<Store, 'id'>[];
}

export function createUser(h: StoreDb, v: { email: string; name: string; role: Role } & Placing, by: Actor) {
  const group = v.role === 'manager' && !!v.groupManager;
  const stores = group ? [] : (v.stores ?? [{ id: h.store }]).map((s) => s.id);
  return locked(
    h,
    async (db) => {
      await emailFree(db, v.email, null);
      const row = await insertUser(db, { ...v, stores, allStores: group });
      await audit(db, row.id, by, 'create', null, row);
      return row;
    },
    stores,
  );
}

async function load(db: Db, id: string) {
  const row = await findUser(db, id);
  if (!row) throw notFound(USER_MSG.notFound);
  return row;
}

/** A restored person or a new salesman joins the end of each of his stores' lines, off duty. */
async function rejoin(db: Db, id: string) {
  const stores = await db.selectFrom('memberships').select('store_id').where('user_id', '=', id).execute();
  await db.deleteFrom('memberships').where('user_id', '=', id).execute();
  for (const m of stores) await join(db, id, Number(m.store_id));
}

/**
 * Name and role change at once; a new e-mail address is only asked for (`askEmail` mails its
 * owner a link, see email-change.ts) and the row keeps the old one until it is confirmed.
 */
export async function editUser(
  h: StoreDb,
  id: string,
  v: { email: string; name?: string; role?: Role } & Placing,
  by: Actor,
  managerEmails: readonly string[] = [],
  askEmail?: (trx: Db, before: UserRow, email: string) => Promise<void>,
  known?: (db: Db, other: UserRow) => Promise<boolean>,
) {
  const had = await storeIdsOf(h.db, id);
  const wanted = v.stores?.map((s) => s.id);
  return locked(
    h,
    async (db) => {
      const before = await load(db, id);
      if (before.deleted_at !== null) throw new ApiError(409, USER_MSG.editDeleted);
      const role = v.role ?? before.role;
      const group = role === 'manager' && (v.groupManager ?? !!before.all_stores);
      const next = { name: v.name ?? before.name, role, all_stores: group ? 1 : 0 };
      const newEmail = v.email !== before.email ? v.email : null;
      if (newEmail) {
        if (!askEmail) throw new ApiError(400, 'The e-mail address cannot be changed here.', undefined, 'email');
        checkLockout(before, 'email', by, managerEmails);
        await emailFree(db, newEmail, id, known);
      }
      if (before.role === 'manager' && next.role !== 'manager') checkLockout(before, 'demote', by, managerEmails);
      await guardManagers(db, before, { ...before, role: next.role });
      const patch: Partial<UserRow> = { ...next, updated_at: Date.now() };
      await db.updateTable('users').set(patch).where('id', '=', id).execute();
      if (wanted) {
        await db.deleteFrom('memberships').where('user_id', '=', id).where('store_id', 'not in', wanted).execute();
        for (const store of wanted) await join(db, id, store);
      }
      // A group manager leaving the group's every store keeps the store he was changed in.
      if (before.all_stores && !group && !wanted && !had.length) await join(db, id, h.store);
      if (next.role === 'staff' && before.role !== 'staff') await rejoin(db, id);
      const after = { ...before, ...patch };
      await audit(db, id, by, 'update', before, after);
      if (newEmail && askEmail) await askEmail(db, before, newEmail);
      return after;
    },
    [...had, ...(wanted ?? [])],
  );
}

/** The owner of a new address confirmed it (see email-change.ts), under the same lock as every user change. */
export const confirmEmail = (h: StoreDb, fn: (db: Db) => Promise<UserRow>) => locked(h, fn);

const STATUS = {
  disable: (r: UserRow) => ({ disabled: 1, deleted_at: r.deleted_at }),
  delete: (r: UserRow) => ({ disabled: 1, deleted_at: r.deleted_at ?? Date.now() }),
  enable: () => ({ disabled: 0, deleted_at: null }),
  restore: () => ({ disabled: 0, deleted_at: null }),
} as const;
export type StatusAction = keyof typeof STATUS;

/** Disable, soft-delete, enable or restore; blocking also ends every session of the person. */
export async function setStatus(h: StoreDb, id: string, action: StatusAction, by: Actor, managerEmails: readonly string[] = []) {
  const had = await storeIdsOf(h.db, id);
  return locked(
    h,
    async (db) => {
      const before = await load(db, id);
      const flags = STATUS[action](before);
      const after: UserRow = { ...before, ...flags };
      if (after.disabled === before.disabled && after.deleted_at === before.deleted_at) return { row: before, revoked: false };
      if (action === 'disable' || action === 'delete') checkLockout(before, action, by, managerEmails);
      await guardManagers(db, before, after);
      const set: Partial<UserRow> = { ...flags, updated_at: Date.now() };
      Object.assign(after, set);
      await db.updateTable('users').set(set).where('id', '=', id).execute();
      // Back from disabled or deleted: at the end of each line and off duty, like a newcomer.
      if (isBlocked(before) && !isBlocked(after)) await rejoin(db, id);
      const revoked = isBlocked(after);
      if (revoked) await db.deleteFrom('sessions').where('user_id', '=', id).execute();
      await audit(db, id, by, action, before, after);
      return { row: after, revoked };
    },
    had,
  );
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
