import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // Smarter routing (domain/routing.ts): teams, each with its own line and pointer in its
    // store's rotation; each person's weight, caps and own hours per store; his time off; the
    // fairness ledger's record of who was passed over at each up and why; which line and rule
    // an up went through; ups marked "No customer"; leads up for grabs in a claim pool.
    async up(db: Db) {
      await idCol(db.schema.createTable('teams'))
        .addColumn('store_id', big, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('pointer_pos', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('teams_name').on('teams').columns(['store_id', 'name']).unique().execute();

      await db.schema
        .createTable('team_members')
        .addColumn('team_id', big, (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('owed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
        .execute();
      await db.schema.createIndex('team_members_place').on('team_members').columns(['team_id', 'position']).unique().execute();
      await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

      // Weight 1–5; ups still owed this turn; caps (null: none); his own hours (JSON, Sunday
      // first, null: whenever the store is open); why his hours keep him out now (null: they do not).
      await db.schema
        .alterTable('memberships')
        .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable('memberships')
        .addColumn('owed', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('memberships').addColumn('daily_cap', 'integer').execute();
      await db.schema.alterTable('memberships').addColumn('open_cap', 'integer').execute();
      await db.schema.alterTable('memberships').addColumn('hours', 'text').execute();
      await db.schema.alterTable('memberships').addColumn('away', 'text').execute();

      await idCol(db.schema.createTable('time_off'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        // Days on the store's clock, first and last included ("2026-11-28").
        .addColumn('from_day', 'text', (c) => c.notNull())
        .addColumn('to_day', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('time_off_user').on('time_off').columns(['user_id', 'to_day']).execute();

      await idCol(db.schema.createTable('passed_over'))
        .addColumn('store_id', big, (c) => c.notNull())
        // The up that passed him over (rotation_log), its lead, and the line (null: the whole floor).
        .addColumn('log_id', big, (c) => c.notNull())
        .addColumn('lead_id', big)
        .addColumn('team_id', big)
        .addColumn('user_id', 'text', (c) => c.notNull())
        // domain/rotation.ts PassKind, and its detail (passDetail) to say it in words.
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('why', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('passed_over_user').on('passed_over').columns(['store_id', 'user_id', 'created_at']).execute();

      await db.schema.alterTable('rotation_log').addColumn('team_id', big).execute();
      await db.schema.alterTable('rotation_log').addColumn('rule', 'text').execute();
      await db.schema.alterTable('rotation_log').addColumn('no_customer_at', big).execute();
      await db.schema.alterTable('rotation_log').addColumn('no_customer_by', 'text').execute();
      await db.schema.createIndex('rotation_log_target').on('rotation_log').columns(['store_id', 'target_id', 'created_at']).execute();

      await db.schema.alterTable('leads').addColumn('team_id', big).execute();
      await db.schema.alterTable('leads').addColumn('grab_until', big).execute();
      await db.schema.alterTable('leads').addColumn('grab_team', big).execute();
      await db.schema
        .alterTable('leads')
        .addColumn('grab_stage', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('leads_grab').on('leads').columns(['store_id', 'grab_until']).execute();
    },
  };
};
