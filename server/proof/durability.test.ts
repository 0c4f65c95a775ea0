import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../test/harness';
import { managerSession, startServerProcess } from '../test/process';
import { insertUser } from '../users/repo';
import { openDb } from '../db';

/**
 * A storm of assigns from many clients, the server killed with SIGKILL in the middle of it,
 * then restarted: every assign that was answered 2xx must be there once, and the rotation log,
 * the pointer and the leads must agree.
 */
describe.each(DIALECTS)('durability on %s', (dialect) => {
  it('keeps every acknowledged assign exactly once across a SIGKILL', async () => {
    const dbh = await freshDb(dialect);
    const boss = await insertUser(dbh.db, { email: 'crash.boss@dealer.test', name: 'Crash Boss', role: 'manager', onDuty: true });
    for (let i = 0; i < 8; i++) await insertUser(dbh.db, { email: `crash${i}@dealer.test`, name: `Crash ${i}`, onDuty: true });
    const cookie = await managerSession(dbh, crypto.randomBytes(32).toString('hex'), boss.id);
    const env = { DATA_DIR: dbh.dir, ...(dbh.url ? { DATABASE_URL: dbh.url } : {}) };
    await dbh.release();

    const server = await startServerProcess(env);
    const acked: { leadId: number; customer: string }[] = [];
    let stopped = false;
    let sent = 0;
    const clients = Array.from({ length: 12 }, async (_, c) => {
      for (let i = 0; !stopped; i++) {
        const customer = `Storm ${c}-${i}`;
        sent++;
        try {
          const res = await fetch(`${server.base}/api/rotation/assign`, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ customer }),
          });
          if (res.ok) acked.push({ leadId: (await res.json()).leadId, customer });
        } catch {
          return; // the server is gone
        }
      }
    });
    while (acked.length < 150) await new Promise((r) => setTimeout(r, 5));
    server.proc.kill('SIGKILL');
    stopped = true;
    await Promise.all(clients);
    await server.stop();

    const again = await startServerProcess(env);
    try {
      expect((await fetch(`${again.base}/healthz`)).status).toBe(200);
      const check = await openDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      try {
        const leads = await check.db.selectFrom('leads').select(['id', 'customer', 'assigned_to']).execute();
        const logs = await check.db.selectFrom('rotation_log').selectAll().where('type', '=', 'assign').orderBy('id').execute();
        const state = await check.db.selectFrom('rotation_state').selectAll().executeTakeFirstOrThrow();
        const byId = new Map(leads.map((l) => [Number(l.id), l]));
        for (const a of acked) expect(byId.get(a.leadId)?.customer, `acknowledged lead ${a.leadId}`).toBe(a.customer);
        expect(new Set(leads.map((l) => l.customer)).size, 'no customer stored twice').toBe(leads.length);
        expect(leads.length).toBeGreaterThanOrEqual(acked.length);
        expect(leads.length).toBeLessThanOrEqual(sent);
        // Each lead has exactly one assign entry, naming the same salesman, and the pointer is the last entry's.
        expect(logs).toHaveLength(leads.length);
        for (const l of logs) expect(byId.get(Number(l.lead_id))?.assigned_to).toBe(l.target_id);
        expect(state.pointer_pos).toBe(logs.at(-1)!.pointer_pos_after);
      } finally {
        await check.close();
      }
    } finally {
      await again.stop();
      await dbh.drop();
    }
  }, 120_000);
});

