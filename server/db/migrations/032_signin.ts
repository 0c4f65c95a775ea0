import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big } = kit(dialect);
  return {
    // Signing in the way a dealership already does (server/auth): single sign-on, passkeys, and a
    // list of one's signed-in devices.
    async up(db: Db) {
      // A session's public id (`sid`, what Settings lists and signs out; the cookie's hash never
      // leaves the server), how it was made, the device it is on, and for single sign-on the
      // provider's refresh token (sealed with the session secret) and when to ask the provider again.
      await db.schema.alterTable('sessions').addColumn('sid', 'text').execute();
      await sql`UPDATE sessions SET sid = ${dialect === 'postgres' ? sql`replace(gen_random_uuid()::text, '-', '')` : sql`lower(hex(randomblob(16)))`}`.execute(
        db,
      );
      await db.schema.createIndex('sessions_sid').on('sessions').column('sid').unique().execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('via', 'text', (c) => c.notNull().defaultTo('link'))
        .execute();
      await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('last_seen_at', big).execute();
      await db.schema.alterTable('sessions').addColumn('oidc_refresh', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('recheck_at', big).execute();

      // A device's push notifications belong to the session that turned them on: signing that
      // device out (from another, or by a manager) stops them too.
      await db.schema.alterTable('push_subscriptions').addColumn('session_sid', 'text').execute();

      // Passkeys (WebAuthn): the credential's id and public key (base64url), its signature counter.
      await db.schema
        .createTable('passkeys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', big, (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('last_used_at', big)
        .execute();
      await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

      // A sign-in or passkey ceremony in flight (OIDC state, nonce and PKCE verifier; a WebAuthn
      // challenge), kept in the database so any app server can finish it, and spent once.
      await db.schema
        .createTable('auth_flows')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_flows_expires').on('auth_flows').column('expires_at').execute();
    },
  };
};
