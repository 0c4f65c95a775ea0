import type { Migration } from 'kysely';
import type { Db } from './kit';

export default (): Migration => {
  return {
    // A returning customer's lead goes to the salesman he asks for, outside the rotation.
    async up(db: Db) {
      await db.schema
        .alterTable('leads')
        .addColumn('be_back', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
};
