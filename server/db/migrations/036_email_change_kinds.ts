import type { Migration } from 'kysely';
import type { Db } from './kit';

export default (): Migration => ({
  // Whose link it is: the new address's ('new', as before), the person's current address
  // approving a change someone else asked for ('old'), or the old address undoing a change ('undo').
  async up(db: Db) {
    await db.schema
      .alterTable('email_changes')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('new'))
      .execute();
  },
});
