import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../test/harness';
import { planOf } from '../test/plans';
import type { DbHandle } from './index';
import { claim, dueIds, PENDING } from './rounds';

const NOW = 1_800_000_000_000;

/** Mail rows as the sender leaves them: `sent` already sent, then the ones still to go. */
async function outbox(h: DbHandle, sent: number, rows: { next_at: number; lease_until: number | null }[]) {
  const row = (r: { next_at: number; lease_until: number | null }, state: 'waiting' | 'sent') => ({
    kind: 'lead' as const,
    recipient: 'rep@dealer.test',
    body: 'x'.repeat(800),
    state,
    attempts: 0,
    expires_at: NOW + 86_400_000,
    last_error: null,
    created_at: NOW,
    done_at: null,
    ...r,
  });
  for (let from = 0; from < sent; from += 500) {
    await h.db
      .insertInto('outbox')
      .values(Array.from({ length: Math.min(500, sent - from) }, () => row({ next_at: NOW, lease_until: null }, 'waiting')))
      .execute();
  }
  // Sent the way the sender marks them: an update of each waiting row, which leaves its old version behind until a vacuum.
  await h.db.updateTable('outbox').set({ state: 'sent', done_at: NOW, body: '' }).execute();
  const ids: number[] = [];
  for (const r of rows) ids.push(Number((await h.db.insertInto('outbox').values(row(r, 'waiting')).returning('id').executeTakeFirstOrThrow()).id));
  return ids;
}

describe.each(DIALECTS)('a job round on %s', (dialect) => {
  it('takes the rows that wait and are due, oldest first, past those leased or later', async () => {
    const h = await freshDb(dialect);
    try {
      const [due, leased, later, lapsed] = await outbox(h, 1000, [
        { next_at: NOW - 1, lease_until: null },
        { next_at: NOW - 1, lease_until: NOW + 1 },
        { next_at: NOW + 1, lease_until: null },
        { next_at: NOW, lease_until: NOW - 1 },
      ]);
      expect(leased).toBeGreaterThan(due);
      expect(later).toBeGreaterThan(leased);
      const ids = (await dueIds(h, 'outbox', NOW, 10).execute()).map((r) => Number(r.id));
      expect(ids).toEqual([due, lapsed]);
      expect((await dueIds(h, 'outbox', NOW, 1).execute()).map((r) => Number(r.id))).toEqual([due]);
    } finally {
      await h.close();
    }
  });

  it.each(Object.keys(PENDING) as (keyof typeof PENDING)[])('asks %s by the index of its waiting rows alone', async (table) => {
    const h = await freshDb(dialect);
    try {
      // The outbox as it runs, with its planner statistics; the others as a new portal has them.
      if (table === 'outbox') await outbox(h, 2000, []);
      if (table === 'outbox' && dialect === 'postgres') await sql`analyze outbox`.execute(h.db);
      expect(await planOf(h.db, dialect, dueIds(h, table, NOW, 10))).toMatch(new RegExp(`\\b${table}_${PENDING[table]}\\b`));
    } finally {
      await h.close();
    }
  });

  it.skipIf(dialect !== 'postgres')('claims by walking the index of waiting rows, so the next round passes over the rows done', async () => {
    const h = await freshDb(dialect);
    try {
      // As a young portal has it: no planner statistics yet, and every row sent since the last vacuum still in the index.
      const [due] = await outbox(h, 3000, [{ next_at: NOW - 1, lease_until: null }]);
      // The claim's own question, asked as a round asks it.
      const pages = async () => {
        const { rows } = await claim(h, { table: 'outbox', now: NOW, batch: 10 }, (db, due) => {
          const q = due.compile();
          return db.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (analyze, buffers, format json) ${q.sql}`, [...q.parameters]));
        });
        const [{ Plan: plan }] = rows[0]['QUERY PLAN'] as { Plan: { 'Shared Hit Blocks': number } }[];
        return { plan: JSON.stringify(plan), read: plan['Shared Hit Blocks'] };
      };
      const first = await pages();
      expect(first.plan).toMatch(/"Index Scan","Parent Relationship":"Outer"[^}]*"Index Name":"outbox_waiting"/);
      expect(first.plan).not.toMatch(/Bitmap/);
      // The first walk read past the 3,000 rows sent; the next finds the one due at once.
      const next = await pages();
      expect(next.read, `first read ${first.read} pages, the next ${next.read}`).toBeLessThan(first.read / 20);
      expect((await dueIds(h, 'outbox', NOW, 10).execute()).map((r) => Number(r.id))).toEqual([due]);
    } finally {
      await h.close();
    }
  });
});
