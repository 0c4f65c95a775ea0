import type { SelectQueryBuilder, Updateable } from 'kysely';
import type { Db } from '../db';
import type { Database, MembershipsTable } from '../db/schema';
import { FIRST_STORE_ID } from '../users/repo';

type Who = SelectQueryBuilder<Database, 'users', { id: string }>;

/**
 * Sets people's place in a store's line (the first store unless said): duty, snooze, activity or
 * position, as a test arranges them directly. `who` narrows the people (by a condition on users);
 * without it, everyone in that store's line.
 */
export const setPlaces = (db: Db, values: Updateable<MembershipsTable>, who: (users: Who) => Who = (q) => q, store = FIRST_STORE_ID) =>
  db
    .updateTable('memberships')
    .set(values)
    .where('store_id', '=', store)
    .where('user_id', 'in', who(db.selectFrom('users').select('id')))
    .execute();
