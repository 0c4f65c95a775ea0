import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big } = kit(dialect);
  return {
    // Simultaneous first sign-ins once read the same max(position) and shared a place, so the
    // second holder was always passed over. Renumber 1..n in today's order (position, then id,
    // as the queue sorts), move the pointer so the same person stays Next Up, and make places
    // unique from now on. Also: one result per manager action (a double-click assigns once).
    async up(db: Db) {
      const users = await db.selectFrom('users').select(['id', 'position']).orderBy('position').orderBy('id').execute();
      const { pointer_pos: pointer } = await db.selectFrom('rotation_state').select('pointer_pos').where('id', '=', 1).executeTakeFirstOrThrow();
      for (const [i, u] of users.entries())
        await db
          .updateTable('users')
          .set({ position: i + 1 })
          .where('id', '=', u.id)
          .execute();
      const before = users.filter((u) => u.position <= pointer).length;
      await db.updateTable('rotation_state').set({ pointer_pos: before }).where('id', '=', 1).execute();
      await db.schema.createIndex('users_position').on('users').column('position').unique().execute();

      await db.schema
        .createTable('rotation_actions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rotation_actions_created').on('rotation_actions').column('created_at').execute();
    },
  };
};
