import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';
import { ASSIGN_FUNCTION, OLD_ASSIGN_ARGS } from './assign-function';

export default (dialect: Dialect): Migration => {
  const { big, idCol } = kit(dialect);
  return {
    // A lead waits for its salesman's Accept until accept_due; the sweep hands on what is
    // overdue (a partial index: only leads still waiting are in it). Each lead's timeline and
    // the dealership rules' changes are kept.
    async up(db: Db) {
      for (const col of ['offered_at', 'accept_due', 'accepted_at', 'first_contact_at']) await db.schema.alterTable('leads').addColumn(col, big).execute();
      await db.schema
        .alterTable('leads')
        .addColumn('handoffs', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create index leads_accept_due on leads (accept_due) where accept_due is not null`.execute(db);
      await db.schema.createIndex('leads_accepted_at').on('leads').column('accepted_at').execute();
      await db.schema.createIndex('leads_first_contact_at').on('leads').column('first_contact_at').execute();
      await db.schema
        .createTable('lead_events')
        .$call(idCol)
        .addColumn('lead_id', big, (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('channel', 'text')
        .addColumn('note', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lead_events_lead').on('lead_events').columns(['lead_id', 'id']).execute();
      await db.schema.createIndex('lead_events_type_at').on('lead_events').columns(['type', 'created_at']).execute();
      await db.schema
        .createTable('rules_audit')
        .$call(idCol)
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('at', big, (c) => c.notNull())
        .execute();
      if (dialect === 'postgres') {
        // The one-call assign also starts the Accept window (011's version took no window).
        await sql.raw(`drop function if exists bdc_assign_next(${OLD_ASSIGN_ARGS})`).execute(db);
        await sql.raw(ASSIGN_FUNCTION).execute(db);
      }
    },
  };
};
