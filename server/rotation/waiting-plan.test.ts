import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../test/harness';
import { planOf } from '../test/plans';
import type { Db, Dialect } from '../db';
import { migrate } from '../db/migrations';
import { DEFAULT_RULES } from '../../domain/rules';
import { sqlEnv, waiting } from './queries';

const DAY = 2000;

/** A day of leads already handed out, as a young store has them (its planner statistics not yet gathered). */
async function handedOut(db: Db, store: number) {
  const at = Date.now();
  for (let from = 0; from < DAY; from += 500) {
    const rows = Array.from({ length: 500 }, (_, i) => ({
      store_id: store,
      customer: `Customer ${from + i}`,
      assigned_to: 'someone',
      assigned_to_name: 'Someone',
      assigned_by: null,
      assigned_by_name: 'Website',
      assigned_at: at + from + i,
      status: 'handed',
      follow_up_due: at,
      closed: 0,
      source: 'Website',
    }));
    await db
      .insertInto('leads')
      .values(rows as never)
      .execute();
  }
}

/** The plan each database makes for the check every assign runs under the rotation lock: "does a lead wait in Unassigned?" */
const planOfWaitingCheck = (db: Db, dialect: Dialect, store: number) =>
  planOf(db, dialect, waiting(db, store, sqlEnv(new Date(), DEFAULT_RULES)).select(sql.lit(1).as('one')).limit(1));

describe.each(DIALECTS)('the waiting-leads check on %s', (dialect) => {
  it('reads only the leads that wait, however many were handed out before', async () => {
    const h = await freshDb(dialect, { before: '033_unassigned_leads_index' });
    try {
      await handedOut(h.db, h.store);
      const before = await planOfWaitingCheck(h.db, dialect, h.store);
      await sql`delete from kysely_migration where name = '033_unassigned_leads_index'`.execute(h.db);
      await migrate(h.db, dialect);
      const after = await planOfWaitingCheck(h.db, dialect, h.store);
      expect(after, `before: ${before}\nafter: ${after}`).toMatch(/leads_unassigned/);
    } finally {
      await h.close();
    }
  });
});
