import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // Mail waits here until a background sender delivers it (state waiting, then sent or
    // failed; dropped for a link request that sends nothing). body is sealed with the
    // session secret and emptied once sent. Rate-limit counters live here too, so every app
    // server on one database counts the same hits.
    async up(db: Db) {
      await idCol(db.schema.createTable('outbox'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', big, (c) => c.notNull())
        .addColumn('lease_until', big)
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('done_at', big)
        .execute();
      await db.schema.createIndex('outbox_due').on('outbox').columns(['state', 'next_at']).execute();
      await db.schema.createIndex('outbox_done').on('outbox').columns(['done_at']).execute();

      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('reset_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rate_limits_reset').on('rate_limits').column('reset_at').execute();
      await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
      await db.schema.createIndex('login_tokens_expires').on('login_tokens').column('expires_at').execute();
    },
  };
};
