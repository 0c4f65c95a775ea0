/**
 * npm run bench: measures the portal on this machine and prints one table; writes bench/results.json.
 * Every figure is measured in the same run as its baseline (the database ceiling, the trivial route).
 */
import { PG_ADMIN_URL, PG_AVAILABLE } from '../server/test/harness';
import { say } from './load';
import { buildWeb } from './server';
import { lastResults, writeResults, type Results } from './table';
import { adfBench } from './parts/adf';
import { assignBench } from './parts/assign';
import { funnelBench } from './parts/funnel';
import { groupBench } from './parts/group';
import { lighthouseBench } from './parts/lighthouse';
import { liveBench } from './parts/live';
import { mailBench } from './parts/mail';
import { pagesBench } from './parts/pages';
import { pushBench } from './parts/push';
import { routingBench } from './parts/routing';
import { searchBench } from './parts/search';
import { sweepBench } from './parts/sweep';
import { webBench } from './parts/web';

/** The parts BENCH_ONLY may name, in the order they run. */
const PARTS: Record<string, () => Promise<Results>> = {
  async sqlite() {
    const sqlite = await assignBench('sqlite');
    const results = {
      ...sqlite.results,
      ...(await liveBench(sqlite.port, sqlite.cookie, sqlite.viewers)),
      ...(await searchBench(sqlite.dir, sqlite.cookie, sqlite.port)),
      ...(await webBench(sqlite.port, sqlite.cookie)),
    };
    await sqlite.stop();
    // With the server stopped: its own sweep would hand the overdue leads on mid-measure.
    Object.assign(results, await sweepBench(sqlite.dir));
    await sqlite.drop();
    return results;
  },
  adf: adfBench,
  mail: mailBench,
  push: pushBench,
  async postgres() {
    if (!PG_AVAILABLE) {
      say(`!!! PostgreSQL at ${PG_ADMIN_URL} does not answer: its rows are left out.`);
      return {};
    }
    const postgres = await assignBench('postgres');
    await postgres.stop();
    await postgres.drop();
    return postgres.results;
  },
  async group() {
    if (!PG_AVAILABLE) {
      say(`!!! PostgreSQL at ${PG_ADMIN_URL} does not answer: the group's rows are left out.`);
      return {};
    }
    return groupBench();
  },
  async funnel() {
    if (!PG_AVAILABLE) {
      say(`!!! PostgreSQL at ${PG_ADMIN_URL} does not answer: the funnel's row is left out.`);
      return {};
    }
    return funnelBench();
  },
  async routing() {
    return { ...(await routingBench('sqlite')), ...(PG_AVAILABLE ? await routingBench('postgres') : {}) };
  },
  pages: pagesBench,
  lighthouse: lighthouseBench,
};

/** BENCH_ONLY=pages,postgres runs only those parts; the others keep their last figures. */
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean);
for (const p of only) if (!Object.hasOwn(PARTS, p)) throw new Error(`BENCH_ONLY: unknown part ${p} (parts: ${Object.keys(PARTS).join(', ')})`);
const want = (p: string) => !only.length || only.includes(p);

async function main() {
  const results = lastResults();
  if (want('sqlite') || want('pages') || want('lighthouse')) await buildWeb();
  for (const [name, part] of Object.entries(PARTS)) if (want(name)) Object.assign(results, await part());
  writeResults(results, only);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
