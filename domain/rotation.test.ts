import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  type Member,
  isEligible,
  eligibleQueue,
  pickNext,
  pointerAfterSkip,
  servingOrder,
  snoozeEnd,
  lineOf,
  moveInLine,
  outOfLine,
  reorderLine,
  whyNotInLine,
  LINE_CHANGED,
  REORDER_NOTHING,
  REORDER_SAME_PEOPLE,
  REORDER_WHOM,
  SNOOZE_MINUTES,
  OVERVIEW_LOG_SIZE,
  ROUTING_LOG_SIZE,
} from './rotation';
import { followUpDue, FOLLOW_UP_HOURS, LEADS_PAGE_SIZE, LEAD_SOURCE } from './leads';
import { member } from './member.fixture';

const NOW = new Date('2026-03-10T15:00:00Z');

const ids = (ms: Member[]) => ms.map((m) => m.id);

describe('constants', () => {
  it('match the specification', () => {
    expect([SNOOZE_MINUTES, FOLLOW_UP_HOURS, OVERVIEW_LOG_SIZE, ROUTING_LOG_SIZE, LEADS_PAGE_SIZE]).toEqual([30, 24, 10, 12, 100]);
    expect(LEAD_SOURCE).toBe('BDC Portal');
  });
});

describe('isEligible', () => {
  it('accepts an active, on-duty, unsnoozed salesman', () => {
    expect(isEligible(member('a', 1), NOW)).toBe(true);
  });

  it.each<[string, Partial<Member>]>([
    ['a manager', { role: 'manager' }],
    ['an inactive salesman', { active: false }],
    ['an off-duty salesman', { onDuty: false }],
    ['a disabled salesman', { disabled: true }],
    ['a deleted salesman', { deletedAt: new Date('2026-01-01T00:00:00Z') }],
    ['a salesman snoozed into the future', { snoozeUntil: new Date(NOW.getTime() + 1) }],
  ])('rejects %s', (_, over) => {
    expect(isEligible(member('a', 1, over), NOW)).toBe(false);
  });

  it('accepts a snooze that ends now or has ended', () => {
    expect(isEligible(member('a', 1, { snoozeUntil: NOW }), NOW)).toBe(true);
    expect(isEligible(member('a', 1, { snoozeUntil: new Date(NOW.getTime() - 60_000) }), NOW)).toBe(true);
  });

  it('reads the role exactly as stored (roles are normalised when written), as the SQL does', () => {
    expect(isEligible(member('a', 1, { role: 'staff' }), NOW)).toBe(true);
    expect(isEligible(member('a', 1, { role: ' Staff ' }), NOW)).toBe(false);
    expect(isEligible(member('a', 1, { role: 'MANAGER' }), NOW)).toBe(false);
  });
});

describe('eligibleQueue', () => {
  it('keeps only eligible members, by position then id', () => {
    const q = eligibleQueue([member('c', 3), member('x', 1, { onDuty: false }), member('b', 2), member('a', 2), member('m', 0, { role: 'manager' })], NOW);
    expect(ids(q)).toEqual(['a', 'b', 'c']);
  });

  it('does not reorder its input', () => {
    const input = [member('b', 2), member('a', 1)];
    eligibleQueue(input, NOW);
    expect(ids(input)).toEqual(['b', 'a']);
  });
});

describe('pickNext', () => {
  const q = [member('a', 1), member('b', 4), member('c', 7)];

  it.each([
    [0, 'a'],
    [1, 'b'],
    [2, 'b'],
    [4, 'c'],
    [6, 'c'],
    [7, 'a'],
    [99, 'a'],
    [-5, 'a'],
  ])('after pointer %i picks %s', (pointer, id) => {
    expect(pickNext(q, pointer)?.id).toBe(id);
  });

  it('returns null when no one is eligible', () => {
    expect(pickNext([], 0)).toBeNull();
  });
});

describe('pointerAfterSkip', () => {
  const a = member('a', 1);
  const b = member('b', 4);
  const c = member('c', 7);
  const q = [a, b, c];
  const nextAfter = (pointer: number, skipped: typeof a) =>
    pickNext(
      q.filter((m) => m !== skipped),
      pointerAfterSkip(q, skipped, pointer),
    )?.id;

  it('makes the first eligible after a skipped Next Up the new Next Up', () => {
    expect(pointerAfterSkip(q, b, 1)).toBe(4);
    expect(nextAfter(1, b)).toBe('c');
    expect(nextAfter(0, a)).toBe('b');
  });

  it('wraps to the first eligible when the last one is skipped', () => {
    expect(nextAfter(4, c)).toBe('a');
  });

  it('keeps everyone else in turn when someone further down is skipped', () => {
    expect(pointerAfterSkip(q, c, 0)).toBe(0);
    expect(nextAfter(0, c)).toBe('a');
  });

  it('falls back to 0 when no one else is eligible', () => {
    expect(pointerAfterSkip([b], b, 0)).toBe(0);
  });
});

describe('servingOrder', () => {
  const q = [member('a', 1), member('b', 2), member('c', 3)];

  it('starts at Next Up and wraps around', () => {
    expect(ids(servingOrder(q, 0))).toEqual(['a', 'b', 'c']);
    expect(ids(servingOrder(q, 1))).toEqual(['b', 'c', 'a']);
    expect(ids(servingOrder(q, 2))).toEqual(['c', 'a', 'b']);
    expect(ids(servingOrder(q, 3))).toEqual(['a', 'b', 'c']);
  });

  it('is empty when no one is eligible', () => {
    expect(servingOrder([], 3)).toEqual([]);
  });
});

describe('snoozeEnd and followUpDue', () => {
  it('snoozes 30 minutes by default', () => {
    expect(snoozeEnd(NOW).toISOString()).toBe('2026-03-10T15:30:00.000Z');
    expect(snoozeEnd(NOW, 5).toISOString()).toBe('2026-03-10T15:05:00.000Z');
  });

  it('makes a follow-up due 24 hours after assignment, even across a DST change', () => {
    expect(followUpDue(new Date('2026-03-07T17:00:00Z')).toISOString()).toBe('2026-03-08T17:00:00.000Z');
  });
});

describe('moveInLine', () => {
  it('moves one person to a place and shifts those in between by one', () => {
    expect(moveInLine(['a', 'b', 'c', 'd'], 'c', 1)).toEqual(['a', 'c', 'b', 'd']);
    expect(moveInLine(['a', 'b', 'c', 'd'], 'a', 3)).toEqual(['b', 'c', 'd', 'a']);
    expect(moveInLine(['a', 'b', 'c', 'd'], 'b', 1)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses someone not in the line and a place outside it', () => {
    expect(moveInLine(['a', 'b'], 'zz', 0)).toBeNull();
    expect(moveInLine(['a', 'b'], 'a', -1)).toBeNull();
    expect(moveInLine(['a', 'b'], 'b', 2)).toBeNull();
  });
});

describe('the line', () => {
  // Places 1..6, the pointer on 3 (C was served last): D is Next Up; B is off duty, F snoozed.
  const team = () => [
    member('a', 1),
    member('b', 2, { onDuty: false }),
    member('c', 3),
    member('d', 4),
    member('e', 5),
    member('f', 6, { snoozeUntil: new Date(NOW.getTime() + 60_000) }),
  ];

  it('is the eligible in serving order; the rest follow the circle from the pointer, each with why', () => {
    expect(ids(lineOf(team(), 3, NOW))).toEqual(['d', 'e', 'a', 'c']);
    expect(ids(outOfLine(team(), 3, NOW))).toEqual(['f', 'b']);
    expect(outOfLine(team(), 3, NOW).map((m) => whyNotInLine(m, NOW))).toEqual(['Snoozed', 'Off duty']);
    expect(whyNotInLine(member('h', 9, { pastDue: 2 }), NOW)).toBe('Held out: 2 past-due follow-ups');
    expect(whyNotInLine(team()[0], NOW)).toBeNull();
  });

  it('swaps two neighbours by swapping their places only; the pointer stays', () => {
    const line = lineOf(team(), 3, NOW);
    const plan = reorderLine(line, ['d', 'e', 'a', 'c'], ['d', 'a', 'e', 'c'], 'a');
    expect(plan).toEqual({
      places: [
        { id: 'a', position: 5 },
        { id: 'e', position: 1 },
      ],
      moved: line[2],
      from: 3,
      to: 2,
    });
  });

  it('refuses a screen drawn before the line changed, a different set of people, someone not in line, and no move', () => {
    const line = lineOf(team(), 3, NOW);
    const refusal = (shown: string[], order: string[], moved: string) => {
      const plan = reorderLine(line, shown, order, moved);
      return 'refusal' in plan ? plan.refusal : null;
    };
    // The line as it was before D was served: the screen is stale.
    expect(refusal(['c', 'd', 'e', 'a'], ['d', 'c', 'e', 'a'], 'd')).toEqual({ status: 409, error: LINE_CHANGED });
    expect(refusal(['d', 'e', 'a'], ['e', 'd', 'a'], 'd')).toEqual({ status: 409, error: LINE_CHANGED });
    expect(refusal(['d', 'e', 'a', 'c'], ['d', 'e', 'a', 'b'], 'a')).toEqual({ status: 400, error: REORDER_SAME_PEOPLE });
    expect(refusal(['d', 'e', 'a', 'c'], ['d', 'e', 'a', 'a'], 'a')).toEqual({ status: 400, error: REORDER_SAME_PEOPLE });
    expect(refusal(['d', 'e', 'a', 'c'], ['d', 'e', 'a'], 'a')).toEqual({ status: 400, error: REORDER_SAME_PEOPLE });
    expect(refusal(['d', 'e', 'a', 'c'], ['e', 'd', 'a', 'c'], 'b')).toEqual({ status: 400, error: REORDER_WHOM });
    expect(refusal(['d', 'e', 'a', 'c'], ['d', 'e', 'a', 'c'], 'a')).toEqual({ status: 400, error: REORDER_NOTHING });
  });
});

/** A team with unique places, some of them out of line, and a pointer anywhere. */
const floorArb = fc
  .record({
    places: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 9 }),
    out: fc.array(fc.constantFrom('in', 'in', 'in', 'offDuty', 'snoozed', 'heldOut', 'inactive'), { minLength: 9, maxLength: 9 }),
    pointer: fc.integer({ min: -1, max: 42 }),
  })
  .map(({ places, out, pointer }) => ({
    pointer,
    team: places.map((p, i) =>
      member(`m${i}`, p, {
        onDuty: out[i] !== 'offDuty',
        active: out[i] !== 'inactive',
        snoozeUntil: out[i] === 'snoozed' ? new Date(NOW.getTime() + 60_000) : null,
        pastDue: out[i] === 'heldOut' ? 1 : 0,
      }),
    ),
  }));

const applyPlaces = (team: Member[], places: { id: string; position: number }[]) => {
  const to = new Map(places.map((p) => [p.id, p.position]));
  return team.map((m) => ({ ...m, position: to.get(m.id) ?? m.position }));
};

describe('reorder properties', () => {
  it('serves exactly the order asked for; nobody out of line moves; places stay unique; the pointer stays', () => {
    fc.assert(
      fc.property(
        floorArb.chain((f) =>
          fc.record({
            f: fc.constant(f),
            order: fc.shuffledSubarray(ids(lineOf(f.team, f.pointer, NOW)), { minLength: lineOf(f.team, f.pointer, NOW).length }),
            pick: fc.nat(),
          }),
        ),
        ({ f: { team, pointer }, order, pick }) => {
          const line = lineOf(team, pointer, NOW);
          fc.pre(line.length > 0);
          const moved = order[pick % order.length];
          const plan = reorderLine(line, ids(line), order, moved);
          if ('refusal' in plan) {
            expect(plan.refusal.error).toBe(REORDER_NOTHING);
            expect(order).toEqual(ids(line));
            return;
          }
          const after = applyPlaces(team, plan.places);
          expect(ids(lineOf(after, pointer, NOW))).toEqual(order);
          expect(ids(outOfLine(after, pointer, NOW))).toEqual(ids(outOfLine(team, pointer, NOW)));
          for (const m of outOfLine(team, pointer, NOW)) expect(after.find((a) => a.id === m.id)!.position).toBe(m.position);
          const positions = after.map((m) => m.position);
          expect(new Set(positions).size).toBe(positions.length);
          // Only those whose place in line changed get a new place.
          for (const p of plan.places) expect(order.indexOf(p.id)).not.toBe(ids(line).indexOf(p.id));
          expect([plan.from, plan.to]).toEqual([ids(line).indexOf(moved) + 1, order.indexOf(moved) + 1]);
        },
      ),
    );
  });

  it('an arrow moves exactly the person clicked by one place; Next Up changes only when the first two swap', () => {
    fc.assert(
      fc.property(floorArb, fc.nat(), fc.constantFrom(-1, 1), ({ team, pointer }, pick, dir) => {
        const line = ids(lineOf(team, pointer, NOW));
        fc.pre(line.length > 1);
        const i = pick % line.length;
        const order = moveInLine(line, line[i], i + dir);
        fc.pre(order !== null);
        const plan = reorderLine(lineOf(team, pointer, NOW), line, order, line[i]);
        if ('refusal' in plan) throw new Error(plan.refusal.error);
        expect(plan.places).toHaveLength(2);
        const after = ids(lineOf(applyPlaces(team, plan.places), pointer, NOW));
        expect(after.indexOf(line[i])).toBe(i + dir);
        expect(after.indexOf(line[i + dir])).toBe(i);
        line.forEach((id, j) => {
          if (j !== i && j !== i + dir) expect(after[j]).toBe(id);
        });
        expect(after[0] !== line[0]).toBe(Math.min(i, i + dir) === 0);
      }),
    );
  });
});

describe('rotation properties', () => {
  // true three times in four, so that most generated queues are not empty
  const mostly = fc.integer({ min: 0, max: 3 }).map((n) => n !== 0);
  const rarely = mostly.map((b) => !b);
  const memberSpec = fc.record({
    position: fc.integer({ min: 1, max: 12 }),
    role: fc.constantFrom('staff', 'staff', 'Staff', 'manager', ''),
    active: mostly,
    onDuty: mostly,
    disabled: rarely,
    deleted: rarely,
    snoozeMinutes: fc.option(fc.integer({ min: -60, max: 60 })),
  });

  const action = fc.oneof(
    fc.record({ t: fc.constant('assign' as const) }),
    fc.record({ t: fc.constant('skip' as const), target: fc.nat(), minutes: fc.integer({ min: 1, max: 480 }) }),
    fc.record({ t: fc.constant('reorder' as const), target: fc.nat(), dir: fc.constantFrom('up' as const, 'down' as const) }),
    fc.record({ t: fc.constant('toggle' as const), target: fc.nat(), field: fc.constantFrom('active' as const, 'onDuty' as const) }),
    fc.record({ t: fc.constant('wait' as const), minutes: fc.integer({ min: 0, max: 45 }) }),
  );

  it('pickNext never returns an ineligible member, whatever happens', () => {
    fc.assert(
      fc.property(
        fc.array(memberSpec, { maxLength: 8 }),
        fc.integer({ min: -2, max: 14 }),
        fc.array(action, { maxLength: 40 }),
        (specs, startPointer, actions) => {
          let now = NOW;
          let pointer = startPointer;
          const members = specs.map((s, i) =>
            member(`m${i}`, s.position, {
              role: s.role,
              active: s.active,
              onDuty: s.onDuty,
              disabled: s.disabled,
              deletedAt: s.deleted ? NOW : null,
              snoozeUntil: s.snoozeMinutes === null ? null : snoozeEnd(NOW, s.snoozeMinutes),
            }),
          );

          for (const a of actions) {
            const queue = eligibleQueue(members, now);
            if (a.t === 'assign') {
              const next = pickNext(queue, pointer);
              expect(next === null).toBe(queue.length === 0);
              if (next) {
                // checked field by field, not through isEligible, so a wrong isEligible fails here too
                expect(next.role.trim().toLowerCase()).not.toBe('manager');
                expect([next.active, next.onDuty, next.disabled, next.deletedAt]).toEqual([true, true, false, null]);
                expect(next.snoozeUntil === null || next.snoozeUntil <= now).toBe(true);
                expect(servingOrder(queue, pointer)[0]).toBe(next);
                pointer = next.position;
              }
            } else if (a.t === 'skip' && members.length) {
              const target = members[a.target % members.length];
              const before = eligibleQueue(members, now);
              target.snoozeUntil = snoozeEnd(now, a.minutes);
              if (before.includes(target)) pointer = pointerAfterSkip(before, target, pointer);
            } else if (a.t === 'reorder' && queue.length) {
              const line = lineOf(members, pointer, now);
              const i = a.target % line.length;
              const order = moveInLine(ids(line), line[i].id, a.dir === 'up' ? i - 1 : i + 1);
              const plan = order && reorderLine(line, ids(line), order, line[i].id);
              if (plan && 'places' in plan) for (const p of plan.places) members.find((m) => m.id === p.id)!.position = p.position;
            } else if (a.t === 'toggle' && members.length) {
              const m = members[a.target % members.length];
              m[a.field] = !m[a.field];
            } else if (a.t === 'wait') {
              now = new Date(now.getTime() + a.minutes * 60_000);
            }
          }
        },
      ),
    );
  });

  it('serves a fixed set of k members in strict rotation, each floor(n/k) or ceil(n/k) times', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: -5, max: 110 }),
        fc.nat({ max: 60 }),
        (positions, startPointer, n) => {
          const queue = eligibleQueue(
            positions.map((p) => member(`p${p}`, p)),
            NOW,
          );
          const k = queue.length;
          const counts = new Map<string, number>();
          const served: number[] = [];
          let pointer = startPointer;
          for (let i = 0; i < n; i++) {
            const next = pickNext(queue, pointer)!;
            counts.set(next.id, (counts.get(next.id) ?? 0) + 1);
            served.push(queue.indexOf(next));
            pointer = next.position;
          }

          for (const m of queue) {
            const c = counts.get(m.id) ?? 0;
            expect(c === Math.floor(n / k) || c === Math.ceil(n / k)).toBe(true);
          }
          if (n > 0) expect(queue[served[0]]).toBe(pickNext(queue, startPointer));
          for (let i = 1; i < served.length; i++) expect(served[i]).toBe((served[i - 1] + 1) % k);
        },
      ),
    );
  });
});
