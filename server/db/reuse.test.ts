import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../test/harness';
import { insertUser } from '../users/repo';
import { reused, slot } from './reuse';

describe.each(DIALECTS)('queries built once and run many times on %s', (dialect) => {
  let h: Awaited<ReturnType<typeof freshDb>>;
  beforeAll(async () => {
    h = await freshDb(dialect);
    for (const name of ['Ann', 'Ben', 'Cy']) await insertUser(h.db, { email: `${name.toLowerCase()}@reuse.test`, name });
  });
  afterAll(() => h.drop());

  const byName = (name: string) =>
    reused(h.db, dialect, 'a person by name', () => h.db.selectFrom('users').select(['name', 'email']).where('name', '=', slot<string>('name')), { name });

  it('answers each run with that run’s values, as the same query built anew would', async () => {
    for (const name of ['Ann', 'Cy', 'Ben', 'Nobody']) {
      const fresh = await h.db.selectFrom('users').select(['name', 'email']).where('name', '=', name).execute();
      expect(await byName(name)).toEqual(fresh);
    }
    expect(await byName('Ben')).toEqual([{ name: 'Ben', email: 'ben@reuse.test' }]);
  });

  it('refuses to run without a value for each of its slots', async () => {
    const build = () => h.db.selectFrom('users').select('name').where('email', '=', slot<string>('email'));
    await expect(reused(h.db, dialect, 'a person by address', build, {})).rejects.toThrow(/no value for email/);
    expect(await reused(h.db, dialect, 'a person by address', build, { email: 'cy@reuse.test' })).toEqual([{ name: 'Cy' }]);
  });
});
