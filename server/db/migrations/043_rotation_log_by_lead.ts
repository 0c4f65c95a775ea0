import { sql, type Migration } from 'kysely';
import type { Db } from './kit';

export default (): Migration => ({
  // The desk log reads a walk-in's time in as his first hand-out in the rotation log (server/desk):
  // found by the lead, not by a walk through the store's whole log.
  async up(db: Db) {
    await db.schema.createIndex('rotation_log_lead').on('rotation_log').columns(['lead_id', 'created_at']).where(sql.ref('lead_id'), 'is not', null).execute();
  },
});
