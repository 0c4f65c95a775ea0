/** Assign on SQLite or PostgreSQL: over HTTP with 16 managers, next to the same transaction on the database and a trivial route. */
import fs from 'node:fs';
import { atStore, type DbHandle } from '../../server/db';
import { freshDb } from '../../server/test/harness';
import { assignNext } from '../../server/rotation/service';
import { FIRST_STORE_ID } from '../../server/users/repo';
import { concurrently, CONCURRENCY, load, round, say, SECONDS, warmLoad } from '../load';
import { seed, startServer } from '../server';
import type { Results } from '../table';

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

/**
 * The same assign transaction run directly on the database, CONCURRENCY at a time, in the first store: the ceiling.
 * `stepwise` runs PostgreSQL's statement-by-statement transaction (before the one-call function).
 */
async function dbCeiling(dbh: DbHandle, stepwise = false) {
  let n = 0;
  const secs = await concurrently(async () => {
    await assignNext(atStore(dbh, FIRST_STORE_ID), `Ceiling ${n}`, { id: null, name: 'Bench' }, { stepwise });
    n++;
  });
  return n / secs;
}

/** Measures, and leaves the server running with its seeded database for the parts that follow on it. */
export async function assignBench(kind: 'sqlite' | 'postgres') {
  const dbh = await freshDb(kind);
  const { dir, url } = dbh;
  const { cookie, viewers } = await seed(dbh);
  say(`[${kind}] database ceiling: the assign transaction directly, ${CONCURRENCY} at a time, ${SECONDS} s…`);
  const ceiling = await dbCeiling(dbh);
  let stepwise = NaN;
  if (kind === 'postgres') {
    say(`[${kind}] the same, statement by statement as before the one-call function, ${SECONDS} s…`);
    stepwise = await dbCeiling(dbh, true);
  }
  await dbh.release();

  const server = await startServer({ DATA_DIR: dir, ...(url ? { DATABASE_URL: url } : {}) });
  await new Promise((r) => setTimeout(r, 500));
  const idle = rssMb(server.proc.pid!);
  say(`[${kind}] trivial route over HTTP, ${CONCURRENCY} clients, ${SECONDS} s…`);
  const trivial = await load(server.port, 'GET', '/readyz', cookie);
  say(`[${kind}] assign over HTTP, ${CONCURRENCY} managers, ${SECONDS} s after ${SECONDS} s unmeasured…`);
  let peak = 0;
  let i = 0;
  const assign = await warmLoad(
    server.port,
    'POST',
    '/api/rotation/assign',
    cookie,
    () => JSON.stringify({ customer: `Bench ${i++}` }),
    () => {
      peak = Math.max(peak, rssMb(server.proc.pid!));
    },
  );
  const results: Results = {
    [`assign_${kind}_rps`]: round(assign.rps, 0),
    [`assign_${kind}_p50_ms`]: round(assign.p50, 2),
    [`assign_${kind}_p99_ms`]: round(assign.p99, 2),
    [`assign_${kind}_first_rps`]: round(assign.first.rps, 0),
    [`assign_${kind}_ceiling_rps`]: round(ceiling, 0),
    ...(kind === 'postgres'
      ? { assign_postgres_stepwise_ceiling_rps: round(stepwise, 0), http_ceiling_postgres_rps: round(trivial.rps, 0) }
      : { http_ceiling_rps: round(trivial.rps, 0), rss_idle_mb: round(idle), rss_load_mb: round(peak) }),
  };
  return { results, port: server.port, cookie, viewers, dir, stop: server.stop, drop: dbh.drop };
}
