import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // A dealer mapping is found by its folded name or id (domain/dealers.ts) and shown as it was
    // typed; the table 023 made was never written to. A lead keeps the vendor's id beside its name.
    async up(db: Db) {
      await db.schema.dropTable('dealer_stores').execute();
      await idCol(db.schema.createTable('dealer_stores'))
        .addColumn('dealer_key', 'text', (c) => c.notNull().unique())
        .addColumn('dealer', 'text', (c) => c.notNull())
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.alterTable('leads').addColumn('dealer_ref', 'text').execute();
      await db.schema.createIndex('leads_no_store').on('leads').column('store_id').where('store_id', 'is', null).execute();
    },
  };
};
