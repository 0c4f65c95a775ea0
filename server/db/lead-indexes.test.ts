import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../test/harness';
import { planOf } from '../test/plans';
import type { Db } from '.';
import { migrate } from './migrations';
import { EMPTY_AT_FIRST } from './migrations/035_partial_lead_indexes';

const LEADS = 2000;

/** A day of leads as they come in: none accepted, contacted, closed, up for grabs or from a feed, but the last few. */
async function comeIn(db: Db, store: number) {
  const at = Date.now();
  for (let from = 0; from < LEADS; from += 500) {
    const rows = Array.from({ length: 500 }, (_, i) => {
      const n = from + i;
      const filled = n >= LEADS - 5;
      return {
        store_id: store,
        customer: `Customer ${n}`,
        assigned_to: 'someone',
        assigned_to_name: 'Someone',
        assigned_by: null,
        assigned_by_name: 'Website',
        assigned_at: at + n,
        status: 'handed',
        follow_up_due: at,
        closed: filled ? 1 : 0,
        source: 'Website',
        offered_at: at + n,
        accepted_at: filled ? at + n : null,
        first_contact_at: filled ? at + n : null,
        closed_at: filled ? at + n : null,
        external_source: filled ? 'feed' : null,
        external_id: filled ? `p${n}` : null,
        customer_key: filled ? `customer ${n}` : null,
      };
    });
    await db
      .insertInto('leads')
      .values(rows as never)
      .execute();
  }
  return at;
}

describe.each(DIALECTS)('the indexes of lead columns empty at first, on %s', (dialect) => {
  it('hold only the leads that have a value, and still serve the questions asked of them', async () => {
    const h = await freshDb(dialect, { before: '035_partial_lead_indexes' });
    try {
      const at = await comeIn(h.db, h.store);
      await sql`delete from kysely_migration where name = '035_partial_lead_indexes'`.execute(h.db);
      await migrate(h.db, dialect);
      // The floor day's closings and a repeat from a dealer's feed (floor/service.ts, intake/service.ts).
      const closed = h.db
        .selectFrom('leads')
        .select('id')
        .where('closed_at', '>=', at)
        .where('closed_at', '<', at + LEADS);
      const repeat = h.db
        .selectFrom('leads')
        .select('id')
        .where('external_source', '=', 'feed')
        .where('external_id', '=', `p${LEADS - 1}`);
      expect(await planOf(h.db, dialect, closed)).toMatch(/leads_closed_at/);
      expect(await planOf(h.db, dialect, repeat)).toMatch(/leads_external/);
      // Each holds only the leads with a value: its definition has the condition.
      const defs =
        dialect === 'postgres'
          ? await sql<{ def: string }>`select indexdef as def from pg_indexes where tablename = 'leads'`.execute(h.db)
          : await sql<{ def: string }>`select sql as def from sqlite_master where type = 'index' and tbl_name = 'leads' and sql is not null`.execute(h.db);
      for (const { index, fills } of EMPTY_AT_FIRST) {
        const def = defs.rows.map((r) => r.def).find((d) => new RegExp(`index "?${index}"? `, 'i').test(d));
        expect(def, index).toMatch(new RegExp(`where \\(?"?${fills}"? is not null`, 'i'));
      }
    } finally {
      await h.close();
    }
  });
});
