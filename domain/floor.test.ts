import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ASKED_FOR_INACTIVE, ASKED_FOR_UNKNOWN, beBack, heldOutText } from './floor';
import { eligibleQueue, pickNext } from './rotation';
import { member } from './member.fixture';

const NOW = new Date('2026-11-20T15:00:00Z');

it('says why a salesman is held out', () => {
  expect([heldOutText(1), heldOutText(2)]).toEqual(['Held out: 1 past-due follow-up', 'Held out: 2 past-due follow-ups']);
});

describe('be-backs', () => {
  it('go to the salesman asked for, on the floor or not, if he is active', () => {
    const team = [member('a', 1), member('b', 2, { onDuty: false, snoozeUntil: new Date(NOW.getTime() + 1) })];
    expect(beBack(team, 'b', 1)).toEqual({ to: team[1], pointer: 1 });
    expect(beBack([member('a', 1, { active: false })], 'a', 0)).toEqual({ refusal: ASKED_FOR_INACTIVE });
    expect(beBack([member('a', 1, { disabled: true })], 'a', 0)).toEqual({ refusal: ASKED_FOR_UNKNOWN });
    expect(beBack([member('a', 1, { role: 'manager' })], 'a', 0)).toEqual({ refusal: ASKED_FOR_UNKNOWN });
    expect(beBack([], 'zz', 0)).toEqual({ refusal: ASKED_FOR_UNKNOWN });
  });

  it('never move the pointer: Next Up is the same before and after any mix of ups and be-backs', () => {
    const arb = fc.record({
      flags: fc.array(fc.record({ onDuty: fc.boolean(), active: fc.boolean() }), { minLength: 1, maxLength: 8 }),
      events: fc.array(fc.oneof(fc.constant<'up'>('up'), fc.nat(7)), { maxLength: 30 }),
    });
    fc.assert(
      fc.property(arb, ({ flags, events }) => {
        const team = flags.map((f, i) => member(`m${i}`, i + 1, f));
        let pointer = 0;
        for (const e of events) {
          const next = pickNext(eligibleQueue(team, NOW), pointer);
          if (e === 'up') {
            if (next) pointer = next.position;
            continue;
          }
          const r = beBack(team, team[e % team.length].id, pointer);
          if ('to' in r) {
            expect(r.pointer).toBe(pointer);
            expect(pickNext(eligibleQueue(team, NOW), r.pointer)?.id).toBe(next?.id);
          }
        }
      }),
    );
  });
});
