import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { acceptDue, formatSeconds, handOn, isOverdue, MAX_HANDOFFS, missReason, percentile, speedFigures, timeLeft } from './speed';
import { eligibleQueue, type LeadFacts } from './rotation';
import { member } from './member.fixture';

const NOW = new Date('2026-11-20T15:00:00Z');
const offer = (over: Partial<LeadFacts> = {}): LeadFacts => ({
  assignedTo: 'a',
  acceptDue: new Date(NOW.getTime() + 600_000),
  acceptedAt: null,
  closed: false,
  handoffs: 0,
  firstContactAt: null,
  followUpDue: null,
  ...over,
});

describe('the response window', () => {
  it('ends the given minutes after the offer; 0 is off', () => {
    expect(acceptDue(NOW, 10)?.toISOString()).toBe('2026-11-20T15:10:00.000Z');
    expect(acceptDue(NOW, 1)?.toISOString()).toBe('2026-11-20T15:01:00.000Z');
    expect(acceptDue(NOW, 0)).toBeNull();
  });

  it('is overdue from its last moment on, never when accepted, closed, unassigned or off', () => {
    const due = new Date(NOW.getTime() + 600_000);
    expect(isOverdue(offer(), new Date(due.getTime() - 1))).toBe(false);
    expect(isOverdue(offer(), due)).toBe(true);
    expect(isOverdue(offer({ acceptedAt: NOW }), new Date(due.getTime() + 1))).toBe(false);
    expect(isOverdue(offer({ closed: true }), new Date(due.getTime() + 1))).toBe(false);
    expect(isOverdue(offer({ assignedTo: '' }), new Date(due.getTime() + 1))).toBe(false);
    expect(isOverdue(offer({ acceptDue: null }), new Date(due.getTime() + 1))).toBe(false);
  });

  it('says why in the skip', () => {
    expect(missReason(10)).toBe('No response in 10 min');
  });
});

describe('handOn', () => {
  const team = [member('a', 1), member('b', 2), member('c', 3)];

  it('gives the lead to the next eligible after the one who missed it, as his turn', () => {
    // a got the last lead (pointer 1) and let it pass: b is next.
    expect(handOn(team, 'a', 1, [], NOW)).toMatchObject({ kind: 'next', to: { id: 'b' }, pointer: 2, handoffs: 1 });
    // b missed a lead c had let pass, while c was served after him: the pointer stays and a is next.
    expect(handOn(team, 'b', 3, ['c'], NOW)).toMatchObject({ kind: 'next', to: { id: 'a' }, pointer: 1, handoffs: 2 });
  });

  it('never gives it back to anyone who let it pass before, and counts people, not passes', () => {
    // a let it pass, then it came back to him from Unassigned and he let it pass again: one person.
    expect(handOn(team, 'a', 1, ['a'], NOW)).toMatchObject({ kind: 'next', to: { id: 'b' }, handoffs: 1 });
    // c let it pass earlier and is awake again; b misses it now: it waits rather than go back to c.
    expect(handOn([member('b', 2), member('c', 3)], 'b', 2, ['c'], NOW)).toEqual({ kind: 'wait', pointer: 2, handoffs: 2 });
  });

  it('lets it wait in Unassigned when no one else is eligible', () => {
    expect(handOn([member('a', 1), member('b', 2, { onDuty: false })], 'a', 1, [], NOW)).toEqual({ kind: 'wait', pointer: 0, handoffs: 1 });
  });

  it('parks it for a manager once a third salesman let it pass', () => {
    expect(MAX_HANDOFFS).toBe(3);
    expect(handOn(team, 'a', 1, ['b', 'c'], NOW)).toEqual({ kind: 'park', pointer: 1, handoffs: 3 });
  });

  it('never hands a lead to anyone who let it pass while someone else is eligible, and gives it to one salesman only', () => {
    const arb = fc.record({
      flags: fc.array(fc.record({ onDuty: fc.boolean(), active: fc.boolean(), snoozed: fc.boolean(), passed: fc.boolean() }), { minLength: 1, maxLength: 8 }),
      missed: fc.nat(7),
      pointer: fc.nat(9),
    });
    fc.assert(
      fc.property(arb, ({ flags, missed, pointer }) => {
        const members = flags.map((f, i) =>
          member(`m${i}`, i + 1, { onDuty: f.onDuty, active: f.active, snoozeUntil: f.snoozed ? new Date(NOW.getTime() + 60_000) : null }),
        );
        const missedId = members[missed % members.length].id;
        const passedBefore = members.filter((_, i) => flags[i].passed).map((m) => m.id);
        const people = new Set([...passedBefore, missedId]);
        const r = handOn(members, missedId, pointer, passedBefore, NOW);
        const others = eligibleQueue(members, NOW).filter((m) => !people.has(m.id));
        expect(r.handoffs).toBe(people.size);
        if (people.size >= MAX_HANDOFFS) expect(r.kind).toBe('park');
        else if (others.length) {
          expect(r.kind).toBe('next');
          if (r.kind === 'next') {
            expect(people.has(r.to.id)).toBe(false);
            expect(others.map((m) => m.id)).toContain(r.to.id);
            expect(r.pointer).toBe(r.to.position);
          }
        } else expect(r.kind).toBe('wait');
      }),
    );
  });
});

describe('speed figures', () => {
  it('takes the median and the 90th percentile by nearest rank', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([5], 90)).toBe(5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(5);
    expect(percentile([10, 1, 9, 2, 8, 3, 7, 4, 6, 5], 90)).toBe(9);
  });

  it('measures from when each salesman got the lead, per salesman and for the team, since a moment', () => {
    const from = Date.parse('2026-11-20T05:00:00Z');
    const at = (iso: string) => Date.parse(iso);
    const leads = [
      { holderId: 'a', offeredAt: at('2026-11-20T14:00:00Z'), acceptedAt: at('2026-11-20T14:01:00Z'), firstContactAt: at('2026-11-20T14:05:00Z') },
      { holderId: 'b', offeredAt: at('2026-11-20T14:00:00Z'), acceptedAt: at('2026-11-20T14:00:20Z'), firstContactAt: null },
      // Before the period: not counted.
      { holderId: 'a', offeredAt: at('2026-11-19T14:00:00Z'), acceptedAt: at('2026-11-19T15:00:00Z'), firstContactAt: null },
    ];
    const r = speedFigures(
      leads,
      [{ missedId: 'b', at: at('2026-11-20T13:00:00Z') }],
      [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
      ],
      from,
    );
    expect(r.team).toEqual({ accept: { count: 2, median: 20, p90: 60 }, contact: { count: 1, median: 300, p90: 300 }, handoffs: 1 });
    expect(r.associates).toEqual([
      { id: 'a', name: 'A', accept: { count: 1, median: 60, p90: 60 }, contact: { count: 1, median: 300, p90: 300 }, handoffs: 0 },
      { id: 'b', name: 'B', accept: { count: 1, median: 20, p90: 20 }, contact: { count: 0, median: null, p90: null }, handoffs: 1 },
    ]);
  });

  it('reads durations and the time left as people do', () => {
    expect([formatSeconds(null), formatSeconds(45), formatSeconds(420), formatSeconds(3900), formatSeconds(7200)]).toEqual([
      '—',
      '45 s',
      '7 min',
      '1 h 5 min',
      '2 h',
    ]);
    const due = new Date(NOW.getTime() + 462_000);
    expect(timeLeft(due, NOW)).toBe('7:42');
    expect(timeLeft(due, new Date(due.getTime() + 5000))).toBe('0:00');
  });
});
