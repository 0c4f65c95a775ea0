import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../test/harness';
import { managerSession, startServerProcess } from '../test/process';
import { insertUser } from '../users/repo';
import { openDb } from '../db';
import { createKey } from '../intake/service';

/**
 * A storm of assigns from many clients, the server killed with SIGKILL in the middle of it,
 * then restarted: every assign that was answered 2xx must be there once, and the rotation log,
 * the pointer and the leads must agree.
 */
/** Rejects when every client has given up: the load ended before what the test waits for. */
const stalled = (clients: Promise<void>[], why: string) =>
  Promise.all(clients).then(() => {
    throw new Error(why);
  });

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
    let enough = () => {};
    const enoughAcked = new Promise<void>((r) => (enough = r));
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
          if (acked.length >= 150) enough();
        } catch {
          return; // the server is gone
        }
      }
    });
    await Promise.race([enoughAcked, stalled(clients, 'the clients stopped before 150 assigns were acknowledged')]);
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

/**
 * A burst of intake posts, each with its own Idempotency-Key, the server killed with SIGKILL in
 * the middle of it, then restarted: retrying every request with its key makes exactly one lead
 * per key, including the requests the dead server had claimed but not finished (after the lease).
 */
describe.each(DIALECTS)('intake durability on %s', (dialect) => {
  it('after a SIGKILL, every retry with the same Idempotency-Key makes exactly one lead', async () => {
    const dbh = await freshDb(dialect);
    for (let i = 0; i < 4; i++) await insertUser(dbh.db, { email: `feed.rep${i}@dealer.test`, name: `Feed Rep ${i}` });
    // One key per client; each sends and then retries more than the per-key burst, which is not what this tests.
    const keys: string[] = [];
    for (let c = 0; c < 8; c++) keys.push((await createKey(dbh.db, 1, `Feed ${c}`, 'test')).key);
    const env = { DATA_DIR: dbh.dir, INTAKE_LEASE_SECONDS: '1', INTAKE_BURST: '10000', ...(dbh.url ? { DATABASE_URL: dbh.url } : {}) };
    await dbh.release();

    const post = (base: string, c: number, idem: string) =>
      fetch(`${base}/api/v1/leads`, {
        method: 'POST',
        headers: { 'x-api-key': keys[c], 'idempotency-key': idem, 'content-type': 'application/json' },
        body: JSON.stringify({ customer: `Burst ${idem}`, phone: '555-0100' }),
      });
    const server = await startServerProcess(env);
    const sent: { c: number; idem: string }[] = [];
    const acked = new Map<string, number>();
    let enough = () => {};
    const enoughAcked = new Promise<void>((r) => (enough = r));
    let stopped = false;
    const clients = keys.map(async (_, c) => {
      for (let i = 0; !stopped; i++) {
        const idem = `burst-${c}-${i}`;
        sent.push({ c, idem });
        try {
          const res = await post(server.base, c, idem);
          if (res.status === 201) acked.set(idem, (await res.json()).leads[0].id);
          if (acked.size >= 60) enough();
        } catch {
          return; // the server is gone
        }
      }
    });
    await Promise.race([enoughAcked, stalled(clients, 'the clients stopped before 60 leads were acknowledged')]);
    server.proc.kill('SIGKILL');
    stopped = true;
    await Promise.all(clients);
    await server.stop();

    const again = await startServerProcess(env);
    try {
      for (const { c, idem } of sent) {
        // A claim the dead server held answers 409 until its lease ends; then this retry does it.
        let res = await post(again.base, c, idem);
        const deadline = Date.now() + 30_000;
        while (res.status === 409 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          res = await post(again.base, c, idem);
        }
        expect(res.status, idem).toBe(201);
        const lead = (await res.json()).leads[0];
        expect(lead.customer).toBe(`Burst ${idem}`);
        if (acked.has(idem)) expect(lead.id, `acknowledged ${idem}`).toBe(acked.get(idem));
      }
      const check = await openDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      try {
        const leads = await check.db.selectFrom('leads').select('customer').execute();
        expect(leads.map((l) => l.customer).sort()).toEqual(sent.map((s) => `Burst ${s.idem}`).sort());
      } finally {
        await check.close();
      }
    } finally {
      await again.stop();
      await dbh.drop();
    }
  }, 120_000);
});
