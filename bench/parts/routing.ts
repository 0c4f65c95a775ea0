/** Assign through routing rules: 20 rules and 4 teams in the store, over HTTP with 16 managers, beside the plain assign. */
import { type DbHandle } from '../../server/db';
import { freshDb } from '../../server/test/harness';
import { FIRST_STORE_ID } from '../../server/users/repo';
import { DEFAULT_RULES } from '../../domain/rules';
import type { RoutingRule } from '../../domain/routing';
import { LEAD_SOURCE } from '../../domain/leads';
import { CONCURRENCY, load, round, say, SECONDS, warmLoad } from '../load';
import { analyzeSeeded, seed, startServer } from '../server';
import type { Results } from '../table';

const TEAMS = ['New', 'Used', 'BDC', 'Spanish'];

/**
 * Four teams of three (the seed's twelve on the floor, each in one team and the whole floor's
 * line); nineteen rules a walk-in does not meet (each read in turn) and a twentieth sending it to
 * the BDC team, so every assign reads all twenty, serves a team's line and puts its salesman at
 * the back of the floor's.
 */
async function routed(dbh: DbHandle) {
  const reps = await dbh.db.selectFrom('users').select('id').where('role', '=', 'staff').orderBy('email').execute();
  const teams: number[] = [];
  for (const [t, name] of TEAMS.entries()) {
    const row = await dbh.db.insertInto('teams').values({ store_id: FIRST_STORE_ID, name, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
    teams.push(Number(row.id));
    const members = reps.slice(t * 3, t * 3 + 3);
    await dbh.db
      .insertInto('team_members')
      .values(members.map((m, i) => ({ team_id: Number(row.id), user_id: m.id, position: i + 1, created_at: Date.now() })))
      .execute();
  }
  const misses: RoutingRule[] = Array.from({ length: 19 }, (_, i) => ({
    name: `Rule ${i + 1}`,
    when: [{ language: 'fr' }, { make: `Make ${i}` }, { keyword: `word ${i}` }, { condition: 'used' as const }][i % 4],
    to: { team: teams[i % 4] },
    grab: null,
  }));
  const rules = {
    ...DEFAULT_RULES,
    routing: {
      rules: [...misses, { name: 'Walk-ins', when: { source: LEAD_SOURCE }, to: { team: teams[2] }, grab: null }],
      fallback: { floor: true as const },
      backOfEveryLine: true,
    },
  };
  await dbh.db
    .updateTable('stores')
    .set({ rules: JSON.stringify(rules) })
    .where('id', '=', FIRST_STORE_ID)
    .execute();
  await analyzeSeeded(dbh);
}

/** The same store's assign over HTTP, first plain (the baseline, in the same run), then with its teams and rules. */
export async function routingBench(kind: 'sqlite' | 'postgres'): Promise<Results> {
  const dbh = await freshDb(kind);
  const { cookie } = await seed(dbh);
  const env = { DATA_DIR: dbh.dir, ...(dbh.url ? { DATABASE_URL: dbh.url } : {}) };
  let i = 0;
  /** `pace`: the trivial route first, the machine's own pace in this run (a shared machine's HTTP rate moves twofold from day to day). */
  const run = async (what: string, pace = false) => {
    const server = await startServer(env);
    await new Promise((r) => setTimeout(r, 500));
    if (pace) say(`[${kind}] trivial route over HTTP, ${CONCURRENCY} clients, ${SECONDS} s…`);
    const trivial = pace ? (await load(server.port, 'GET', '/readyz', cookie)).rps : 0;
    say(`[${kind}] assign ${what} over HTTP, ${CONCURRENCY} managers, ${SECONDS} s after ${SECONDS} s unmeasured…`);
    const r = await warmLoad(server.port, 'POST', '/api/rotation/assign', cookie, () => JSON.stringify({ customer: `Routed ${i++}` }));
    await server.stop();
    return { ...r, trivial };
  };
  const plain = await run('with no teams or rules', true);
  await routed(dbh);
  const assign = await run('through 20 routing rules and 4 teams');
  await dbh.release();
  await dbh.drop();
  return {
    [`routing_${kind}_rps`]: round(assign.rps, 0),
    [`routing_${kind}_p50_ms`]: round(assign.p50, 2),
    [`routing_${kind}_p99_ms`]: round(assign.p99, 2),
    [`routing_${kind}_first_rps`]: round(assign.first.rps, 0),
    [`routing_${kind}_plain_rps`]: round(plain.rps, 0),
    [`routing_${kind}_trivial_rps`]: round(plain.trivial, 0),
  };
}
