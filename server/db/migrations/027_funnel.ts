import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big } = kit(dialect);
  return {
    // The funnel (domain/funnel.ts): when a lead first had an appointment set and first showed,
    // kept on the lead beside first_contact_at (its timeline keeps every step), so a year's funnel
    // is one pass over the leads. Filled from the timeline for the leads that have them; an index
    // over the period's leads holds every column the funnel reads (PostgreSQL reads it alone).
    async up(db: Db) {
      await db.schema.alterTable('leads').addColumn('appointment_set_at', big).execute();
      await db.schema.alterTable('leads').addColumn('shown_at', big).execute();
      const first = (type: string) => sql`(select min(e.created_at) from lead_events e where e.lead_id = leads.id and e.type = ${type})`;
      await sql`update leads set appointment_set_at = ${first('appointment_set')}, shown_at = ${first('shown')}
        where exists (select 1 from lead_events e where e.lead_id = leads.id and e.type in ('appointment_set', 'shown'))`.execute(db);
      if (dialect === 'postgres') {
        await sql`create index leads_funnel on leads (store_id, assigned_at) include (assigned_to, assigned_to_name, source, first_contact_at, appointment_set_at, shown_at, stage)`.execute(
          db,
        );
      } else {
        await db.schema
          .createIndex('leads_funnel')
          .on('leads')
          .columns(['store_id', 'assigned_at', 'assigned_to', 'source', 'first_contact_at', 'appointment_set_at', 'shown_at', 'stage'])
          .execute();
      }
    },
  };
};
