import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { freshDb, HEALTH_TOKEN, healthAuth } from '../test/harness';
import { managerSession, startServerProcess } from '../test/process';
import { openEvents } from '../test/sse';
import { insertUser } from '../users/repo';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

async function portal() {
  const dbh = await freshDb('sqlite');
  const boss = await insertUser(dbh.db, { email: 'ops.boss@dealer.test', name: 'Ops Boss', role: 'manager', onDuty: true });
  for (let i = 0; i < 4; i++) await insertUser(dbh.db, { email: `ops${i}@dealer.test`, name: `Ops ${i}`, onDuty: true });
  const cookie = await managerSession(dbh, crypto.randomBytes(32).toString('hex'), boss.id);
  await dbh.release();
  const server = await startServerProcess({ DATA_DIR: dbh.dir, HEALTH_TOKEN });
  const assign = (customer: string) =>
    fetch(`${server.base}/api/rotation/assign`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ customer }),
    });
  return { dbh, server, cookie, assign };
}

describe('operations', () => {
  it('answers health and readiness, and on SIGTERM finishes requests in flight, closes event streams and exits', async () => {
    const { dbh, server, cookie, assign } = await portal();
    try {
      const details = { ok: true, database: 'sqlite', outbox: { waiting: 0, oldestWaitingMs: 0 } };
      expect(await (await fetch(`${server.base}/healthz`)).json()).toEqual({ ok: true });
      expect(await (await fetch(`${server.base}/healthz`, { headers: healthAuth })).json()).toEqual(details);
      expect(await (await fetch(`${server.base}/healthz`, { headers: { cookie } })).json()).toEqual(details);
      expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
      const stream = await openEvents(`${server.base}/api/events`, cookie);
      await stream.next('hello');
      const inFlight = Array.from({ length: 30 }, (_, i) =>
        assign(`Last orders ${i}`).then(
          (r) => r.status,
          () => 'refused',
        ),
      );
      // The signal comes while the server is at work: one answer is back, the rest in flight or queued.
      await Promise.race(inFlight);
      const code = await server.stop('SIGTERM');
      const answers = await Promise.all(inFlight);
      expect(code).toBe(0);
      // Every request the server took was finished; later ones were refused at the door (503 or no
      // connection), none was cut off half-way.
      expect(answers.filter((a) => a !== 200 && a !== 503 && a !== 'refused')).toEqual([]);
      expect(answers.filter((a) => a === 200).length).toBeGreaterThan(0);
      const db = new SQLite(path.join(dbh.dir, 'portal.sqlite'), { readonly: true });
      expect((db.prepare('select count(*) as n from leads').get() as { n: number }).n).toBe(answers.filter((a) => a === 200).length);
      db.close();
    } finally {
      await server.stop();
      await dbh.drop();
    }
  }, 60_000);

  it('npm run backup writes a consistent copy while the portal keeps writing', async () => {
    const { dbh, server, assign } = await portal();
    try {
      let writing = true;
      let written = 0;
      let twenty = () => {};
      const twentyWritten = new Promise<void>((r) => (twenty = r));
      const writer = (async () => {
        while (writing) {
          if ((await assign(`Backup ${written}`)).ok) written++;
          if (written >= 20) twenty();
        }
      })();
      await twentyWritten;
      const file = path.join(dbh.dir, 'copy.sqlite');
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'backup', file], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dbh.dir },
      });
      writing = false;
      await writer;
      expect(stdout).toContain(`Backup written to ${file}`);
      const copy = new SQLite(file, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const leads = (copy.prepare('select count(*) as n from leads').get() as { n: number }).n;
      const logs = (copy.prepare("select count(*) as n from rotation_log where type = 'assign'").get() as { n: number }).n;
      expect(leads).toBeGreaterThanOrEqual(20);
      expect(logs).toBe(leads);
      copy.close();
    } finally {
      await server.stop();
      await dbh.drop();
    }
  }, 60_000);
});
