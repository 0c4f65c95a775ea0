import type { Migration } from 'kysely';
import type { Db } from './kit';

export default (): Migration => {
  return {
    // "The oldest lead still waiting" is asked before every Assign; without this index the
    // planner walks every open lead to find none.
    async up(db: Db) {
      await db.schema.createIndex('leads_waiting').on('leads').columns(['assigned_to', 'closed', 'assigned_at', 'id']).execute();
    },
  };
};
