import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big } = kit(dialect);
  return {
    // One row per day the floor closed: its key makes the closing (everyone off duty, the
    // report mailed) happen once however many app servers see the hour come.
    async up(db: Db) {
      await db.schema
        .createTable('floor_days')
        .addColumn('day', 'text', (c) => c.primaryKey())
        .addColumn('closed_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('leads_closed_at').on('leads').column('closed_at').execute();
    },
  };
};
