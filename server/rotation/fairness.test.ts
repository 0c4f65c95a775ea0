import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { DIALECTS, freshDb, MANAGER, STAFF_DOMAIN, testApp, type TestApp } from '../test/harness';
import { migrate } from '../db/migrations';
import { linkIn } from '../test/smtp';
import { createUser, editUser, setStatus as setUserStatus } from '../users/service';
import { assignNext } from './assign';
import { candidates, line, sqlEnv, toMember } from './queries';
import { rotationView } from './present';
import { reorder, setStatus, skip } from './team';
import { eligibleQueue, lineOf, moveInLine, type Member } from '../../domain/rotation';
import { setPlaces } from '../test/places';

/** The places in the first store's line. */
const positions = async (t: Pick<TestApp, 'db'>) =>
  (await t.db.selectFrom('memberships').select('position').where('store_id', '=', 1).execute()).map((u) => u.position);

describe.each(DIALECTS)('a fair rotation on every path on %s', (dialect) => {
  let t: TestApp;
  let boss: string;

  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000' });
    boss = await t.signIn(MANAGER);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, cookie = boss) => t.app.inject({ method: 'POST', url: `/api/${url}`, headers: { cookie }, payload });
  const view = async () => (await t.app.inject({ method: 'GET', url: '/api/rotation?log=1', headers: { cookie: boss } })).json();

  it('24 simultaneous first sign-ins and 24 simultaneous Add Users get 48 places; 96 assigns give each exactly 2', async () => {
    // The links are asked for one by one (mail is not what is raced); the sign-ins then complete at once.
    const links: { email: string; token: string }[] = [];
    for (let i = 0; i < 24; i++) {
      const email = `first.${i}@${STAFF_DOMAIN}`;
      await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email } });
      const link = linkIn(await t.smtp.mailTo(email));
      links.push({ email, token: link.searchParams.get('t')! });
    }
    const [signins, adds] = await Promise.all([
      Promise.all(links.map((l) => t.app.inject({ method: 'POST', url: '/api/auth/complete', payload: l }))),
      Promise.all(Array.from({ length: 24 }, (_, i) => post('users', { email: `added.${i}@${STAFF_DOMAIN}`, name: `Added ${i}` }))),
    ]);
    expect([...signins, ...adds].map((r) => r.statusCode)).toEqual(Array(48).fill(200));
    const ids = [...signins.map((r) => r.json().user.uid), ...adds.map((r) => r.json().user.id)];
    const all = await positions(t);
    expect(new Set(all).size).toBe(all.length);

    // Newcomers are listed but off duty: nobody is handed a lead before he is on the floor.
    let v = await view();
    const newcomers = v.team.filter((m: any) => ids.includes(m.id));
    expect(newcomers).toHaveLength(48);
    expect(newcomers.filter((m: any) => m.onDuty || m.place !== null)).toEqual([]);
    expect(v.queue).toHaveLength(0);
    await Promise.all(ids.map((uid) => post('rotation/status', { uid, onDuty: true })));
    v = await view();
    expect(v.queue).toHaveLength(48);
    expect(v.queue.map((m: any) => m.place)).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));

    const handed = await Promise.all(Array.from({ length: 96 }, (_, i) => post('rotation/assign', { customer: `Walk-in ${i}` })));
    expect(handed.map((r) => r.statusCode)).toEqual(Array(96).fill(200));
    const leads = await t.db.selectFrom('leads').select('assigned_to').execute();
    const counts = new Map<string, number>();
    for (const l of leads) counts.set(l.assigned_to, (counts.get(l.assigned_to) ?? 0) + 1);
    expect(ids.map((id) => counts.get(id) ?? 0)).toEqual(Array(48).fill(2));
  }, 120_000);

  it('one hand-out per action id: a double-click, a retry and two tabs make one lead', async () => {
    const before = await t.db.selectFrom('leads').select('id').execute();
    const actionId = 'assign-7f3c2a9e';
    const same = await Promise.all(Array.from({ length: 5 }, () => post('rotation/assign', { customer: 'Double Click', actionId })));
    expect(same.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    expect(new Set(same.map((r) => r.body)).size).toBe(1);
    const retry = await post('rotation/assign', { customer: 'Double Click', actionId });
    expect(retry.json()).toEqual(same[0].json());
    const made = await t.db.selectFrom('leads').selectAll().where('customer', '=', 'Double Click').execute();
    expect(made).toHaveLength(1);
    expect(await t.db.selectFrom('leads').select('id').execute()).toHaveLength(before.length + 1);

    const other = await post('rotation/assign', { customer: 'Someone Else', actionId });
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toBe('This action id was already used for a different request.');

    const target = (await view()).queue[3].id;
    const skips = await Promise.all(Array.from({ length: 3 }, () => post('rotation/skip', { targetUid: target, reason: 'Lunch', actionId: 'skip-0c8d1e2f' })));
    expect(skips.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const logged = await t.db.selectFrom('rotation_log').select('id').where('type', '=', 'skip').where('target_id', '=', target).execute();
    expect(logged).toHaveLength(1);
    const bad = await post('rotation/assign', { customer: 'X', actionId: 'no spaces allowed' });
    expect(bad.statusCode).toBe(400);
  });
});

/** The tables as a release before stores (023_stores) kept them: a salesman's place was on his user row. */
interface BeforeStores {
  users: {
    id: string;
    email: string;
    name: string;
    role: string;
    position: number;
    active: number;
    on_duty: number;
    created_at: number;
    updated_at: number;
  };
  rotation_state: { id: number; pointer_pos: number };
}

describe.each(DIALECTS)('repairing shared places on %s', (dialect) => {
  it('renumbers duplicate positions keeping the order and Next Up', async () => {
    // The database as a release before stores left it (places on users), places shared, and the migration not yet run.
    const h = await freshDb(dialect, { before: '023_stores' });
    try {
      const shell = { id: null, name: 'test' };
      const old = h.db as unknown as Kysely<BeforeStores>;
      const now = Date.now();
      await h.db.schema.dropIndex('users_position').execute();
      await h.db.schema.dropTable('rotation_actions').execute();
      await sql`delete from kysely_migration where name = '007_unique_positions' or name >= '023_stores'`.execute(h.db);
      for (const [name, position] of [
        ['Ann', 3],
        ['Ben', 3],
        ['Cat', 5],
        ['Dan', 5],
        ['Eve', 9],
      ] as const) {
        await old
          .insertInto('users')
          .values({
            id: crypto.randomUUID(),
            email: `${name.toLowerCase()}@x.test`,
            name,
            role: 'staff',
            position,
            active: 1,
            on_duty: 1,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      await old.updateTable('rotation_state').set({ pointer_pos: 3 }).execute();
      // The old reading (the rule book on the rows as they are, ties by id): Cat or Dan is Next Up, above the pointer; then Eve; then Ann and Ben.
      const team = (await old.selectFrom('users').selectAll().orderBy('position').orderBy('id').execute()).map((u): Member => ({
        ...u,
        active: !!u.active,
        onDuty: !!u.on_duty,
        snoozeUntil: null,
        disabled: false,
        deletedAt: null,
      }));
      const order = lineOf(team, 3, new Date()).map((m) => m.name);
      expect(order.slice(0, 2).sort()).toEqual(['Cat', 'Dan']);
      expect(order[2]).toBe('Eve');
      expect(order.slice(3).sort()).toEqual(['Ann', 'Ben']);

      await migrate(h.db, dialect);
      const after = await rotationView(h, 1);
      expect(after.queue.map((m) => m.name)).toEqual(order);
      expect(after.team.map((m) => m.name)).toEqual(order);
      const all = await positions(h);
      expect(new Set(all).size).toBe(all.length);
      // Now every one of them gets his turn, the second holder of a shared place included.
      const got = [];
      for (let i = 0; i < 5; i++) got.push((await assignNext(h, `C${i}`, shell)).assignedTo!.name);
      expect(got).toEqual(order);
    } finally {
      await h.close();
    }
  });
});

describe('the rotation under random histories (SQLite)', () => {
  type Step =
    | { op: 'join'; staff: boolean }
    | { op: 'leave' | 'restore' | 'promote' | 'demote' | 'clockIn' | 'clockOut' | 'up' | 'down' | 'skip'; who: number }
    | { op: 'assign' };
  const who = fc.nat(30);
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ op: fc.constant('join' as const), staff: fc.boolean() }),
    fc.record({ op: fc.constantFrom('leave', 'restore', 'promote', 'demote', 'clockIn', 'clockOut', 'up', 'down', 'skip'), who }),
    fc.constant({ op: 'assign' as const }),
  );

  it('keeps places unique, and then n assigns give each eligible salesman n/k ± 1', async () => {
    const h = await freshDb('sqlite');
    const by = { id: null, name: 'test' };
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.integer({ min: 1, max: 40 }), async (steps, assigns) => {
          await h.db.deleteFrom('leads').execute();
          await h.db.deleteFrom('rotation_log').execute();
          await h.db.deleteFrom('audit_log').execute();
          await h.db.deleteFrom('users').execute();
          await h.db.updateTable('rotation_state').set({ pointer_pos: 0 }).execute();
          await createUser(h, { email: 'keeper@x.test', name: 'Keeper', role: 'manager' }, by);
          for (const s of steps) {
            const people = await h.db.selectFrom('users').selectAll().where('email', '!=', 'keeper@x.test').orderBy('created_at').orderBy('email').execute();
            const p = 'who' in s ? people[s.who % Math.max(people.length, 1)] : undefined;
            // Refusals (already first, not in the queue, the last manager) are part of the history.
            await (async () => {
              if (s.op === 'join') return createUser(h, { email: `p${++n}@x.test`, name: `P${n}`, role: s.staff ? 'staff' : 'manager' }, by);
              if (s.op === 'assign') return assignNext(h, 'Walk-in', by);
              if (!p) return;
              if (s.op === 'leave') return setUserStatus(h, p.id, 'delete', by);
              if (s.op === 'restore') return setUserStatus(h, p.id, 'restore', by);
              if (s.op === 'promote' || s.op === 'demote') return editUser(h, p.id, { email: p.email, role: s.op === 'promote' ? 'manager' : 'staff' }, by);
              if (s.op === 'clockIn' || s.op === 'clockOut') return setStatus(h, p.id, { onDuty: s.op === 'clockIn' }, by);
              if (s.op === 'up' || s.op === 'down') {
                // An arrow in the line as shown: someone not in line, or at its end, is refused.
                const shown = (await rotationView(h, 1)).queue.map((m) => m.id);
                const i = shown.indexOf(p.id);
                return reorder(h, { uid: p.id, shown, order: moveInLine(shown, p.id, s.op === 'up' ? i - 1 : i + 1) ?? shown }, by);
              }
              return skip(h, p.id, 'Busy', 30, by);
            })().catch((err: { status?: number }) => {
              if (!err.status || err.status >= 500) throw err;
            });
            const all = await positions(h);
            expect(new Set(all).size).toBe(all.length);
          }
          await setPlaces(h.db, { snooze_until: null });
          await h.db.deleteFrom('leads').execute();
          const queue = (await rotationView(h, 1)).queue;
          if (!queue.length) return;
          for (let i = 0; i < assigns; i++) await assignNext(h, 'Walk-in', by);
          const leads = await h.db.selectFrom('leads').select('assigned_to').execute();
          const k = queue.length;
          for (const m of queue) {
            const got = leads.filter((l) => l.assigned_to === m.id).length;
            expect(got).toBeGreaterThanOrEqual(Math.floor(assigns / k));
            expect(got).toBeLessThanOrEqual(Math.ceil(assigns / k));
          }
        }),
        { numRuns: 40 },
      );
    } finally {
      await h.close();
    }
  }, 120_000);
});

describe.each(DIALECTS)('one definition of eligibility on %s', (dialect) => {
  it('the SQL and domain/rotation.ts pick the same salesmen', async () => {
    const h = await freshDb(dialect);
    const now = new Date('2026-11-22T15:00:00Z');
    const person = fc.record({
      role: fc.constantFrom('staff', 'manager', ' Staff ', 'STAFF', 'owner', ''),
      active: fc.constantFrom(0, 1),
      on_duty: fc.constantFrom(0, 1),
      disabled: fc.constantFrom(0, 1),
      deleted: fc.boolean(),
      snooze: fc.constantFrom(null, -60_000, 0, 60_000),
    });
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(person, { maxLength: 12 }), async (people) => {
          await h.db.deleteFrom('users').execute();
          for (const p of people) {
            const t = now.getTime();
            await h.db
              .insertInto('users')
              .values({
                id: `u${++n}`,
                email: `u${n}@x.test`,
                name: `U${n}`,
                role: p.role,
                disabled: p.disabled,
                deleted_at: p.deleted ? t : null,
                greeting: null,
                notes: null,
                signed_in_at: null,
                created_at: t,
                updated_at: t,
              })
              .execute();
            await h.db
              .insertInto('memberships')
              .values({
                user_id: `u${n}`,
                store_id: h.store,
                position: n,
                active: p.active,
                on_duty: p.on_duty,
                snooze_until: p.snooze === null ? null : t + p.snooze,
                created_at: t,
              })
              .execute();
          }
          const all = (await line(h.db, h.store).execute()).map(toMember);
          const bySql = (await candidates(h.db, h.store, sqlEnv(now, { holdOut: false }))).map((m) => m.id);
          expect(bySql).toEqual(eligibleQueue(all, now).map((m) => m.id));
        }),
        { numRuns: 30 },
      );
    } finally {
      await h.close();
    }
  }, 60_000);
});
