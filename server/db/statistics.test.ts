import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../test/harness';
import { insertUser } from '../users/repo';
import { optimize } from '.';

/**
 * SQLite keeps the planner's counts (sqlite_stat1) and drops the index samples (sqlite_stat4):
 * with samples, SQLite compiles again, at every run, each statement whose parameter meets a
 * sampled index (index.ts optimize).
 */
describe('planner statistics on sqlite', () => {
  let h: Awaited<ReturnType<typeof freshDb>>;

  beforeAll(async () => {
    h = await freshDb('sqlite');
    for (let i = 0; i < 40; i++) await insertUser(h.db, { email: `rep${i}@dealer.test`, name: `Rep ${i}`, onDuty: true });
  });
  afterAll(() => h.close());

  const rows = async (table: string) => Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(h.db)).rows[0].n);

  it('keeps the counts and drops the samples a full ANALYZE wrote', async () => {
    await sql`analyze`.execute(h.db);
    expect(await rows('sqlite_stat4')).toBeGreaterThan(0);
    await optimize(h);
    expect(await rows('sqlite_stat4')).toBe(0);
    const counted = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1`.execute(h.db);
    expect(counted.rows.map((r) => r.tbl)).toEqual(expect.arrayContaining(['users', 'memberships']));
    // The portal goes on reading and writing with the counts alone.
    expect((await h.db.selectFrom('users').select('id').where('email', '=', 'rep7@dealer.test').execute()).length).toBe(1);
  });
});
