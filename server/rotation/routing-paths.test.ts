import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { freshDb, PG_AVAILABLE } from '../test/harness';
import { DEFAULT_RULES, type Rules } from '../../domain/rules';
import type { Routing, RoutingRule } from '../../domain/routing';
import type { StoreDb } from '../db';
import { assignNext } from './assign';

/**
 * The routed assign's two paths on PostgreSQL: random stores (people on and off duty in the whole
 * floor's line and in teams, with places and pointers anywhere, a weight now and then) and random
 * routing rules, with the hold-out rule and caps now and then (the function's lean statements
 * serve only without both), take one lead through the one-call function and, from the same start,
 * through the stepwise transaction (serve.ts). Whom it goes to, the line, the log, who was passed
 * over and why, every place and pointer afterwards must be the same.
 */
const RUNS = Number(process.env.DIFFERENTIAL_RUNS ?? 300);
const NOW = new Date('2026-11-25T16:00:00Z');
const T = NOW.getTime();
const BY = { id: 'paths-boss', name: 'Paths Boss' };
const PEOPLE = 6;

const often = fc.constantFrom(true, true, true, false);
const team = fc.record({
  members: fc.subarray([0, 1, 2, 3, 4, 5], { minLength: 1 }),
  places: fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9], { minLength: PEOPLE, maxLength: PEOPLE }),
  pointer: fc.nat(10),
});
const target = fc.oneof(fc.constant<'floor'>('floor'), fc.nat(2));
/** Each person's cap, or no one capped at all (half the time): each kind of count must decide alone. */
const caps = (...values: number[]) =>
  fc.oneof(
    fc.constant(Array<number | null>(PEOPLE).fill(null)),
    fc.array(fc.constantFrom<number | null>(null, ...values), { minLength: PEOPLE, maxLength: PEOPLE }),
  );
const rule = fc.record({ when: fc.constantFrom({}, { language: 'es' }, { condition: 'used' as const }), to: target });
const store = fc.record({
  onDuty: fc.array(often, { minLength: PEOPLE, maxLength: PEOPLE }),
  weighted: fc.constantFrom(false, false, false, false, false, true),
  places: fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], { minLength: PEOPLE, maxLength: PEOPLE }),
  pointer: fc.nat(13),
  teams: fc.array(team, { minLength: 1, maxLength: 3 }),
  rules: fc.array(rule, { maxLength: 3 }),
  fallback: target,
  back: fc.boolean(),
  language: fc.constantFrom('', 'es'),
  condition: fc.constantFrom('' as const, 'used' as const, 'new' as const),
  // The rule book's counts: the hold-out rule, daily and open-leads caps (P1 holds an open, past-due lead; P2 had an up today).
  holdOut: fc.boolean(),
  dailyCaps: caps(0, 1),
  openCaps: caps(1, 2),
});
type Store = typeof store extends fc.Arbitrary<infer S> ? S : never;

/**
 * Stores where one count alone passes the one after the pointer over, run beside the random ones:
 * 300 random stores now and then held none where the open-leads cap alone passed someone over (a full run of 2026-12-01).
 */
const none = Array<number | null>(PEOPLE).fill(null);
const alone = (s: Pick<Store, 'pointer' | 'holdOut' | 'dailyCaps' | 'openCaps'>): [Store] => [
  {
    onDuty: Array<boolean>(PEOPLE).fill(true),
    weighted: false,
    places: [1, 2, 3, 4, 5, 6],
    teams: [{ members: [0], places: [1, 2, 3, 4, 5, 6], pointer: 0 }],
    rules: [],
    fallback: 'floor',
    back: false,
    language: '',
    condition: '',
    ...s,
  },
];
const EXAMPLES = [
  // P1 holds an open, past-due lead; P2 had an up today.
  alone({ pointer: 1, holdOut: true, dailyCaps: none, openCaps: none }),
  alone({ pointer: 2, holdOut: false, dailyCaps: [null, null, 1, null, null, null], openCaps: none }),
  alone({ pointer: 1, holdOut: false, dailyCaps: none, openCaps: [null, 1, null, null, null, null] }),
];

/** Writes the store into the database, replacing the last one; answers its rules. */
async function write(h: StoreDb, s: Store): Promise<Rules> {
  const { db } = h;
  for (const table of ['passed_over', 'rotation_log', 'leads', 'team_members', 'teams', 'users'] as const) await db.deleteFrom(table).execute();
  await db.updateTable('rotation_state').set({ pointer_pos: s.pointer, last_assigned_to: null }).where('id', '=', h.store).execute();
  for (let i = 0; i < PEOPLE; i++) {
    await db
      .insertInto('users')
      .values({
        id: `p${i}`,
        email: `p${i}@paths.test`,
        name: `P${i}`,
        role: 'staff',
        disabled: 0,
        deleted_at: null,
        greeting: null,
        notes: null,
        signed_in_at: null,
        created_at: T,
        updated_at: T,
      })
      .execute();
    await db
      .insertInto('memberships')
      .values({
        user_id: `p${i}`,
        store_id: h.store,
        position: s.places[i],
        on_duty: s.onDuty[i] ? 1 : 0,
        weight: s.weighted && i === 0 ? 2 : 1,
        daily_cap: s.dailyCaps[i],
        open_cap: s.openCaps[i],
        created_at: T,
      })
      .execute();
  }
  const held = await db
    .insertInto('leads')
    .values({
      store_id: h.store,
      customer: 'Held',
      assigned_to: 'p1',
      assigned_to_name: 'P1',
      assigned_at: T - 86_400_000,
      follow_up_due: T - 3_600_000,
      closed: 0,
      source: 'Walk-in',
      status: 'handed',
      assigned_by_name: 'Paths Boss',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('rotation_log')
    .values({
      store_id: h.store,
      type: 'assign',
      customer: 'Earlier',
      target_id: 'p2',
      target_name: 'P2',
      lead_id: held.id,
      created_at: T - 60_000,
      manager_name: 'Paths Boss',
      pointer_pos_after: 0,
    })
    .execute();
  const ids: number[] = [];
  for (const [i, t] of s.teams.entries()) {
    const row = await db
      .insertInto('teams')
      .values({ store_id: h.store, name: `Team ${i}`, pointer_pos: t.pointer, created_at: T })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(Number(row.id));
    await db
      .insertInto('team_members')
      .values(t.members.map((m) => ({ team_id: Number(row.id), user_id: `p${m}`, position: t.places[m], created_at: T })))
      .execute();
  }
  // A rule may name a team the store does not have (deleted): its leads go to the whole floor.
  const to = (x: 'floor' | number) => (x === 'floor' ? { floor: true as const } : { team: ids[x] ?? 999_999 });
  const routing: Routing = {
    rules: s.rules.map((r, i): RoutingRule => ({ name: `Rule ${i} 100%`, when: r.when, to: to(r.to), grab: null })),
    fallback: to(s.fallback),
    backOfEveryLine: s.back,
  };
  return { ...DEFAULT_RULES, holdOut: s.holdOut, routing };
}

/** What an assign did, in terms that do not depend on the rows' ids. */
type Answer = { to: string | null; pointer: number } | { refused: number | string };

async function after(h: StoreDb, answer: Answer) {
  const { db } = h;
  const teams = await db.selectFrom('teams').select(['id', 'name', 'pointer_pos']).orderBy('name').execute();
  const name = (id: number | string | null) => (id === null ? null : (teams.find((t) => Number(t.id) === Number(id))?.name ?? `gone ${id}`));
  return {
    answer,
    leads: (await db.selectFrom('leads').select(['assigned_to', 'team_id', 'status']).execute()).map((l) => ({ ...l, team_id: name(l.team_id) })),
    log: (await db.selectFrom('rotation_log').select(['target_id', 'team_id', 'rule', 'pointer_pos_after']).orderBy('id').execute()).map((l) => ({
      ...l,
      team_id: name(l.team_id),
    })),
    passed: (await db.selectFrom('passed_over').select(['user_id', 'team_id', 'kind', 'why']).orderBy('user_id').orderBy('kind').execute()).map((p) => ({
      ...p,
      team_id: name(p.team_id),
    })),
    floor: await db.selectFrom('memberships').select(['user_id', 'position']).orderBy('user_id').execute(),
    state: await db.selectFrom('rotation_state').select(['pointer_pos', 'last_assigned_to']).where('id', '=', h.store).executeTakeFirstOrThrow(),
    teams: teams.map((t) => t.pointer_pos),
    places: (await db.selectFrom('team_members').select(['team_id', 'user_id', 'position']).orderBy('team_id').orderBy('user_id').execute()).map((m) => ({
      ...m,
      team_id: name(m.team_id),
    })),
  };
}

async function assign(h: StoreDb, s: Store, rules: Rules, stepwise: boolean): Promise<Answer> {
  try {
    const r = await assignNext(h, { customer: 'Paths walk-in', traits: { language: s.language, condition: s.condition } }, BY, { now: NOW, rules, stepwise });
    return { to: r.assignedTo?.id ?? null, pointer: r.pointerPos };
  } catch (err) {
    return { refused: (err as { status?: number }).status ?? String(err) };
  }
}

describe.runIf(PG_AVAILABLE)('the routed assign on PostgreSQL', () => {
  it(`does in one call what the stepwise transaction does, over ${RUNS} random stores`, async () => {
    const h = await freshDb('postgres');
    const seen = new Set<string>();
    try {
      await fc.assert(
        fc.asyncProperty(store, async (s) => {
          const one = await after(h, await assign(h, s, await write(h, s), false));
          const step = await after(h, await assign(h, s, await write(h, s), true));
          expect(one).toEqual(step);
          // The log's first entry is P2's earlier up.
          if (one.log[1]?.team_id) seen.add('team line');
          if (one.log[1] && !one.log[1].team_id) seen.add('whole floor');
          if (one.passed.some((p) => p.kind === 'rule')) seen.add('rule pass');
          if (one.passed.some((p) => p.kind !== 'rule')) seen.add('passed over');
          const to = 'to' in one.answer ? one.answer.to : null;
          if (one.places.some((p) => p.user_id === to)) seen.add('served');
          if ('refused' in one.answer) seen.add('refused');
          // Each count passing someone over where it is the only one at play.
          const alone = {
            hold: s.dailyCaps.every((c) => c === null) && s.openCaps.every((c) => c === null),
            cap: !s.holdOut && s.openCaps.every((c) => c === null),
            open: !s.holdOut && s.dailyCaps.every((c) => c === null),
          };
          for (const kind of ['hold', 'cap', 'open'] as const) if (alone[kind] && one.passed.some((p) => p.kind === kind)) seen.add(`${kind} alone`);
        }),
        { numRuns: RUNS, examples: EXAMPLES },
      );
      expect([...seen].sort()).toEqual(['cap alone', 'hold alone', 'open alone', 'passed over', 'refused', 'rule pass', 'served', 'team line', 'whole floor']);
    } finally {
      await h.close();
    }
  }, 600_000);
});
