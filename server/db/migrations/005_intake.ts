import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // Leads from integrations. An unassigned lead keeps assigned_to = '' rather than NULL:
    // SQLite cannot drop NOT NULL in place, and rebuilding leads would mean rebuilding its
    // indexes and 004's FTS triggers; '' matches no user, so every per-assignee query
    // already leaves it out.
    async up(db: Db) {
      // SQLite takes one ADD COLUMN per statement.
      for (const col of ['phone', 'email', 'vehicle', 'vin', 'comments', 'external_source', 'external_id']) {
        await db.schema.alterTable('leads').addColumn(col, 'text').execute();
      }
      // NULLs are distinct in a unique index on both dialects: only leads with a prospect id count.
      await db.schema.createIndex('leads_external').on('leads').columns(['external_source', 'external_id']).unique().execute();

      await idCol(db.schema.createTable('api_keys'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('last_used_at', big)
        .addColumn('revoked_at', big)
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('api_key_id', big, (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('body', 'text')
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
    },
  };
};
