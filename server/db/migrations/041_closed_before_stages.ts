import { sql, type Migration } from 'kysely';
import type { Db } from './kit';

export default (): Migration => ({
  // A lead closed before stages were kept has an outcome no one recorded. 025 read such leads as
  // Lost for "Unknown", and a lead closed with no stage at all read as Accepted off its hand-out:
  // each becomes Sold where a sale names it, else Closed (before stages) (domain/stages.ts).
  // A lead someone marked Lost has a 'lost' event on its timeline and stays Lost.
  async up(db: Db) {
    const unrecorded = sql`closed = 1 and (stage is null or (stage = 'lost' and lost_reason = 'Unknown'
      and not exists (select 1 from lead_events e where e.lead_id = leads.id and e.type = 'lost')))`;
    await sql`update leads set stage = 'sold', lost_reason = null where ${unrecorded} and exists (select 1 from sales s where s.lead_id = leads.id)`.execute(
      db,
    );
    await sql`update leads set stage = 'closed', lost_reason = null where ${unrecorded}`.execute(db);
  },
});
