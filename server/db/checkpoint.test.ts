import fs from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../test/harness';
import { until } from '../test/until';

const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

describe('SQLite checkpoints off the server thread', () => {
  it('copies the WAL into the database file without a commit doing it, and ends with the database', async () => {
    const h = await freshDb('sqlite');
    const file = h.file!;
    await sql`create table filler (x text not null)`.execute(h.db);
    const before = size(file);
    // 6 MB in small commits: past the size that starts the worker, far below the 10,000 pages (40 MB) at which a commit would checkpoint.
    for (let i = 0; i < 60; i++) {
      await h.db.transaction().execute(async (trx) => {
        for (let j = 0; j < 25; j++) await sql`insert into filler values (${String(i * 25 + j).padEnd(4000, '.')})`.execute(trx);
      });
    }
    expect(size(file)).toBe(before);
    expect(size(`${file}-wal`)).toBeGreaterThan(6_000_000);
    // With no more commits, only the worker can grow the database file to hold them.
    await until(() => size(file) > before + 6_000_000, 'the database file holding the WAL', 20_000);
    const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(h.db);
    expect(Number(rows[0].n)).toBe(1500);
    // The worker's connection closes first: the server's, the last, checkpoints and removes the WAL.
    await h.release();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    await h.drop();
  });
});
