/** Leads search over HTTP among SEARCH_LEADS leads. */
import { openDb } from '../../server/db';
import { LEAD_SOURCE } from '../../domain/leads';
import { oneByOne, pct, request, round, say } from '../load';
import type { Results } from '../table';

export const SEARCH_LEADS = 200_000;

/** Fills the server's SQLite database up to SEARCH_LEADS leads (the sweep reuses them), then searches. */
export async function searchBench(dir: string, cookie: string, serverPort: number): Promise<Results> {
  say(`[search] filling ${SEARCH_LEADS.toLocaleString()} leads…`);
  const dbh = await openDb({ dataDir: dir });
  const reps = await dbh.db.selectFrom('users').select(['id', 'name']).where('role', '=', 'staff').execute();
  const first = ['James', 'Maria', 'Robert', 'Linda', 'Michael', 'Sarah', 'David', 'Karen', 'Chris', 'Angela', 'Kevin', 'Ashley'];
  const last = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Wilson', 'Moore', 'Taylor', 'Thomas'];
  const now = Date.now();
  const have = Number(
    (
      await dbh.db
        .selectFrom('leads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst()
    )?.n ?? 0,
  );
  for (let i = have; i < SEARCH_LEADS; i += 2000) {
    const rows = Array.from({ length: Math.min(2000, SEARCH_LEADS - i) }, (_, k) => {
      const n = i + k;
      const rep = reps[n % reps.length];
      const at = now - (SEARCH_LEADS - n) * 60_000;
      return {
        customer: `${first[n % 12]} ${last[(n * 7) % 12]} ${n}`,
        assigned_to: rep.id,
        assigned_to_name: rep.name,
        assigned_by: null,
        assigned_by_name: 'Bench',
        assigned_at: at,
        status: n % 3 ? ('closed' as const) : ('handed' as const),
        follow_up_due: at + 86_400_000,
        closed: n % 3 ? 1 : 0,
        source: LEAD_SOURCE,
        closed_at: null,
        closed_by_id: null,
        closed_by_name: null,
      };
    });
    await dbh.db.insertInto('leads').values(rows).execute();
  }
  await dbh.close();
  const queries = ['smith', 'maria', 'rep 7', 'garcia 1999', 'williams', 'no-such-name', 'an', 'thomas 12345', 'kevin', 'rep 11'];
  // Ten rounds of every query, open leads then all.
  const lat = await oneByOne(10 * queries.length * 2, (i) => {
    const q = queries[Math.floor(i / 2) % queries.length];
    return request(serverPort, 'GET', `/api/leads?open=${i % 2 ? '0' : '1'}&q=${encodeURIComponent(q)}`, cookie);
  });
  return { search_p50_ms: round(pct(lat, 50), 2), search_p95_ms: round(pct(lat, 95), 2) };
}
