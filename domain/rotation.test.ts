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
  swapTarget,
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

describe('swapTarget', () => {
  const q = [member('a', 1), member('b', 2), member('c', 3)];

  it('finds the neighbour above or below', () => {
    expect(swapTarget(q, 'b', 'up')?.id).toBe('a');
    expect(swapTarget(q, 'b', 'down')?.id).toBe('c');
  });

  it('refuses the first going up, the last going down and an unknown id', () => {
    expect(swapTarget(q, 'a', 'up')).toBeNull();
    expect(swapTarget(q, 'c', 'down')).toBeNull();
    expect(swapTarget(q, 'zz', 'up')).toBeNull();
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
              const m = queue[a.target % queue.length];
              const other = swapTarget(queue, m.id, a.dir);
              if (other) [m.position, other.position] = [other.position, m.position];
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
