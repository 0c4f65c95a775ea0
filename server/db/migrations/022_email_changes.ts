import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big } = kit(dialect);
  return {
    // A new e-mail address takes effect only once its owner opens the link sent to it.
    async up(db: Db) {
      await db.schema
        .createTable('email_changes')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('requested_by', 'text', (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('used_at', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('email_changes_user').on('email_changes').column('user_id').execute();
    },
  };
};
