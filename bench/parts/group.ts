/**
 * A dealer group on one PostgreSQL behind two app servers: GROUP_MANAGERS group managers assign
 * spread evenly over GROUP_STORES stores of GROUP_SALESMEN salesmen each, next to the same
 * managers on the same servers all assigning in one store (the single-store rate of this run).
 */
import fs from 'node:fs';
import { freshDb } from '../../server/test/harness';
import type { Store } from '../../domain/stores';
import { loadBy, round, say, SECONDS, send } from '../load';
import { seedGroup, startServer } from '../server';
import type { Results } from '../table';

export const GROUP_STORES = 50;
export const GROUP_SALESMEN = 12;
export const GROUP_MANAGERS = 32;
export const APP_SERVERS = 2;

/** CPU seconds (user and system) a process has used so far; 0 once it is gone. */
function cpuSeconds(pid: number) {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in ticks of 1/100 s.
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL processes serving database `name` (its connections' backends; not other databases' on a shared server). */
const backendsOf = (name: string) =>
  fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return cmd.startsWith('postgres: ') && cmd.includes(` ${name} `);
      } catch {
        return false;
      }
    });

/** The CPU seconds the whole machine has been busy so far (/proc/stat's first line: all but idle and iowait, in ticks of 1/100 s). */
function machineBusy() {
  const [, ...xs] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return (xs.reduce((a, b) => a + b, 0) - xs[3] - xs[4]) / 100;
}

/**
 * Where the cores went while `run` ran, in cores: each app server's share, PostgreSQL's (the
 * backends of database `db` that lived through it), this process (the load generator), and the
 * whole machine's (others' work on a shared machine shows as the difference).
 */
async function cpuWhile<T>(servers: number[], db: string, run: () => Promise<T>) {
  const pg = backendsOf(db);
  const sample = () => ({ servers: servers.map(cpuSeconds), pg: pg.map(cpuSeconds), me: process.cpuUsage(), machine: machineBusy(), at: performance.now() });
  const a = sample();
  const out = await run();
  const b = sample();
  const secs = (b.at - a.at) / 1000;
  const cores = (x: number) => round(x / secs, 2);
  return {
    out,
    servers: b.servers.map((x, i) => cores(x - a.servers[i])),
    postgres: cores(b.pg.reduce((s, x, i) => s + (x ? x - a.pg[i] : 0), 0)),
    generator: cores((b.me.user + b.me.system - a.me.user - a.me.system) / 1e6),
    machine: cores(b.machine - a.machine),
  };
}

export async function groupBench(): Promise<Results> {
  const dbh = await freshDb('postgres');
  say(`[group] ${GROUP_STORES} stores × ${GROUP_SALESMEN} salesmen on the floor, ${GROUP_MANAGERS} group managers…`);
  const { stores, cookies } = await seedGroup(dbh, { stores: GROUP_STORES, salesmen: GROUP_SALESMEN, managers: GROUP_MANAGERS });
  await dbh.release();
  const env = { DATA_DIR: dbh.dir, DATABASE_URL: dbh.url ?? '' };
  const database = new URL(env.DATABASE_URL).pathname.slice(1);
  const servers = await Promise.all(Array.from({ length: APP_SERVERS }, () => startServer(env)));
  let n = 0;
  /** Manager m's assign in `store`, through his app server (half the managers on each, as behind a load balancer). */
  const assign = async (m: number, store: Store) => {
    const headers = { cookie: cookies[m], 'content-type': 'application/json', 'x-store': store.code };
    return (await send(servers[m % APP_SERVERS].port, 'POST', '/api/rotation/assign', headers, JSON.stringify({ customer: `Group ${n++}` }))).status;
  };
  /** Every manager assigns back to back for SECONDS; his k-th request goes to the store `storeOf(m, k)` names. */
  const measure = async (storeOf: (m: number, k: number) => Store) => {
    const sent = Array.from({ length: GROUP_MANAGERS }, () => 0);
    const r = await cpuWhile(
      servers.map((s) => s.proc.pid ?? 0),
      database,
      () => loadBy(GROUP_MANAGERS, (m) => assign(m, storeOf(m, sent[m]++))),
    );
    if (r.out.errors) throw new Error(`[group] ${r.out.errors} assigns were refused`);
    say(
      `[group]   ${round(r.out.rps, 0)}/s, p50 ${round(r.out.p50, 2)} ms, p99 ${round(r.out.p99, 2)} ms; cores busy: app servers ${r.servers.join(' + ')}, PostgreSQL ${r.postgres}, load generator ${r.generator}, machine ${r.machine}`,
    );
    return r.out;
  };
  try {
    // Warm: each app server has read every store's rules and run its routes a while (managers 2i and 2i + 1 are on different servers).
    for (let pass = 0; pass < 3; pass++) {
      await Promise.all(stores.flatMap((s, i) => Array.from({ length: APP_SERVERS }, (_, k) => assign((APP_SERVERS * i + k) % GROUP_MANAGERS, s))));
    }
    say(`[group] one store: all ${GROUP_MANAGERS} managers assign in ${stores[0].code} through ${APP_SERVERS} app servers, ${SECONDS} s…`);
    const one = await measure(() => stores[0]);
    say(`[group] the group: the same managers spread evenly over the ${GROUP_STORES} stores, ${SECONDS} s…`);
    // Manager m starts at store m and goes round all of them: at any moment they are in different stores.
    const group = await measure((m, k) => stores[(m + k) % stores.length]);
    return {
      assign_group_rps: round(group.rps, 0),
      assign_group_p50_ms: round(group.p50, 2),
      assign_group_p99_ms: round(group.p99, 2),
      assign_group_one_store_rps: round(one.rps, 0),
      assign_group_one_store_p99_ms: round(one.p99, 2),
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await dbh.drop();
  }
}
