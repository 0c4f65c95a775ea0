import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big } = kit(dialect);
  return {
    // The desk log (server/desk): a walk-in up is a lead of source 'Walk-in' (time in is its
    // assigned_at, the vehicle of interest its vehicle, the outcome its stage). What the desk adds:
    // whether the customer brought a trade-in, whether a worksheet was written, the manager the
    // salesman turned him over to ("T.O.") and when he left.
    async up(db: Db) {
      await db.schema
        .alterTable('leads')
        .addColumn('trade_in_flag', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('leads')
        .addColumn('worksheet', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('leads').addColumn('to_manager_id', 'text').execute();
      await db.schema.alterTable('leads').addColumn('to_manager_name', 'text').execute();
      await db.schema.alterTable('leads').addColumn('time_out', big).execute();
      // A store's day of walk-ins, for the desk log.
      await db.schema.createIndex('leads_walk_ins').on('leads').columns(['store_id', 'assigned_at']).where(sql.ref('source'), '=', 'Walk-in').execute();
    },
  };
};
