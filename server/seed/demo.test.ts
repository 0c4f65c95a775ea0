import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atStore } from '../db';
import { DIALECTS, freshDb } from '../test/harness';
import { allStores, openStore, storesOf } from '../stores/service';
import { FIRST_STORE_ID, findUserByEmail, type UserRow } from '../users/repo';
import { rotationView } from '../rotation/present';
import type { Store } from '../../domain/stores';
import { seedDemo } from './demo';

/** The demo dealer group, seeded as `npm run seed:demo` does, read back on each dialect. */
describe.each(DIALECTS)('the demo group on %s', (dialect) => {
  let h: Awaited<ReturnType<typeof freshDb>>;
  let stores: Store[];
  const said: string[] = [];
  const user = async (email: string): Promise<UserRow> => {
    const u = await findUserByEmail(h.db, `${email}@demo-dealer.com`);
    if (!u) throw new Error(`no ${email}`);
    return u;
  };
  const membershipsOf = async (id: string) =>
    h.db.selectFrom('memberships').select(['store_id', 'on_duty']).where('user_id', '=', id).orderBy('store_id').execute();

  beforeAll(async () => {
    h = await freshDb(dialect);
    await seedDemo(h, 'America/New_York', (line) => said.push(line));
    stores = await allStores(h.db, true);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('makes three stores: the first keeps its own row, the two added have their codes and clocks', async () => {
    expect(stores.map((s) => [s.id, s.code, s.timezone])).toEqual([
      [FIRST_STORE_ID, 'MAIN', 'America/New_York'],
      [expect.any(Number), 'NSH', 'America/Chicago'],
      [expect.any(Number), 'BVT', 'America/Los_Angeles'],
    ]);
    expect(stores.map((s) => s.name)).toEqual(['Main store', 'Northside Honda', 'Bayview Toyota']);
    expect(said.at(-1)).toMatch(/in 3 stores/);
  });

  it('gives each store its own line (places 1..n, each once), its own leads, log and sales, and a Next Up among its salesmen', async () => {
    for (const s of stores) {
      const line = await h.db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select(['memberships.position', 'memberships.on_duty', 'users.role', 'users.id'])
        .where('memberships.store_id', '=', s.id)
        .orderBy('memberships.position')
        .execute();
      expect(line.map((m) => Number(m.position))).toEqual(line.map((_, i) => i + 1));
      expect(line.filter((m) => m.role === 'manager')).toHaveLength(1);
      const onFloor = line.filter((m) => m.role === 'staff' && m.on_duty).map((m) => m.id);
      expect(onFloor.length).toBeGreaterThanOrEqual(8);

      const count = async (table: 'leads' | 'sales' | 'rotation_log') =>
        Number(
          (
            await h.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('store_id', '=', s.id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count('leads')).toBeGreaterThan(300);
      expect(await count('sales')).toBeGreaterThan(200);
      expect(await count('rotation_log')).toBeGreaterThan(10);
      // Every lead of the store went to one of its salesmen; none of another store's.
      const strangers = await h.db
        .selectFrom('leads')
        .select('leads.id')
        .where('leads.store_id', '=', s.id)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('memberships')
                .select('memberships.user_id')
                .whereRef('memberships.user_id', '=', 'leads.assigned_to')
                .where('memberships.store_id', '=', s.id),
            ),
          ),
        )
        .execute();
      expect(strangers).toEqual([]);

      const view = await rotationView(atStore(h, s.id), 20);
      expect(onFloor).toContain(view.nextUp?.id);
    }
  });

  it('fills the first store with a year: 12 salesmen, 3,838 leads, 1,233 sales', async () => {
    const n = async (table: 'leads' | 'sales') =>
      Number(
        (
          await h.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('store_id', '=', FIRST_STORE_ID)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await n('leads')).toBe(3838);
    expect(await n('sales')).toBe(1233);
    const marcus = await user('marcus.reed');
    expect(await membershipsOf(marcus.id)).toEqual([{ store_id: FIRST_STORE_ID, on_duty: 1 }]);
  });

  it('has salesmen in two stores, on the floor in one of them only, with sales in both', async () => {
    const [main, nsh, bvt] = stores;
    for (const [email, home, other] of [
      ['kelly.nguyen', main, nsh],
      ['andre.mitchell', nsh, bvt],
    ] as const) {
      const rep = await user(email);
      expect(await membershipsOf(rep.id)).toEqual([
        { store_id: home.id, on_duty: 1 },
        { store_id: other.id, on_duty: 0 },
      ]);
      const sold = await h.db.selectFrom('sales').select('store_id').distinct().where('user_id', '=', rep.id).orderBy('store_id').execute();
      expect(sold.map((r) => Number(r.store_id))).toEqual([home.id, other.id]);
    }
    // Nobody is on the floor of two stores at once.
    const onTwice = await h.db
      .selectFrom('memberships')
      .select('user_id')
      .where('on_duty', '=', 1)
      .groupBy('user_id')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(onTwice).toEqual([]);
  });

  it('has one group manager with every store, and a store manager in his store only', async () => {
    const managers = await h.db.selectFrom('users').select(['email', 'all_stores']).where('role', '=', 'manager').orderBy('email').execute();
    expect(managers.filter((m) => m.all_stores).map((m) => m.email)).toEqual(['diane.foster@demo-dealer.com']);
    expect(managers).toHaveLength(4);

    const diane = await user('diane.foster');
    expect(await membershipsOf(diane.id)).toEqual([]);
    expect((await storesOf(h.db, diane)).map((s) => s.code)).toEqual(['MAIN', 'NSH', 'BVT']);

    const [main, nsh, bvt] = stores;
    for (const [email, own] of [
      ['rob.castillo', main],
      ['grace.holloway', nsh],
      ['hector.alvarez', bvt],
    ] as const) {
      const m = await user(email);
      expect(m.all_stores).toBe(0);
      expect(await storesOf(h.db, m)).toEqual([own]);
      for (const s of stores) expect(await openStore(h.db, m, s.code)).toEqual(s.id === own.id ? own : null);
      // His store's leads are assigned and closed by its own desk: never by another store's manager.
      const elsewhere = await h.db.selectFrom('leads').select('id').where('assigned_by', '=', m.id).where('store_id', '<>', own.id).execute();
      expect(elsewhere).toEqual([]);
    }
  });

  it('fills only an empty database', async () => {
    const before = await h.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const again: string[] = [];
    await seedDemo(h, 'America/New_York', (line) => again.push(line));
    expect(again[0]).toMatch(/already has users/);
    expect(
      await h.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(before);
  });
});
