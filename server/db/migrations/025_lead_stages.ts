import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit, type Db } from './kit';

export default (dialect: Dialect): Migration => {
  const { big } = kit(dialect);
  return {
    // A lead's life to a sold car (domain/stages.ts): its kept stage, why it was lost, its
    // appointment; a sale names its customer and the lead it closed (one sale per lead). Leads
    // closed before have no outcome: they become Lost for "Unknown" (no sale links one yet), and
    // an open lead with a contact is Contacted. No sale or commission changes.
    async up(db: Db) {
      await db.schema.alterTable('leads').addColumn('stage', 'text').execute();
      await db.schema.alterTable('leads').addColumn('lost_reason', 'text').execute();
      await db.schema.alterTable('leads').addColumn('appointment_at', big).execute();
      await db.schema.alterTable('leads').addColumn('appointment_reminded_at', big).execute();
      await db.schema.alterTable('lead_events').addColumn('outcome', 'text').execute();
      await db.schema.alterTable('lead_events').addColumn('reason', 'text').execute();
      await db.schema.alterTable('lead_events').addColumn('appointment_at', big).execute();
      await db.schema.alterTable('sales').addColumn('lead_id', 'integer').execute();
      await db.schema.alterTable('sales').addColumn('customer', 'text').execute();
      await db.schema.createIndex('sales_one_per_lead').unique().on('sales').column('lead_id').where(sql.ref('lead_id'), 'is not', null).execute();
      // Appointments coming up, for the reminder: only leads that have one are in the index.
      await db.schema.createIndex('leads_appointments').on('leads').columns(['appointment_at']).where(sql.ref('appointment_at'), 'is not', null).execute();
      await sql`update leads set stage = 'lost', lost_reason = 'Unknown' where closed = 1`.execute(db);
      await sql`update leads set stage = 'contacted' where closed = 0 and first_contact_at is not null`.execute(db);
    },
  };
};
