import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db';
import type { Profile } from '../../domain/contract/answers';
import type { MembershipsTable, UsersTable } from '../db/schema';
import { normalizeRole, DEFAULT_NAME } from '../../domain/roles';

export type UserRow = Selectable<UsersTable>;

/** A person's place in one store's line. */
export type Place = Pick<Selectable<MembershipsTable>, 'active' | 'on_duty' | 'snooze_until'>;

/** The FIRST store: where a person goes when nobody names a store (a database made before stores has only it). */
export const FIRST_STORE_ID = 1;

/** The user as the API shows it: camelCase, booleans, ISO times; active, on duty and snoozed as in the store `place` is in (none: not in its line). */
export function toUser(u: UserRow, place?: Place | null): Profile {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: normalizeRole(u.role),
    active: !!place?.active,
    onDuty: !!place?.on_duty,
    snoozeUntil: place?.snooze_until ? new Date(Number(place.snooze_until)).toISOString() : null,
    disabled: !!u.disabled,
    deletedAt: u.deleted_at ? new Date(u.deleted_at).toISOString() : null,
    greeting: u.greeting,
    signedInAt: u.signed_in_at ? new Date(u.signed_in_at).toISOString() : null,
    createdAt: new Date(u.created_at).toISOString(),
    updatedAt: new Date(u.updated_at).toISOString(),
  };
}

export const findUserByEmail = (db: Db, email: string) => db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

export const findUser = (db: Db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * A newcomer's place in a store's line: after everyone. Read and written inside the store's
 * rotation transaction (places are unique, so a caller outside it fails rather than sharing one).
 */
export async function nextPosition(db: Db, store: number): Promise<number> {
  const r = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('store_id', '=', store)
    .executeTakeFirst();
  return Number(r?.max ?? 0) + 1;
}

/** The stores a person is in (a group manager's "every store" is not among them). */
export const storeIdsOf = async (db: Db, id: string) =>
  (await db.selectFrom('memberships').select('store_id').where('user_id', '=', id).execute()).map((m) => Number(m.store_id));

/** Puts a person into a store's line at its end (off duty unless said), unless he is in it already. Inside that store's rotation transaction. */
export async function join(db: Db, userId: string, store: number, onDuty = false) {
  const there = await db.selectFrom('memberships').select('user_id').where('user_id', '=', userId).where('store_id', '=', store).executeTakeFirst();
  if (there) return;
  await db
    .insertInto('memberships')
    .values({
      user_id: userId,
      store_id: store,
      position: await nextPosition(db, store),
      active: 1,
      on_duty: onDuty ? 1 : 0,
      snooze_until: null,
      created_at: Date.now(),
    })
    .execute();
}

/**
 * Adds a person, in each of `stores` at the end of its line, off duty until he clocks in; without
 * stores, a salesman or store manager joins the first store and a manager is a group manager.
 * Call inside the rotation transaction of those stores.
 */
export async function insertUser(
  db: Db,
  v: { email: string; name?: string | null; role?: string | null; signedIn?: boolean; onDuty?: boolean; stores?: number[]; allStores?: boolean },
): Promise<UserRow> {
  const now = Date.now();
  const role = normalizeRole(v.role ?? 'staff');
  const allStores = role === 'manager' && (v.allStores ?? !v.stores);
  const row: UserRow = {
    id: crypto.randomUUID(),
    email: v.email,
    name: v.name?.trim() || DEFAULT_NAME,
    role,
    all_stores: allStores ? 1 : 0,
    store_id: null,
    disabled: 0,
    deleted_at: null,
    greeting: null,
    notes: null,
    signed_in_at: v.signedIn ? now : null,
    created_at: now,
    updated_at: now,
    mobile: null,
    mobile_confirmed_at: null,
    sms_stopped_at: null,
    notify: null,
  };
  await db.insertInto('users').values(row).execute();
  for (const store of v.stores ?? (allStores ? [] : [FIRST_STORE_ID])) await join(db, row.id, store, v.onDuty);
  return row;
}

/** A store's managers: its own and the group's, not disabled, not deleted (a query to narrow or run). */
export const storeManagers = (db: Db, store: number) =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('role', '=', 'manager')
    .where('disabled', '=', 0)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('all_stores', '=', 1),
        eb.exists(
          eb.selectFrom('memberships').select('memberships.user_id').whereRef('memberships.user_id', '=', 'users.id').where('memberships.store_id', '=', store),
        ),
      ]),
    );

/** The managers who hear of a store's news by mail. */
export const mailedManagers = (db: Db, store: number) => storeManagers(db, store).execute();

export const isBlocked = (u: Pick<UserRow, 'disabled' | 'deleted_at'>) => !!u.disabled || u.deleted_at !== null;

/** A store's salesmen, not deleted: id and name. */
export const staffOf = (db: Db, store: number) =>
  db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id', 'users.name'])
    .where('memberships.store_id', '=', store)
    .where('users.role', '=', 'staff')
    .where('users.deleted_at', 'is', null);
