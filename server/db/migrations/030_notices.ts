import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // Reaching a salesman in his pocket (server/notices): each device he turned push on from, his
    // mobile number once confirmed by a code, his choices per kind of notice, and every notice sent
    // (push, text or mail) with its delivery state, claimed with a lease so each goes out once
    // across app servers. A push's Accept carries a single-use token for its lead and person.
    async up(db: Db) {
      await idCol(db.schema.createTable('push_subscriptions'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull().unique())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        // "Chrome on Windows", "This phone" is the browser's own call.
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('last_used_at', big)
        .execute();
      await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();

      await db.schema.alterTable('users').addColumn('mobile', 'text').execute();
      await db.schema.alterTable('users').addColumn('mobile_confirmed_at', big).execute();
      // STOP from the phone: no text goes to him until he confirms a number again.
      await db.schema.alterTable('users').addColumn('sms_stopped_at', big).execute();
      // JSON {kind: channel}; null: the store's default.
      await db.schema.alterTable('users').addColumn('notify', 'text').execute();

      await db.schema
        .createTable('mobile_codes')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('mobile', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();

      await idCol(db.schema.createTable('notices'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('store_id', big)
        .addColumn('lead_id', big)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        // The push subscription's id, the mobile number or the mail address it went to.
        .addColumn('target', 'text', (c) => c.notNull())
        // What makes it once: the same event to the same target is one row.
        .addColumn('once_key', 'text', (c) => c.notNull().unique())
        // Sealed (server/mail/seal.ts); emptied once done.
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', big, (c) => c.notNull())
        .addColumn('lease_until', big)
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('provider_id', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('sent_at', big)
        .addColumn('delivered_at', big)
        .execute();
      await db.schema.createIndex('notices_due').on('notices').columns(['state', 'next_at']).execute();
      await db.schema.createIndex('notices_lead').on('notices').columns(['lead_id', 'created_at']).execute();
      await db.schema.createIndex('notices_provider').on('notices').column('provider_id').execute();

      await db.schema
        .createTable('accept_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('lead_id', big, (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('used_at', big)
        .execute();
    },
  };
};
