/** The hand-on sweep's question among SEARCH_LEADS open leads all waiting for an Accept, 20 of them overdue. */
import { sql } from 'kysely';
import { openDb } from '../../server/db';
import { firstOverdue, sqlEnv } from '../../server/rotation/service';
import { FIRST_STORE_ID } from '../../server/users/repo';
import { oneByOne, pct, round, say } from '../load';
import type { Results } from '../table';
import { SEARCH_LEADS } from './search';

/** On the search part's database, with its server stopped: its own sweep would hand the overdue leads on mid-measure. */
export async function sweepBench(dir: string): Promise<Results> {
  say(`[sweep] ${SEARCH_LEADS.toLocaleString()} open leads waiting for an Accept…`);
  const dbh = await openDb({ dataDir: dir });
  const now = Date.now();
  await dbh.db
    .updateTable('leads')
    .set((eb) => ({ closed: 0, status: 'handed', offered_at: eb.ref('assigned_at'), accepted_at: null, accept_due: sql<number>`${now} + 600000 + id` }))
    .execute();
  // Twenty leads with a salesman (the assign runs before left some waiting in Unassigned) are overdue.
  await dbh.db
    .updateTable('leads')
    .set({ accept_due: now - 1000 })
    .where('id', 'in', (eb) => eb.selectFrom('leads').select('id').where('assigned_to', '!=', '').orderBy('id').limit(20))
    .execute();
  const lat = await oneByOne(300, async () => {
    const lead = await firstOverdue(dbh.db, FIRST_STORE_ID, sqlEnv(new Date(now), { holdOut: false }));
    if (!lead) throw new Error('the sweep found no overdue lead');
  });
  await dbh.close();
  return { sweep_p50_ms: round(pct(lat, 50), 2), sweep_p95_ms: round(pct(lat, 95), 2) };
}
