import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // A store's pay plans (domain/payplan.ts), each from its day on; rows are only added, so the
    // table is also the record of who set which plan when. A store with none pays the default
    // (the specification's table). Sales keep the commission and tier they were saved with.
    async up(db: Db) {
      await idCol(db.schema.createTable('pay_plans'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
        .addColumn('effective_from', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_by_name', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('pay_plans_by_store').on('pay_plans').columns(['store_id', 'effective_from']).execute();
    },
  };
};
