import { sql } from 'kysely';
import { isUniqueViolation, type Db, type DbHandle } from '../db';
import { ApiError, notFound } from '../http/errors';
import type { Store } from '../../domain/stores';
import type { UserRow } from '../users/repo';

export const STORE_NOT_FOUND = 'Store not found';

const columns = ['stores.id', 'stores.code', 'stores.name', 'stores.timezone'] as const;
const toStore = (r: { id: number | string; code: string; name: string; timezone: string }): Store => ({
  id: Number(r.id),
  code: r.code,
  name: r.name,
  timezone: r.timezone,
});

const readStores = async (db: Db): Promise<Store[]> => (await db.selectFrom('stores').select(columns).orderBy('stores.id').execute()).map(toStore);

/**
 * The group's stores change seldom and are read on nearly every request (a group manager's store):
 * each app server keeps them for a few seconds. A store added on this server is seen at once, one
 * added on another when a code is not found here (read again) or within those seconds; so is a
 * new name or time zone.
 */
const KEEP_MS = 5000;
const kept = new WeakMap<Db, { until: number; stores: Promise<Store[]> }>();

/** A store of the group, looked up among those kept, else read again (it may be new). */
const findStore = async (db: Db, which: (s: Store) => boolean) => (await allStores(db)).find(which) ?? (await allStores(db, true)).find(which) ?? null;

export function allStores(db: Db, fresh = false): Promise<Store[]> {
  const k = kept.get(db);
  if (k && !fresh && k.until > Date.now()) return k.stores;
  const stores = readStores(db);
  kept.set(db, { until: Date.now() + KEEP_MS, stores });
  // A failed read is not kept.
  stores.catch(() => kept.get(db)?.stores === stores && kept.delete(db));
  return stores;
}

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
  if (me.all_stores) return findStore(db, (s) => s.code === code);
  const row = await db
    .selectFrom('stores')
    .select(columns)
    .where('stores.code', '=', code)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('memberships').select(sql.lit(1).as('one')).whereRef('memberships.store_id', '=', 'stores.id').where('memberships.user_id', '=', me.id),
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

const storeByCode = (db: Db, code: string) => findStore(db, (s) => s.code === code);

export async function storeById(db: Db, id: number): Promise<Store> {
  const store = await findStore(db, (s) => s.id === id);
  if (!store) throw notFound(STORE_NOT_FOUND);
  return store;
}

/** The stores named by these codes, every one of them known; else a 400 naming the first unknown. */
export async function storesByCodes(db: Db, codes: string[]): Promise<Store[]> {
  if (!codes.length) return [];
  const found = (await db.selectFrom('stores').select(columns).where('code', 'in', codes).execute()).map(toStore);
  const unknown = codes.find((c) => !found.some((s) => s.code === c));
  if (unknown) throw new ApiError(400, `No store has the code ${unknown}.`, undefined, 'stores');
  return found;
}

/** A new store with its own rotation state row (its lock) and the default rules. */
export async function addStore(h: DbHandle, v: { name: string; code: string; timezone: string }): Promise<Store> {
  try {
    const store = await h.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('stores')
        .values({ code: v.code, name: v.name, timezone: v.timezone, created_at: Date.now() })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await trx.insertInto('rotation_state').values({ id, pointer_pos: 0 }).execute();
      return { id, code: v.code, name: v.name, timezone: v.timezone };
    });
    kept.delete(h.db);
    return store;
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, `A store with the code ${v.code} already exists.`, undefined, 'code');
    throw err;
  }
}

export async function editStore(db: Db, code: string, patch: { name?: string; timezone?: string }): Promise<Store> {
  const before = await storeByCode(db, code);
  if (!before) throw notFound(STORE_NOT_FOUND);
  if (patch.name !== undefined || patch.timezone !== undefined) await db.updateTable('stores').set(patch).where('id', '=', before.id).execute();
  kept.delete(db);
  return { ...before, ...patch };
}
