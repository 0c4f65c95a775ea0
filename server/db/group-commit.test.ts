import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../test/harness';
import { GROUP, withRotationLock } from '.';

/**
 * SQLite's rotation transactions that wait for the write lock run together under one commit,
 * each under a savepoint of its own (index.ts immediate): a reader on another connection sees
 * what each one wrote by the time its caller hears, and one that fails takes only itself back.
 */
describe('transactions that wait commit together on sqlite', () => {
  let h: Awaited<ReturnType<typeof freshDb>>;
  let outside: SQLite.Database;

  beforeAll(async () => {
    h = await freshDb('sqlite');
    outside = new SQLite(h.file!, { readonly: true });
  });
  afterAll(async () => {
    outside.close();
    await h.close();
  });

  /** What another connection sees committed of the keys that start with `prefix`. */
  const committed = (prefix: string) =>
    (outside.prepare('select key from settings where key like ? order by key').all(`${prefix}%`) as { key: string }[]).map((r) => r.key);
  const key = (prefix: string, i: number) => `${prefix}${String(i).padStart(2, '0')}`;
  const put = (prefix: string, i: number) =>
    withRotationLock(h, async (trx) => {
      const seen = committed(prefix).length;
      await trx
        .insertInto('settings')
        .values({ key: key(prefix, i), value: 'x' })
        .execute();
      return seen;
    });

  it('run in arrival order, share commits, and each caller hears only once his write is committed', async () => {
    // What another connection showed each caller when he heard: his own write must be there.
    const heard: { mine: string; rows: string[] }[] = [];
    const seen = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        put('a', i).then((n) => {
          heard.push({ mine: key('a', i), rows: committed('a') });
          return n;
        }),
      ),
    );
    expect(committed('a')).toEqual(Array.from({ length: 40 }, (_, i) => key('a', i)));
    // Each saw only what came before it committed, and some saw less: they shared a commit.
    seen.forEach((n, i) => expect(n).toBeLessThanOrEqual(i));
    expect(seen.filter((n, i) => n < i).length).toBeGreaterThan(0);
    // A group holds at most GROUP: the one after it saw the whole first group committed.
    expect(seen[GROUP]).toBeGreaterThanOrEqual(GROUP);
    expect(heard).toHaveLength(40);
    for (const h of heard) expect(h.rows).toContain(h.mine);
  });

  it('one that throws is taken back alone and its caller hears why', async () => {
    const tries = Array.from({ length: 5 }, (_, i) =>
      withRotationLock(h, async (trx) => {
        await trx
          .insertInto('settings')
          .values({ key: key('b', i), value: 'x' })
          .execute();
        if (i === 2) throw new Error('refused');
        return i;
      }),
    );
    const settled = await Promise.allSettled(tries);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([0, 1, 'refused', 3, 4]);
    expect(committed('b')).toEqual([0, 1, 3, 4].map((i) => key('b', i)));
  });

  it('one that changed more than 64 KB before it threw is taken back from memory, the others kept', async () => {
    // Past 64 KB SQLite spilt what a savepoint needs to roll back to a temporary file; here it stays in memory.
    expect((await sql<{ temp_store: number }>`pragma temp_store`.execute(h.db)).rows).toEqual([{ temp_store: 2 }]);
    const big = 'x'.repeat(4000);
    const tries = Array.from({ length: 3 }, (_, i) =>
      withRotationLock(h, async (trx) => {
        await trx
          .insertInto('settings')
          .values(Array.from({ length: 40 }, (_, k) => ({ key: key(`d${i}.`, k), value: big })))
          .execute();
        if (i === 1) throw new Error('refused');
        return i;
      }),
    );
    const settled = await Promise.allSettled(tries);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([0, 'refused', 2]);
    expect(committed('d0.')).toHaveLength(40);
    expect(committed('d1.')).toEqual([]);
    expect(committed('d2.')).toHaveLength(40);
  });

  it('a commit that fails fails every caller in its group, and keeps nothing', async () => {
    const good = put('c', 1);
    // Checked only at the commit: a mapping to a store that does not exist.
    const bad = withRotationLock(h, async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      await trx
        .insertInto('dealer_stores')
        .values({ dealer_key: 'nowhere', dealer: 'Nowhere Motors', store_id: 999, created_by: 'test', created_at: 0 })
        .execute();
    });
    const settled = await Promise.allSettled([good, bad]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    expect(committed('c')).toEqual([]);
    expect(await h.db.selectFrom('dealer_stores').select('dealer').execute()).toEqual([]);
    // The lock is free again and the next transaction commits on its own.
    await put('c', 2);
    expect(committed('c')).toEqual([key('c', 2)]);
  });
});
