import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit } from './kit';

/** What this migration reads and writes (frozen with it). */
interface Then {
  users: { id: string; role: string; position: number; active: number; on_duty: number; snooze_until: number | null; created_at: number; all_stores: number };
  stores: { id: number; code: string; name: string; timezone: string; rules: string; created_at: number };
  memberships: { user_id: string; store_id: number; position: number; active: number; on_duty: number; snooze_until: number | null; created_at: number };
  settings: { key: string; value: string };
  floor_days: { day: string; closed_at: number };
  floor_days_new: { store_id: number; day: string; closed_at: number };
}

/** The store an existing database becomes, and a new one starts with. */
export interface FirstStore {
  name: string;
  code: string;
  timezone: string;
}

/** The tables whose rows belong to one store; every row there so far is the first store's. */
const PER_STORE = ['leads', 'rotation_log', 'sales', 'api_keys', 'rules_audit'] as const;

export default (dialect: Dialect, first: FirstStore): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // A dealer group: stores, each with its own line (memberships), rotation state row (its id is
    // the store's), rules and rows. An existing database becomes a group of one store, its first,
    // with every row kept: each salesman's place, duty, snooze and activity move onto his
    // membership there; managers become group managers (they saw everything before).
    async up(raw) {
      const db = raw as unknown as Kysely<Then>;
      await idCol(raw.schema.createTable('stores'))
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('rules', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      const now = Date.now();
      const stored = await db.selectFrom('settings').select('value').where('key', '=', 'rules').executeTakeFirst();
      await db
        .insertInto('stores')
        .values({ id: 1, code: first.code, name: first.name, timezone: first.timezone, rules: stored?.value ?? '', created_at: now })
        .execute();
      if (dialect === 'postgres') await sql`select setval(pg_get_serial_sequence('stores', 'id'), 1)`.execute(db);
      await db.deleteFrom('settings').where('key', '=', 'rules').execute();

      await raw.schema
        .createTable('memberships')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('on_duty', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('snooze_until', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'store_id'])
        .execute();
      // Places are unique within a store's line.
      await raw.schema.createIndex('memberships_place').on('memberships').columns(['store_id', 'position']).unique().execute();
      await raw.schema.createIndex('memberships_store').on('memberships').columns(['store_id', 'user_id']).execute();
      await sql`insert into memberships (user_id, store_id, position, active, on_duty, snooze_until, created_at)
        select id, 1, position, active, on_duty, snooze_until, created_at from users where role <> 'manager'`.execute(db);

      await raw.schema
        .alterTable('users')
        .addColumn('all_stores', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // The store a person last chose, where his screens open.
      await raw.schema.alterTable('users').addColumn('store_id', 'integer').execute();
      await db.updateTable('users').set({ all_stores: 1 }).where('role', '=', 'manager').execute();
      await raw.schema.dropIndex('users_role_position').execute();
      await raw.schema.dropIndex('users_position').execute();
      for (const c of ['position', 'active', 'on_duty', 'snooze_until']) await raw.schema.alterTable('users').dropColumn(c).execute();

      // Existing rows are the first store's; an API key or a lead may later belong to the group as a
      // whole (null): a group key's leads go by their dealer, an unmapped one waits for a group manager.
      for (const t of PER_STORE) {
        await raw.schema
          .alterTable(t)
          .addColumn('store_id', 'integer', (c) => (t === 'leads' || t === 'api_keys' ? c.defaultTo(1) : c.notNull().defaultTo(1)))
          .execute();
      }
      await raw.schema.createIndex('leads_store_assigned_at').on('leads').columns(['store_id', 'assigned_at', 'id']).execute();
      await raw.schema.createIndex('leads_store_assignee').on('leads').columns(['store_id', 'assigned_to', 'assigned_at']).execute();
      await raw.schema.createIndex('rotation_log_store').on('rotation_log').columns(['store_id', 'created_at', 'id']).execute();
      await raw.schema.createIndex('sales_store_date').on('sales').columns(['store_id', 'date']).execute();

      // A store's floor closes once a day: the day's key becomes (store, day).
      await raw.schema
        .createTable('floor_days_new')
        .addColumn('store_id', 'integer', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('closed_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('floor_days_pk', ['store_id', 'day'])
        .execute();
      await sql`insert into floor_days_new (store_id, day, closed_at) select 1, day, closed_at from floor_days`.execute(db);
      await raw.schema.dropTable('floor_days').execute();
      await raw.schema.alterTable('floor_days_new').renameTo('floor_days').execute();

      // Mappings of an ADF sender's dealer (vendor name or id) to a store, for senders that use one address for the group.
      await idCol(raw.schema.createTable('dealer_stores'))
        .addColumn('dealer', 'text', (c) => c.notNull().unique())
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      // The dealer an unmapped lead named, shown where it waits in the group's Unassigned.
      await raw.schema.alterTable('leads').addColumn('dealer', 'text').execute();
    },
  };
};
