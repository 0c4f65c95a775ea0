import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // A reused ADF <id> is not a repeat by itself (senders put the lead type or a constant
    // there): the same id from the same key is a repeat only for the same customer, so the
    // unique index becomes a plain one that also holds the folded customer name. Trade-ins, a
    // "name missing" flag and the document as it came in are kept with the lead.
    async up(db: Db) {
      for (const [col, type] of [
        ['customer_key', 'text'],
        ['trade_in', 'text'],
        ['document_id', big],
      ] as const) {
        await db.schema.alterTable('leads').addColumn(col, type).execute();
      }
      await db.schema
        .alterTable('leads')
        .addColumn('name_missing', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update leads set customer_key = lower(trim(customer)) where external_id is not null`.execute(db);
      await db.schema.dropIndex('leads_external').ifExists().execute();
      await db.schema.createIndex('leads_external').on('leads').columns(['external_source', 'external_id', 'customer_key']).execute();
      await idCol(db.schema.createTable('intake_documents'))
        .addColumn('api_key_id', big, (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
    },
  };
};
