import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // Leads by e-mail (server/mailin): the addresses the portal takes lead mail for, each a
    // store's (or, store_id null, the group's: its leads go by their dealer), and every message
    // taken in, kept 30 days with what became of it. A message is stored (sealed) before the
    // receiver answers 250; a background job reads it once across app servers (lease).
    async up(db: Db) {
      await idCol(db.schema.createTable('lead_addresses'))
        .addColumn('address', 'text', (c) => c.notNull().unique())
        .addColumn('store_id', big)
        .addColumn('created_by', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await idCol(db.schema.createTable('mail_messages'))
        .addColumn('address_id', big, (c) => c.notNull())
        .addColumn('store_id', big)
        // The Message-ID, or the SHA-256 of the raw message when it has none: the same mail delivered twice is one row.
        .addColumn('message_key', 'text', (c) => c.notNull())
        .addColumn('via', 'text', (c) => c.notNull())
        .addColumn('sender', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('raw_key', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_until', big)
        .addColumn('next_at', big, (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('handled_by', 'text')
        .addColumn('received_at', big, (c) => c.notNull())
        .addColumn('done_at', big)
        .addUniqueConstraint('mail_messages_once', ['address_id', 'message_key'])
        .execute();
      // The message as it came, sealed, in parts of 256 kB apart from its row: each part is its own
      // short write (a 10 MB message in one statement held SQLite, and with it the event loop, for
      // 60 ms), claiming and marking a row never rewrites the message, and the parts are deleted
      // once the mail is handled.
      await db.schema
        .createTable('mail_raw')
        .addColumn('raw_key', 'text', (c) => c.notNull())
        .addColumn('part', 'integer', (c) => c.notNull())
        .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_raw_pk', ['raw_key', 'part'])
        .execute();
      await db.schema.createIndex('mail_messages_due').on('mail_messages').columns(['state', 'next_at']).execute();
      await db.schema.createIndex('mail_messages_store').on('mail_messages').columns(['store_id', 'received_at']).execute();
    },
  };
};
