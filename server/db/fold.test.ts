import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../test/harness';
import { migrate } from './migrations';
import { foldedSql } from './fold';
import { fold } from '../../domain/text';
import { listLeads } from '../leads/service';

/** Every letter of the ranges the fold reads, upper and lower case, and a few it leaves. */
const LETTERS = (() => {
  let s = 'ASCII øæđß İ ';
  for (const [lo, hi] of [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
  ])
    for (let cp = lo; cp <= hi; cp++) s += String.fromCodePoint(cp);
  return s;
})();

describe.each(DIALECTS)('search reads names without case or accents, on %s', (dialect) => {
  it('reads every letter as domain/text.ts fold does', async () => {
    const h = await freshDb(dialect);
    try {
      const read =
        dialect === 'postgres'
          ? sql<{ f: string }>`select ${foldedSql('v')} as f from (select ${LETTERS}::text as v) t`
          : sql<{ f: string }>`select fold(${LETTERS}) as f`;
      const { rows } = await read.execute(h.db);
      expect(rows[0].f).toBe(fold(LETTERS));
    } finally {
      await h.close();
    }
  });

  it('finds a name stored before the upgrade by its letters without their accents', async () => {
    const h = await freshDb(dialect, { before: '042_search_without_accents' });
    try {
      const at = Date.now();
      for (const customer of ['María González', 'Zoë Müller'])
        await h.db
          .insertInto('leads')
          .values({
            store_id: h.store,
            customer,
            assigned_to: 'u',
            assigned_to_name: 'Vic Vo',
            assigned_by_name: 'B',
            assigned_at: at,
            status: 'handed',
            follow_up_due: at,
            closed: 0,
            source: 'x',
          })
          .execute();
      await sql`delete from kysely_migration where name = '042_search_without_accents'`.execute(h.db);
      await migrate(h.db, dialect);
      const found = async (q: string) => (await listLeads(h, { q })).leads.map((l) => l.customer);
      expect(await found('maria gonzalez')).toEqual(['María González']);
      expect(await found('GONZÁLEZ')).toEqual(['María González']);
      expect(await found('zoe')).toEqual(['Zoë Müller']);
      expect(await found('mu')).toEqual(['Zoë Müller']);
    } finally {
      await h.close();
    }
  });
});
