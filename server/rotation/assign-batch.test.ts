import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, PG_AVAILABLE } from '../test/harness';
import { insertUser } from '../users/repo';
import { assignNext } from './assign';

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
});
