import { sql, type Migration } from 'kysely';
import type { Db } from './kit';

export default (): Migration => {
  return {
    // "Does a lead wait in Unassigned?" is asked inside every assign, under the store's rotation
    // lock. On a table whose planner statistics are young (a new dealership, a day's first
    // thousand leads) both databases planned it as a walk over every lead of the store, growing
    // with each lead. The few leads that wait now have an index of their own, with the columns
    // the check asks by, which both planners take even without statistics. The rule book renders
    // WAITING's tests as literals (server/rotation/sql.ts), so both see that it covers the check.
    async up(db: Db) {
      await db.schema
        .createIndex('leads_unassigned')
        .on('leads')
        .columns(['store_id', 'grab_until'])
        .where(sql.ref('assigned_to'), '=', sql.lit(''))
        .where(sql.ref('closed'), '=', sql.lit(0))
        .execute();
    },
  };
};
