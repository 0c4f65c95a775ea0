import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // The showroom TV by its own link (server/tv): a store's view-only links, each a keyed hash of
    // its secret (the secret itself is shown once), named so a store's several TVs tell apart.
    async up(db: Db) {
      await idCol(db.schema.createTable('tv_links'))
        .addColumn('store_id', big, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('last_seen_at', big)
        .addColumn('revoked_at', big)
        .execute();
      await db.schema.createIndex('tv_links_store').on('tv_links').columns(['store_id', 'created_at']).execute();
    },
  };
};
