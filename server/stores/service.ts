import { sql } from 'kysely';
import type { Db, DbHandle } from '../db';
import { ApiError, notFound } from '../http/errors';
import type { Store } from '../../domain/stores';
import type { UserRow } from '../users/repo';
import { isRecord } from '../../domain/guards';

export const STORE_NOT_FOUND = 'Store not found';

const columns = ['stores.id', 'stores.code', 'stores.name', 'stores.timezone'] as const;
const toStore = (r: { id: number | string; code: string; name: string; timezone: string }): Store => ({
  id: Number(r.id),
  code: r.code,
  name: r.name,
  timezone: r.timezone,
});

export const allStores = async (db: Db): Promise<Store[]> => (await db.selectFrom('stores').select(columns).orderBy('stores.id').execute()).map(toStore);

/** The stores a person may open: a group manager every one, anyone else those he belongs to. */
export async function storesOf(db: Db, me: Pick<UserRow, 'id' | 'all_stores'>): Promise<Store[]> {
  if (me.all_stores) return allStores(db);
  const rows = await db
    .selectFrom('stores')
    .innerJoin('memberships', 'memberships.store_id', 'stores.id')
    .select(columns)
    .where('memberships.user_id', '=', me.id)
    .orderBy('stores.id')
    .execute();
  return rows.map(toStore);
}

/** One store a person may open, by code; null when there is none by that code or it is not his. */
export async function openStore(db: Db, me: Pick<UserRow, 'id' | 'all_stores'>, code: string): Promise<Store | null> {
  const row = await db
    .selectFrom('stores')
    .select(columns)
    .where('stores.code', '=', code)
    .$if(!me.all_stores, (q) =>
      q.where((eb) =>
        eb.exists(
          eb.selectFrom('memberships').select(sql.lit(1).as('one')).whereRef('memberships.store_id', '=', 'stores.id').where('memberships.user_id', '=', me.id),
        ),
      ),
    )
    .executeTakeFirst();
  return row ? toStore(row) : null;
}

/** The store a person's screens open in: the one he chose last while he may still open it, else his first. */
export async function homeStore(db: Db, me: Pick<UserRow, 'id' | 'all_stores' | 'store_id'>): Promise<Store | null> {
  const mine = await storesOf(db, me);
  return mine.find((s) => s.id === me.store_id) ?? mine[0] ?? null;
}

const storeByCode = async (db: Db, code: string): Promise<Store | null> => {
  const row = await db.selectFrom('stores').select(columns).where('code', '=', code).executeTakeFirst();
  return row ? toStore(row) : null;
};

export async function storeById(db: Db, id: number): Promise<Store> {
  const row = await db.selectFrom('stores').select(columns).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(STORE_NOT_FOUND);
  return toStore(row);
}

/** The stores named by these codes, every one of them known; else a 400 naming the first unknown. */
export async function storesByCodes(db: Db, codes: string[]): Promise<Store[]> {
  if (!codes.length) return [];
  const found = (await db.selectFrom('stores').select(columns).where('code', 'in', codes).execute()).map(toStore);
  const unknown = codes.find((c) => !found.some((s) => s.code === c));
  if (unknown) throw new ApiError(400, `No store has the code ${unknown}.`, undefined, 'stores');
  return found;
}

const isUniqueViolation = (err: unknown) => isRecord(err) && (err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE');

/** A new store with its own rotation state row (its lock) and the default rules. */
export async function addStore(h: DbHandle, v: { name: string; code: string; timezone: string }): Promise<Store> {
  try {
    return await h.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('stores')
        .values({ code: v.code, name: v.name, timezone: v.timezone, created_at: Date.now() })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await trx.insertInto('rotation_state').values({ id, pointer_pos: 0 }).execute();
      return { id, code: v.code, name: v.name, timezone: v.timezone };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, `A store with the code ${v.code} already exists.`, undefined, 'code');
    throw err;
  }
}

export async function editStore(db: Db, code: string, patch: { name?: string; timezone?: string }): Promise<Store> {
  const before = await storeByCode(db, code);
  if (!before) throw notFound(STORE_NOT_FOUND);
  if (patch.name !== undefined || patch.timezone !== undefined) await db.updateTable('stores').set(patch).where('id', '=', before.id).execute();
  return { ...before, ...patch };
}
