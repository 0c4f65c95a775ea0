import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDb, PG_AVAILABLE } from '../test/harness';

describe.runIf(PG_AVAILABLE)("the portal's PostgreSQL connections", () => {
  it('never compile a query by JIT, whatever the server has on', async () => {
    const h = await freshDb('postgres');
    try {
      // PostgreSQL's own default, which a connection gets unless someone turns it off.
      const { rows: built } = await sql<{ setting: string }>`select boot_val as setting from pg_settings where name = 'jit'`.execute(h.db);
      const { rows: ours } = await sql<{ jit: string }>`show jit`.execute(h.db);
      expect({ default: built[0].setting, ours: ours[0].jit }).toEqual({ default: 'on', ours: 'off' });
    } finally {
      await h.close();
    }
  });
});
