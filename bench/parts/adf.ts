/** ADF intake under attack: other users' latency while one API key sends its worst documents. */
import { freshDb } from '../../server/test/harness';
import { createKey } from '../../server/intake/service';
import { FIRST_STORE_ID } from '../../server/users/repo';
import { openLoopReaders, pct, round, say, SECONDS, send } from '../load';
import { seed, startServer } from '../server';
import type { Results } from '../table';

/**
 * The worst documents one key can send, each about 1 MB: ~900 kB of bare "& " in elements under
 * the text limit (read as "&amp;" it would be 2.8 MB), nesting 140,000 deep, the largest document
 * just inside every limit, and 90,000 attributes on one element.
 */
function worstDocuments() {
  const head = '<adf><prospect><customer><contact><name part="full">Worst Case</name></contact></customer>';
  const attrs = (n: number) => Array.from({ length: n }, (_, i) => `a${i}="x"`).join(' ');
  const ampersands = `${head}${`<c>${'& '.repeat(15_000)}</c>`.repeat(30)}</prospect></adf>`;
  const deep = `<adf><prospect>${'<x>'.repeat(140_000)}${'</x>'.repeat(140_000)}</prospect></adf>`;
  const inside = `${head}${`<x ${attrs(10)}>${'q'.repeat(150)}</x>`.repeat(199)}${`<y>${'q'.repeat(340)}</y>`.repeat(2790)}</prospect></adf>`;
  const refused = `<adf><prospect><id ${attrs(90_000)}>1</id></prospect></adf>`;
  return [ampersands, deep, inside, refused];
}

/** Sends one ADF document with the key; its status and a 429's Retry-After. */
const post = (port: number, key: string, doc: string) =>
  send(port, 'POST', '/api/v1/leads', { 'x-api-key': key, 'content-type': 'application/x-adf+xml' }, doc);

/** How many requests the hostile key keeps in flight. */
const ATTACKERS = 4;

/**
 * Other users' latency (reading the rotation, 100 a second) alone, then while one API key sends
 * its worst ADF documents as fast as its allowance lets: ATTACKERS requests in flight, each
 * waiting as a 429's Retry-After says (at most a second) before trying again.
 */
export async function adfBench(): Promise<Results> {
  const dbh = await freshDb('sqlite');
  const { cookie } = await seed(dbh);
  const { key } = await createKey(dbh.db, FIRST_STORE_ID, 'Hostile feed', 'bench');
  const warm = await createKey(dbh.db, FIRST_STORE_ID, 'Warm-up feed', 'bench');
  await dbh.release();
  const server = await startServer({ DATA_DIR: dbh.dir });
  // A server that has been running a while: the parser and the routes are warm.
  for (const doc of [...worstDocuments(), ...worstDocuments()]) {
    await post(server.port, warm.key, doc);
  }
  say(`[adf] other users alone, ${SECONDS} s…`);
  const alone = await openLoopReaders(server.port, cookie);
  say(`[adf] other users while one key sends its worst ADF documents as fast as its allowance lets, ${SECONDS} s…`);
  const docs = worstDocuments();
  const statuses: Record<number, number> = {};
  const docTimes: number[] = [];
  let sending = true;
  let n = 0;
  const attacker = async () => {
    while (sending) {
      const t0 = performance.now();
      const { status, retryAfter } = await post(server.port, key, docs[n++ % docs.length]);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status !== 429) docTimes.push(performance.now() - t0);
      else await new Promise((r) => setTimeout(r, Math.min(Math.max(retryAfter, 0.05) * 1000, 1000)));
    }
  };
  const sender = Promise.all(Array.from({ length: ATTACKERS }, attacker));
  const attacked = await openLoopReaders(server.port, cookie);
  sending = false;
  await sender;
  await server.stop();
  await dbh.drop();
  say(`[adf] answers to the hostile key: ${JSON.stringify(statuses)}`);
  return {
    adf_others_alone_p99_ms: round(alone.p99, 2),
    adf_others_attacked_p99_ms: round(attacked.p99, 2),
    adf_others_attacked_max_ms: round(attacked.max, 2),
    adf_worst_doc_p50_ms: round(pct(docTimes, 50), 2),
    adf_worst_doc_max_ms: round(Math.max(...docTimes), 2),
  };
}
