import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db';
import type { Profile } from '../../domain/contract/answers';
import type { UsersTable } from '../db/schema';
import { normalizeRole, DEFAULT_NAME } from '../../domain/roles';

export type UserRow = Selectable<UsersTable>;

/** The user as the API shows it: camelCase, booleans, ISO times. */
export function toUser(u: UserRow): Profile {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: normalizeRole(u.role),
    active: !!u.active,
    onDuty: !!u.on_duty,
    snoozeUntil: u.snooze_until ? new Date(u.snooze_until).toISOString() : null,
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
 * A newcomer's place: after everyone. Read and written inside the rotation transaction (places
 * are unique, so a caller outside it fails rather than sharing a place).
 */
export async function nextPosition(db: Db): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('position').as('max'))
    .executeTakeFirst();
  return Number(r?.max ?? 0) + 1;
}

/** Adds a person at the end of the order, off duty until he clocks in. Call inside the rotation transaction. */
export async function insertUser(
  db: Db,
  v: { email: string; name?: string | null; role?: string | null; signedIn?: boolean; onDuty?: boolean },
): Promise<UserRow> {
  const now = Date.now();
  const row: UserRow = {
    id: crypto.randomUUID(),
    email: v.email,
    name: v.name?.trim() || DEFAULT_NAME,
    role: normalizeRole(v.role ?? 'staff'),
    active: 1,
    on_duty: v.onDuty ? 1 : 0,
    position: await nextPosition(db),
    snooze_until: null,
    disabled: 0,
    deleted_at: null,
    greeting: null,
    notes: null,
    signed_in_at: v.signedIn ? now : null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

/** The managers who hear of things by mail: not disabled, not deleted. */
export const mailedManagers = (db: Db) =>
  db.selectFrom('users').select(['email', 'name']).where('role', '=', 'manager').where('disabled', '=', 0).where('deleted_at', 'is', null).execute();

export const isBlocked = (u: Pick<UserRow, 'disabled' | 'deleted_at'>) => !!u.disabled || u.deleted_at !== null;
