import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, freshDb } from '../test/harness';
import { all, due, eq, holds, ne } from '../../domain/conditions';
import { eligibleQueue, OVERDUE, PAST_DUE, pickNext, pointerAfterSkip, WAITING, type LeadFacts, type Member } from '../../domain/rotation';
import { DEFAULT_RULES } from '../../domain/rules';
import type { StoreDb } from '../db';
import { AskAgain, assignNext } from './assign';
import { firstOverdue, sqlEnv, UNASSIGNED } from './queries';
import { skip } from './team';

/**
 * The rule book's differential test: random floors (who is staff, active, on duty, disabled,
 * deleted, snoozed; past-due follow-ups under the hold-out rule; waiting and overdue leads; the
 * pointer anywhere) go through the domain (domain/rotation.ts), the SQL built from it (SQLite, and
 * PostgreSQL's statement-by-statement path) and PostgreSQL's one-call assign. The first pick,
 * pointer, waiting answer, overdue lead or skip answer that differs fails the test.
 */
const RUNS = Number(process.env.DIFFERENTIAL_RUNS ?? 1000);
const NOW = new Date('2026-11-24T15:00:00Z');
const T = NOW.getTime();
const MIN = 60_000;
const BY = { id: 'diff-boss', name: 'Diff Boss' };

const when = fc.constantFrom<number | null>(null, T - MIN, T, T + MIN);
const lead = fc.record({
  holder: fc.nat(7),
  unassigned: fc.boolean(),
  closed: fc.boolean(),
  contacted: fc.boolean(),
  followUp: when,
  accepted: fc.boolean(),
  acceptDue: when,
  handoffs: fc.nat(4),
});
/** Mostly true: most floors have someone in line. */
const often = fc.constantFrom(true, true, true, false);
const person = fc.record({
  role: fc.constantFrom('staff', 'staff', 'staff', 'staff', 'staff', 'manager', 'Staff'),
  active: often,
  onDuty: often,
  disabled: often.map((x) => !x),
  deleted: often.map((x) => !x),
  snooze: when,
});
const floor = fc.record({
  people: fc.array(person, { minLength: 1, maxLength: 7 }),
  // Places: unique, in any order, with gaps.
  places: fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], { minLength: 7, maxLength: 7 }),
  leads: fc.array(lead, { maxLength: 8 }),
  holdOut: fc.boolean(),
  pointer: fc.nat(13),
  action: fc.constantFrom('assign', 'assign-stepwise', 'skip'),
  skipWhom: fc.nat(7),
});
type Floor = typeof floor extends fc.Arbitrary<infer F> ? F : never;

/** The rules the domain side reads the floor by: the rule book's own, or a copy changed on purpose. */
const BOOK = { pastDue: PAST_DUE, overdue: OVERDUE, waiting: WAITING };
type Book = typeof BOOK;

/** Writes the floor into the database, replacing the last one. */
async function store(h: StoreDb, f: Floor, run: number, book: Book = BOOK) {
  const db = h.db;
  for (const table of ['leads', 'rotation_log', 'rotation_actions', 'users'] as const) await db.deleteFrom(table).execute();
  await db.updateTable('rotation_state').set({ pointer_pos: f.pointer }).where('id', '=', h.store).execute();
  const members: Member[] = f.people.map((p, i) => ({
    id: `r${run}p${i}`,
    name: `P${i}`,
    role: p.role,
    position: f.places[i],
    active: p.active,
    onDuty: p.onDuty,
    snoozeUntil: p.snooze === null ? null : new Date(p.snooze),
    disabled: p.disabled,
    deletedAt: p.deleted ? NOW : null,
  }));
  for (const m of members) {
    await db
      .insertInto('users')
      .values({
        id: m.id,
        email: `${m.id}@diff.test`,
        name: m.name,
        role: m.role,
        disabled: m.disabled ? 1 : 0,
        deleted_at: m.deletedAt?.getTime() ?? null,
        greeting: null,
        notes: null,
        signed_in_at: null,
        created_at: T,
        updated_at: T,
      })
      .execute();
    // His place in the store's line (a user's row goes with its memberships).
    await db
      .insertInto('memberships')
      .values({
        user_id: m.id,
        store_id: h.store,
        position: m.position,
        active: m.active ? 1 : 0,
        on_duty: m.onDuty ? 1 : 0,
        snooze_until: m.snoozeUntil?.getTime() ?? null,
        created_at: T,
      })
      .execute();
  }
  const leads: (LeadFacts & { id: number })[] = [];
  for (const [i, l] of f.leads.entries()) {
    const facts: LeadFacts = {
      assignedTo: l.unassigned ? UNASSIGNED : members[l.holder % members.length].id,
      closed: l.closed,
      firstContactAt: l.contacted ? NOW : null,
      followUpDue: l.followUp === null ? null : new Date(l.followUp),
      handoffs: l.handoffs,
      acceptedAt: l.accepted ? NOW : null,
      acceptDue: l.acceptDue === null ? null : new Date(l.acceptDue),
    };
    const row = await db
      .insertInto('leads')
      .values({
        store_id: h.store,
        customer: `Lead ${i}`,
        assigned_to: facts.assignedTo,
        assigned_to_name: facts.assignedTo,
        assigned_by: null,
        assigned_by_name: 'Diff',
        assigned_at: T - i,
        status: 'handed',
        follow_up_due: l.followUp ?? T,
        closed: l.closed ? 1 : 0,
        source: 'Diff',
        closed_at: null,
        closed_by_id: null,
        closed_by_name: null,
        first_contact_at: facts.firstContactAt?.getTime() ?? null,
        accepted_at: facts.acceptedAt?.getTime() ?? null,
        accept_due: l.acceptDue,
        handoffs: l.handoffs,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    // follow_up_due is NOT NULL: a lead without one is stored as due now.
    leads.push({ ...facts, followUpDue: new Date(l.followUp ?? T), id: Number(row.id) });
  }
  // The domain's reading of the same floor.
  const pastDue = (m: Member) => (f.holdOut ? leads.filter((l) => l.assignedTo === m.id && holds(book.pastDue, l, NOW)).length : 0);
  const queue = eligibleQueue(
    members.map((m) => ({ ...m, pastDue: pastDue(m) })),
    NOW,
  );
  const overdue = leads.filter((l) => holds(book.overdue, l, NOW)).sort((a, b) => Number(a.acceptDue) - Number(b.acceptDue) || a.id - b.id);
  return { members, queue, waiting: leads.some((l) => holds(book.waiting, l, NOW)), firstOverdue: overdue[0]?.id ?? null };
}

/** What one path did with the floor, in terms the domain can say too. */
async function outcome(h: StoreDb, f: Floor, members: Member[]) {
  const rules = { ...DEFAULT_RULES, holdOut: f.holdOut };
  const overdue = (await firstOverdue(h.db, h.store, sqlEnv(NOW, rules)))?.id;
  const overdueId = overdue === undefined ? null : Number(overdue);
  try {
    if (f.action === 'skip') {
      const target = members[f.skipWhom % members.length];
      const r = await skip(h, target.id, 'Diff', 30, BY, { now: NOW, rules });
      return { overdueId, skipped: target.id, pointer: r.pointerPos };
    }
    const r = await assignNext(h, 'Diff walk-in', BY, { now: NOW, rules, waitingFirst: true, stepwise: f.action === 'assign-stepwise' });
    return { overdueId, to: r.assignedTo?.id ?? null, pointer: r.pointerPos };
  } catch (err) {
    if (err instanceof AskAgain) return { overdueId, askAgain: err.why };
    return { overdueId, refused: (err as { status?: number }).status ?? String(err) };
  }
}

function expected(f: Floor, d: Awaited<ReturnType<typeof store>>) {
  const overdueId = d.firstOverdue;
  if (f.action === 'skip') {
    const target = d.members[f.skipWhom % d.members.length];
    const inLine = d.queue.find((m) => m.id === target.id);
    return inLine ? { overdueId, skipped: target.id, pointer: pointerAfterSkip(d.queue, inLine, f.pointer) } : { overdueId, refused: 400 };
  }
  if (d.waiting) return { overdueId, askAgain: 'waiting' };
  const next = pickNext(d.queue, f.pointer);
  return next ? { overdueId, to: next.id, pointer: next.position } : { overdueId, refused: 409 };
}

describe.each(DIALECTS)('the rotation rule book on %s', (dialect) => {
  it(`picks, skips, waits and finds overdue leads as the domain does, over ${RUNS} random floors`, async () => {
    const h = await freshDb(dialect);
    let run = 0;
    const seen = new Set<string>();
    try {
      await fc.assert(
        fc.asyncProperty(floor, async (f) => {
          const d = await store(h, f, ++run);
          const want = expected(f, d);
          expect(await outcome(h, f, d.members)).toEqual(want);
          for (const [k, v] of Object.entries(want)) if (v !== null) seen.add(k);
        }),
        { numRuns: RUNS },
      );
      // Every kind of outcome came up: a pick, a refusal, waiting leads, a skip, an overdue lead.
      expect([...seen].sort()).toEqual(['askAgain', 'overdueId', 'pointer', 'refused', 'skipped', 'to']);
    } finally {
      await h.close();
    }
  }, 600_000);

  // The test catches drift: a copy of a rule that lost one clause (as skip's copy once lost the
  // hold-out) disagrees with the database on some floor, and fast-check finds it.
  it.each([
    ['past due, counting a lead already contacted', { ...BOOK, pastDue: all(ne('assignedTo', ''), eq('closed', false), due('followUpDue')) }],
    ['overdue, counting a lead already accepted', { ...BOOK, overdue: all(ne('assignedTo', ''), eq('closed', false), due('acceptDue')) }],
    ['waiting, counting a parked lead', { ...BOOK, waiting: all(eq('assignedTo', ''), eq('closed', false)) }],
  ] as [string, Book][])(
    'fails when the domain reads %s',
    async (_, book) => {
      const h = await freshDb(dialect);
      let run = 0;
      try {
        const r = await fc.check(
          fc.asyncProperty(floor, async (f) => {
            const d = await store(h, f, ++run, book);
            expect(await outcome(h, f, d.members)).toEqual(expected(f, d));
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
        expect(r.failed).toBe(true);
      } finally {
        await h.close();
      }
    },
    600_000,
  );
});
