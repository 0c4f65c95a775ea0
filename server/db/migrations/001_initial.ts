import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    async up(db: Db) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('staff'))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('on_duty', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('snooze_until', big)
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted_at', big)
        .addColumn('greeting', 'text')
        .addColumn('notes', 'text')
        .addColumn('signed_in_at', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_role_position').on('users').columns(['role', 'position']).execute();

      await db.schema
        .createTable('login_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('used_at', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_tokens_email').on('login_tokens').columns(['email', 'created_at']).execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('rotation_state')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('pointer_pos', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_assigned_to', 'text')
        .addColumn('last_assigned_at', big)
        .addColumn('updated_by', 'text')
        .execute();
      await db.insertInto('rotation_state').values({ id: 1, pointer_pos: 0 }).execute();

      await idCol(db.schema.createTable('rotation_log'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('customer', 'text')
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('target_name', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('manager_id', 'text')
        .addColumn('manager_name', 'text', (c) => c.notNull())
        .addColumn('pointer_pos_after', 'integer', (c) => c.notNull())
        .addColumn('lead_id', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rotation_log_created').on('rotation_log').columns(['created_at', 'id']).execute();

      await idCol(db.schema.createTable('leads'))
        .addColumn('customer', 'text', (c) => c.notNull())
        .addColumn('assigned_to', 'text', (c) => c.notNull())
        .addColumn('assigned_to_name', 'text', (c) => c.notNull())
        .addColumn('assigned_by', 'text')
        .addColumn('assigned_by_name', 'text', (c) => c.notNull())
        .addColumn('assigned_at', big, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('follow_up_due', big, (c) => c.notNull())
        .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('closed_at', big)
        .addColumn('closed_by_id', 'text')
        .addColumn('closed_by_name', 'text')
        .execute();
      await db.schema.createIndex('leads_assigned_at').on('leads').columns(['assigned_at', 'id']).execute();
      await db.schema.createIndex('leads_open').on('leads').columns(['closed', 'assigned_at']).execute();
      await db.schema.createIndex('leads_assignee').on('leads').columns(['assigned_to', 'assigned_at']).execute();

      await idCol(db.schema.createTable('sales'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('rep_name', 'text', (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('vehicle_type', 'text', (c) => c.notNull())
        .addColumn('front_gross_cents', big, (c) => c.notNull())
        .addColumn('plan_type', 'text', (c) => c.notNull())
        .addColumn('plan_percent', 'integer')
        .addColumn('plan_flat', 'integer')
        .addColumn('plan_split', 'real', (c) => c.notNull())
        .addColumn('commission_cents', big, (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sales_user_date').on('sales').columns(['user_id', 'date']).execute();

      await idCol(db.schema.createTable('audit_log'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_user').on('audit_log').columns(['user_id', 'at']).execute();
    },
  };
};
