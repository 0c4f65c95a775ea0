import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ASKED_FOR_INACTIVE, ASKED_FOR_UNKNOWN, beBack, checkIn, heldOutText, override } from './floor';
import { eligibleQueue, isEligible, pickNext, servingOrder, type Member } from './rotation';
import { member } from './member.fixture';

const NOW = new Date('2026-11-20T15:00:00Z');

describe('held out', () => {
  it('says why a salesman is held out', () => {
    expect([heldOutText(1), heldOutText(2)]).toEqual(['Held out: 1 past-due follow-up', 'Held out: 2 past-due follow-ups']);
  });

  it('passes over a salesman with past-due follow-ups and takes him back, in his place, once they are cleared', () => {
    const team = [member('a', 1), member('b', 2, { pastDue: 2 }), member('c', 3)];
    expect(isEligible(team[1], NOW)).toBe(false);
    expect(servingOrder(eligibleQueue(team, NOW), 1).map((m) => m.id)).toEqual(['c', 'a']);
    const cleared = team.map((m) => ({ ...m, pastDue: 0 }));
    expect(servingOrder(eligibleQueue(cleared, NOW), 1).map((m) => m.id)).toEqual(['b', 'c', 'a']);
  });
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

describe('check-in order', () => {
  /** Clocks `id` in (or out) under the rule, as the server does in the rotation transaction. */
  function clock(team: Member[], pointer: number, id: string, on: boolean) {
    const top = Math.max(0, ...team.map((m) => m.position));
    if (!on) return { team: team.map((m) => (m.id === id ? { ...m, onDuty: false } : m)), pointer };
    const r = checkIn(team, id, pointer, top);
    const place = new Map(r.places.map((p) => [p.id, p.position]));
    return { team: team.map((m) => ({ ...m, position: place.get(m.id)!, onDuty: m.id === id ? true : m.onDuty })), pointer: r.pointer };
  }
  const line = (team: Member[], pointer: number) => servingOrder(eligibleQueue(team, NOW), pointer).map((m) => m.id);

  it('serves the day in the order salesmen clocked in, and whoever clocks out and in again goes to the end', () => {
    // After closing everyone is off duty; the pointer stayed wherever yesterday left it.
    let s = { team: ['a', 'b', 'c', 'd'].map((id, i) => member(id, i + 1, { onDuty: false })), pointer: 2 };
    for (const id of ['c', 'a', 'd', 'b']) s = clock(s.team, s.pointer, id, true);
    expect(line(s.team, s.pointer)).toEqual(['c', 'a', 'd', 'b']);
    // c is served: a is Next Up; d clocks out and in again: behind b, after everyone waiting.
    s.pointer = pickNext(eligibleQueue(s.team, NOW), s.pointer)!.position;
    expect(line(s.team, s.pointer)).toEqual(['a', 'd', 'b', 'c']);
    s = clock(s.team, s.pointer, 'd', false);
    s = clock(s.team, s.pointer, 'd', true);
    expect(line(s.team, s.pointer)).toEqual(['a', 'b', 'c', 'd']);
    expect(new Set(s.team.map((m) => m.position)).size).toBe(s.team.length);
  });

  it('always puts the one clocking in last, keeps everyone else’s turn, and never shares a place', () => {
    const arb = fc.record({
      flags: fc.array(fc.record({ onDuty: fc.boolean(), active: fc.boolean() }), { minLength: 1, maxLength: 8 }),
      events: fc.array(fc.tuple(fc.nat(7), fc.boolean(), fc.boolean()), { maxLength: 30 }),
    });
    fc.assert(
      fc.property(arb, ({ flags, events }) => {
        let s = { team: flags.map((f, i) => member(`m${i}`, i * 3 + 1, f)), pointer: 0 };
        for (const [n, on, serve] of events) {
          if (serve) {
            const next = pickNext(eligibleQueue(s.team, NOW), s.pointer);
            if (next) s.pointer = next.position;
          }
          const id = s.team[n % s.team.length].id;
          const before = line(s.team, s.pointer).filter((x) => x !== id);
          s = clock(s.team, s.pointer, id, on);
          const after = line(s.team, s.pointer);
          expect(after.filter((x) => x !== id)).toEqual(before);
          if (on && s.team.find((m) => m.id === id)!.active) expect(after.at(-1)).toBe(id);
          expect(new Set(s.team.map((m) => m.position)).size).toBe(s.team.length);
        }
      }),
    );
  });
});

describe('a hand-out to a named salesman (override)', () => {
  it('goes to any active salesman, on the floor or not; naming Next Up is his turn, anyone else leaves the pointer', () => {
    const team = [member('a', 1), member('b', 2), member('c', 3, { onDuty: false })];
    const eligible = eligibleQueue(team, NOW);
    // Pointer on 1: B is Next Up.
    expect(override(team[1], eligible, 1)).toEqual({ to: team[1], pointer: 2 });
    expect(override(team[0], eligible, 1)).toEqual({ to: team[0], pointer: 1 });
    expect(override(team[2], eligible, 1)).toEqual({ to: team[2], pointer: 1 });
  });

  it('refuses no one, a manager, someone deleted, disabled or inactive, each saying why', () => {
    const refusal = (m: Member | undefined) => {
      const r = override(m, [], 0);
      return 'refusal' in r ? r.refusal : null;
    };
    expect(refusal(undefined)).toBe('The salesman you named is not on the team.');
    expect(refusal(member('m', 1, { role: 'manager', name: 'Manny' }))).toBe('Manny is a manager: only salesmen take leads.');
    expect(refusal(member('d', 1, { name: 'Dee', deletedAt: NOW, disabled: true }))).toBe('Dee was deleted. Restore him first, or name someone else.');
    expect(refusal(member('x', 1, { name: 'Xi', disabled: true }))).toBe('Xi is disabled. Enable him first, or name someone else.');
    expect(refusal(member('i', 1, { name: 'Ivy', active: false }))).toBe('Ivy is inactive. Activate him first, or name someone else.');
  });
});
