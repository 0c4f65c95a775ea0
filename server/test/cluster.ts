import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './process';

/** PostgreSQL's own programs (initdb, pg_ctl), where this machine has them; null where not. */
function binDir(): string | null {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  } catch {
    /* no pg_config on the PATH */
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.map((v) => path.join(root, v, 'bin')).find((d) => fs.existsSync(path.join(d, 'pg_ctl'))) ?? null;
}

const BIN = binDir();
/** PostgreSQL refuses to run as root: there its programs run as the postgres user. */
const AS_ROOT = process.getuid?.() === 0;
const run = (program: string, args: string[]) => {
  const [cmd, argv] = AS_ROOT ? ['runuser', ['-u', 'postgres', '--', path.join(BIN!, program), ...args]] : [path.join(BIN!, program), args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${program} ${args.join(' ')} failed: ${r.stderr || r.stdout || r.error?.message}`);
};

export const CLUSTER_AVAILABLE = (() => {
  // The quick loop skips PostgreSQL on purpose (harness.ts says so once).
  if (process.env.TEST_DATABASE === 'sqlite') return false;
  if (!BIN) {
    console.warn('\n!!! PostgreSQL programs (initdb, pg_ctl) were not found: the database fault test is SKIPPED.\n');
    return false;
  }
  return true;
})();

export interface Cluster {
  url: string;
  /** Ends every connection to the database but the caller's; how many it ended. */
  terminate: () => Promise<number>;
  stop: () => void;
  start: () => void;
  /** Stops the cluster and removes its folder. */
  destroy: () => void;
}

/**
 * A PostgreSQL cluster of the test's own in a temporary folder, on a port of its own, so the test
 * may cut its connections, stop and start it without disturbing any other test's database.
 */
export async function startCluster(): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-cluster-'));
  if (AS_ROOT) execFileSync('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    start,
    stop,
    async terminate() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // Materialised first: the planner may otherwise end this very connection before its filter runs.
        const { rows } = await client.query<{ pid: number }>(
          `with others as materialized (select pid from pg_stat_activity where pid <> pg_backend_pid() and datname = current_database())
           select pid from others where pg_terminate_backend(pid)`,
        );
        return rows.length;
      } finally {
        await client.end();
      }
    },
    destroy() {
      try {
        stop();
      } catch {
        /* already stopped */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
