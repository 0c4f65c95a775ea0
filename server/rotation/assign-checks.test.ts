import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { openDb } from '../db';
import { buildApp } from '../app';
import { MAX_HANDOFFS } from '../../domain/speed';
import { UNASSIGNED } from './queries';
import { setPlaces } from '../test/places';

const MINUTE = 60_000;

/**
 * An assign acts on the rules its app server remembers and does not look for waiting leads
 * first: it checks both under the rotation lock (in bdc_assign_next on PostgreSQL).
 */
describe.each(DIALECTS)('what an assign checks first on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let reps: { id: string; name: string; email: string }[];
  // New addresses in each test: the inbox keeps every test's mail.
  let round = 0;

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await t.db.deleteFrom('leads').execute();
    await t.db.deleteFrom('rotation_log').execute();
    await t.db.updateTable('rotation_state').set({ pointer_pos: 0 }).execute();
    await t.db.deleteFrom('users').where('email', 'like', 'rep.%').execute();
    await t.db.updateTable('stores').set({ rules: '' }).where('id', '=', 1).execute();
    reps = [];
    round++;
    for (const name of ['Ann', 'Ben', 'Cat']) {
      const email = `rep.${name.toLowerCase()}.${round}@dealer.test`;
      const u = await insertUser(t.db, { email, name, onDuty: true });
      reps.push({ id: u.id, name, email });
    }
  });

  const assign = (payload: object, app = t.app) => app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload });
  const lead = (customer: string) => t.db.selectFrom('leads').selectAll().where('customer', '=', customer).executeTakeFirstOrThrow();
  const waitingLead = (customer: string, at: number, handoffs = 0) =>
    t.db
      .insertInto('leads')
      .values({
        customer,
        assigned_to: UNASSIGNED,
        assigned_to_name: UNASSIGNED,
        assigned_by: null,
        assigned_by_name: 'Website',
        assigned_at: at,
        status: 'new',
        follow_up_due: at,
        closed: 0,
        source: 'Website',
        closed_at: null,
        closed_by_id: null,
        closed_by_name: null,
        handoffs,
      } as never)
      .execute();

  it('a rules change made on another app server is what the next assign here goes by', async () => {
    // This server remembers the rules (the defaults) from its first assign.
    const first = await lead((await assign({ customer: 'Before' })).json().customer);
    expect(first.accept_due! - first.offered_at!).toBe(10 * MINUTE);
    expect(first.follow_up_due - first.assigned_at).toBe(24 * 60 * MINUTE);

    // On PostgreSQL another app server on the same database changes them; SQLite is one server's.
    const twinDb = dialect === 'postgres' ? await openDb({ databaseUrl: t.dbh.url, dataDir: t.dbh.dir }) : null;
    const twin = twinDb ? await buildApp({ config: t.config, dbh: twinDb }) : t.app;
    try {
      const change = await twin.inject({
        method: 'PATCH',
        url: '/api/rules',
        headers: { cookie: boss },
        payload: { responseWindowMinutes: 7, followUpHours: 48 },
      });
      expect(change.statusCode).toBe(200);
    } finally {
      if (twinDb) {
        await twin.close();
        await twinDb.close();
      }
    }
    const after = await assign({ customer: 'After' });
    expect(after.json()).toMatchObject({ customer: 'After', assignedTo: { name: 'Ben' } });
    const made = await lead('After');
    expect(made.accept_due! - made.offered_at!).toBe(7 * MINUTE);
    expect(made.follow_up_due - made.assigned_at).toBe(48 * 60 * MINUTE);
    const mail = await t.smtp.mailTo(reps[1].email);
    expect(mail.subject).toBe('New lead: After');
    expect(mail.text).toContain('Hi Ben,');
    expect(mail.text).toContain('Accept by:');

    // The hold-out rule switched on directly in the database is seen too.
    await t.db
      .updateTable('leads')
      .set({ follow_up_due: Date.now() - MINUTE })
      .where('customer', '=', 'Before')
      .execute();
    await t.db
      .updateTable('stores')
      .set({ rules: JSON.stringify({ holdOut: true }) })
      .where('id', '=', 1)
      .execute();
    expect((await assign({ customer: 'Held' })).json().assignedTo.name).toBe('Cat');
    expect((await assign({ customer: 'Held too' })).json().assignedTo.name).toBe('Ben');
  });

  it('rules written in any script are the stored ones to the check: the assign goes straight through', async () => {
    // The assign compares the rules it remembers with the stored text; were the two to differ after a round trip, it would ask again for ever.
    await t.db
      .updateTable('stores')
      .set({ rules: JSON.stringify({ lostReasons: ['Compró en otro lado', '买了别的车', 'Ç’est réglé 🚗', 'x\u0000y'] }) })
      .where('id', '=', 1)
      .execute();
    expect((await assign({ customer: 'Script' })).json().assignedTo.name).toBe('Ann');
    expect((await assign({ customer: 'Script too' })).json().assignedTo.name).toBe('Ben');
  });

  it('leads waiting in Unassigned go out first, oldest first, then the new lead to the next in line', async () => {
    const now = Date.now();
    await waitingLead('Waited longest', now - 2 * MINUTE);
    await waitingLead('Waited', now - MINUTE);
    // Handed on too often: it waits for a manager, not for the rotation.
    await waitingLead('Parked', now - 3 * MINUTE, MAX_HANDOFFS);

    const r = await assign({ customer: 'New' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ customer: 'New', assignedTo: { id: reps[2].id, name: 'Cat' }, duplicate: false });
    expect(r.json()).not.toHaveProperty('mail');
    expect((await lead('Waited longest')).assigned_to).toBe(reps[0].id);
    expect((await lead('Waited')).assigned_to).toBe(reps[1].id);
    expect((await lead('Parked')).assigned_to).toBe(UNASSIGNED);
    const log = await t.db.selectFrom('rotation_log').select(['customer', 'target_name']).orderBy('id').execute();
    expect(log).toEqual([
      { customer: 'Waited longest', target_name: 'Ann' },
      { customer: 'Waited', target_name: 'Ben' },
      { customer: 'New', target_name: 'Cat' },
    ]);
    for (const [i, customer] of ['Waited longest', 'Waited', 'New'].entries())
      expect((await t.smtp.mailTo(reps[i].email)).subject).toBe(`New lead: ${customer}`);
  });

  it('a repeated action hands out what waits and answers as the first time, making nothing new', async () => {
    const actionId = 'assign-waiting-1';
    const first = await assign({ customer: 'Once', actionId });
    expect(first.json().assignedTo.name).toBe('Ann');
    await waitingLead('Came in since', Date.now());
    const again = await assign({ customer: 'Once', actionId });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect((await lead('Came in since')).assigned_to).toBe(reps[1].id);
    expect(await t.db.selectFrom('leads').select('id').where('customer', '=', 'Once').execute()).toHaveLength(1);
  });

  it('with no one eligible a waiting lead stays, and the new one is refused as before', async () => {
    await setPlaces(t.db, { on_duty: 0 }, (u) => u.where('email', 'like', 'rep.%'));
    await waitingLead('Still waiting', Date.now());
    const r = await assign({ customer: 'Nobody' });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('No eligible associates right now.');
    expect((await lead('Still waiting')).assigned_to).toBe(UNASSIGNED);
  });
});
