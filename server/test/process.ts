import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import type { DbHandle } from '../db';
import { hashToken } from '../auth/tokens';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  proc: ChildProcess;
  base: string;
  port: number;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** A port nobody listens on right now, chosen by the system. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * The real portal in a process of its own, up when /healthz answers: by default the sources
 * through tsx (`node --import tsx server/main.ts`); `args` runs something else under node.
 */
export async function startServerProcess(
  env: Record<string, string>,
  fixedPort?: number,
  args: string[] = ['--import', 'tsx', 'server/main.ts'],
): Promise<ServerProcess> {
  const port = fixedPort ?? (await freePort());
  let out = '';
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.on('data', (c) => (out += c));
  proc.stderr.on('data', (c) => (out += c));
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    proc,
    base,
    port,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** A signed-in manager without the mail round trip, for load and crash tests: a session row made with the server's secret. */
export async function managerSession(dbh: DbHandle, secret: string, userId: string): Promise<string> {
  await dbh.db
    .insertInto('settings')
    .values({ key: 'session_secret', value: secret })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: secret }))
    .execute();
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  await dbh.db
    .insertInto('sessions')
    .values({ id_hash: hashToken(secret, token), sid: crypto.randomBytes(16).toString('hex'), user_id: userId, created_at: now, expires_at: now + 86_400_000 })
    .execute();
  return `bdc_session=${token}`;
}
