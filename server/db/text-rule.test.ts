import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../test/harness';
import { migrate } from './migrations';
import { readRules } from '../../domain/rules';

/**
 * Lost reasons, routing texts and team names saved before the one text rule (domain/text.ts) may
 * hold tabs, line breaks or bidi marks. Read with today's rules such a list would fall back to its
 * default (a store's routing rules gone), so the upgrade cleans them instead, keeping each.
 */
describe.each(DIALECTS)('the upgrade to the one text rule, on %s', (dialect) => {
  it("keeps a store's lost reasons, routing rules and team names, cleaned", async () => {
    const h = await freshDb(dialect, { before: '038_small_doors' });
    try {
      const routing = {
        rules: [{ name: 'New\ncars', when: { make: 'Honda\t', keyword: '\u2066' }, to: { floor: true }, grab: null }],
        fallback: { floor: true },
        backOfEveryLine: true,
      };
      const rules = { lostReasons: ['Credit', 'Price\ttoo high', 'price too  high', '\u202Eecirp'], routing };
      await h.db
        .updateTable('stores')
        .set({ rules: JSON.stringify(rules) })
        .where('id', '=', h.store)
        .execute();
      for (const name of ['New\tcars', 'New cars', 'Used\u202E'])
        await h.db.insertInto('teams').values({ store_id: h.store, name, created_at: Date.now() }).execute();

      await sql`delete from kysely_migration where name = '038_small_doors'`.execute(h.db);
      await migrate(h.db, dialect);

      const stored = await h.db.selectFrom('stores').select('rules').where('id', '=', h.store).executeTakeFirstOrThrow();
      const read = readRules(JSON.parse(stored.rules));
      expect(read.lostReasons).toEqual(['Credit', 'Price too high', 'ecirp']);
      expect(read.routing.rules).toEqual([{ name: 'New cars', when: { make: 'Honda' }, to: { floor: true }, grab: null }]);
      const teams = await h.db.selectFrom('teams').select('name').where('store_id', '=', h.store).orderBy('id').execute();
      expect(teams.map((t) => t.name)).toEqual(['New cars 2', 'New cars', 'Used']);
    } finally {
      await h.close();
    }
  });
});
