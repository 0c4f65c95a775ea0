import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, PG_AVAILABLE } from '../test/harness';
import { insertUser } from '../users/repo';
import { assignNext } from './assign';
import { DEFAULT_RULES } from '../../domain/rules';
import { LEAD_SOURCE } from '../../domain/leads';

const by = { id: null, name: 'Bench' };

/**
 * PostgreSQL's assigns that wait for their store's lock go to the database together, one after
 * another in one transaction (assign-postgres.ts): the rotation stays fair, and one assign the
 * database refuses fails alone.
 */
describe.skipIf(!PG_AVAILABLE)('assigns that queue together on postgres', () => {
  let h: Awaited<ReturnType<typeof freshDb>>;
  const reps: string[] = [];

  beforeAll(async () => {
    h = await freshDb('postgres');
    for (const name of ['Ann', 'Ben', 'Cat', 'Dan']) reps.push((await insertUser(h.db, { email: `${name}@dealer.test`, name, onDuty: true })).name);
  });
  afterAll(() => h.close());

  const log = async () =>
    (await h.db.selectFrom('rotation_log').select('target_name').where('type', '=', 'assign').orderBy('id').execute()).map((r) => r.target_name);

  it('share transactions and still go round the floor in turn', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => assignNext(h, `Batch ${i}`, by)));
    expect(new Set(answers.map((a) => a.leadId)).size).toBe(40);
    const names = await log();
    expect(names).toEqual(Array.from({ length: 40 }, (_, i) => reps[i % 4]));
    // Each lead's answer names who the log gave it to.
    const given = await h.db.selectFrom('leads').select(['id', 'assigned_to_name']).execute();
    for (const a of answers) expect(given.find((g) => Number(g.id) === a.leadId)?.assigned_to_name).toBe(a.assignedTo?.name);
    // Leads stored by one transaction share its id: fewer transactions than leads.
    const { rows } = await sql<{ n: string }>`select count(distinct xmin::text) as n from leads`.execute(h.db);
    expect(Number(rows[0].n)).toBeLessThan(40);
  });

  it('one the database refuses fails alone: the others are stored once each, in turn', async () => {
    const before = (await log()).length;
    const tries = Array.from({ length: 9 }, (_, i) => assignNext(h, i === 4 ? 'Null \u0000 byte' : `Alone ${i}`, by));
    const settled = await Promise.allSettled(tries);
    expect(settled.map((s) => s.status)).toEqual(settled.map((_, i) => (i === 4 ? 'rejected' : 'fulfilled')));
    const names = (await log()).slice(before);
    expect(names).toEqual(Array.from({ length: 8 }, (_, i) => reps[(before + i) % 4]));
    const stored = await h.db.selectFrom('leads').select('customer').where('customer', 'like', 'Alone %').execute();
    expect(stored.map((s) => s.customer).sort()).toEqual([0, 1, 2, 3, 5, 6, 7, 8].map((i) => `Alone ${i}`));
  });

  it('a lead one assign leaves waiting is seen by the assigns after it in the same batch', async () => {
    await h.db.updateTable('memberships').set({ on_duty: 0 }).where('store_id', '=', h.store).execute();
    try {
      // The first goes alone (the queue was empty); the three behind it queue meanwhile and go together,
      // so the batch's own look at the waiting leads, read before the kept one was stored, would miss it.
      const [first, kept, next, after] = await Promise.allSettled([
        assignNext(h, 'Nobody on', by),
        assignNext(h, 'Kept waiting', by, { keep: true }),
        assignNext(h, 'Behind it', by, { waitingFirst: true }),
        assignNext(h, 'After it', by, { keep: true }),
      ]);
      expect(first).toMatchObject({ status: 'rejected', reason: { message: 'No eligible associates right now.' } });
      expect(kept).toMatchObject({ status: 'fulfilled', value: { customer: 'Kept waiting', assignedTo: null } });
      // Leads waiting go out first: the caller hands them out and asks again; nothing of it was stored.
      expect(next).toMatchObject({ status: 'rejected', reason: { why: 'waiting' } });
      expect(await h.db.selectFrom('leads').select('id').where('customer', 'in', ['Nobody on', 'Behind it']).execute()).toEqual([]);
      // The leads before and after it were stored by one transaction: it went in their batch.
      expect(after).toMatchObject({ status: 'fulfilled', value: { customer: 'After it', assignedTo: null } });
      const { rows } = await sql<{ n: string }>`select count(distinct xmin::text) as n from leads where customer in ('Kept waiting', 'After it')`.execute(h.db);
      expect(Number(rows[0].n)).toBe(1);
    } finally {
      await h.db.deleteFrom('leads').where('customer', 'in', ['Kept waiting', 'After it']).execute();
      await h.db.updateTable('memberships').set({ on_duty: 1 }).where('store_id', '=', h.store).execute();
    }
  });

  it('one it hands back goes statement by statement before those that came after it', async () => {
    // A team of two; serving one puts him at the back of the whole floor's line, whose places 1–4
    // leave no free place after its pointer: the first up is handed back to renumber that line.
    const team = await h.db.insertInto('teams').values({ store_id: h.store, name: 'BDC', created_at: 0 }).returning('id').executeTakeFirstOrThrow();
    const members = await h.db.selectFrom('users').select(['id', 'name']).where('name', 'in', ['Ben', 'Dan']).orderBy('name').execute();
    await h.db
      .insertInto('team_members')
      .values(members.map((m, i) => ({ team_id: Number(team.id), user_id: m.id, position: i + 1, created_at: 0 })))
      .execute();
    const rules = {
      ...DEFAULT_RULES,
      routing: {
        rules: [{ name: 'Walk-ins', when: { source: LEAD_SOURCE }, to: { team: Number(team.id) }, grab: null }],
        fallback: { floor: true as const },
        backOfEveryLine: true,
      },
    };
    const floor = await h.db.selectFrom('memberships').select('position').where('store_id', '=', h.store).orderBy('position').execute();
    expect(floor.map((m) => m.position)).toEqual([1, 2, 3, 4]);
    await Promise.all(Array.from({ length: 24 }, (_, i) => assignNext(h, `Team ${i}`, by, { rules })));
    const served = await h.db.selectFrom('rotation_log').select(['customer', 'target_name']).where('team_id', '=', Number(team.id)).orderBy('id').execute();
    expect(served.map((r) => r.customer)).toEqual(Array.from({ length: 24 }, (_, i) => `Team ${i}`));
    expect(served.map((r) => r.target_name)).toEqual(Array.from({ length: 24 }, (_, i) => ['Ben', 'Dan'][i % 2]));
    // The floor's line was renumbered (the stepwise path's move), leaving free places between people.
    const after = await h.db.selectFrom('memberships').select('position').where('store_id', '=', h.store).orderBy('position').execute();
    expect(after.some((m) => m.position > 4)).toBe(true);
  });
});
