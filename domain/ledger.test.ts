import { describe, expect, it } from 'vitest';
import { fairShare, figures, floorSpans, floorText, passWords, periodsOf, skipBehind, upKind, type LogRow, type Span } from './ledger';

const NY = 'America/New_York';
const H = 3_600_000;
const T0 = Date.parse('2026-11-25T14:00:00Z'); // Wednesday 9:00 AM in New York

describe('the fairness ledger', () => {
  it('reads today, this week (since Sunday) and this month on the store’s clock', () => {
    const now = new Date('2026-11-26T03:30:00Z'); // Wednesday 10:30 PM in New York
    const p = periodsOf(now, NY);
    expect(new Date(p.today.from).toISOString()).toBe('2026-11-25T05:00:00.000Z');
    expect(new Date(p.week.from).toISOString()).toBe('2026-11-22T05:00:00.000Z');
    expect(new Date(p.month.from).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(p.today.to).toBe(now.getTime());
  });

  it('counts a manager’s hand-out, a be-back and "No customer" apart from the rotation’s ups', () => {
    const row = (r: Partial<LogRow>): LogRow => ({ type: 'assign', at: 0, targetId: 'a', reason: null, noCustomer: false, ...r });
    expect(upKind(row({}))).toBe('rotation');
    expect(upKind(row({ reason: 'Asked for him' }))).toBe('override');
    expect(upKind(row({ type: 'beback' }))).toBe('beback');
    expect(upKind(row({ noCustomer: true }))).toBe('noCustomer');
    expect(upKind(row({ type: 'beback', noCustomer: true }))).toBe('noCustomer');
    expect(upKind(row({ type: 'skip', reason: 'Lunch' }))).toBeNull();
  });

  it('derives the spans on the floor from on/off duty, clipped to the period', () => {
    const period: Span = { from: T0, to: T0 + 10 * H };
    // On since before the period, off at 2 h, on again at 4 h until now.
    expect(
      floorSpans(
        [
          { at: T0 - H, on: true },
          { at: T0 + 2 * H, on: false },
          { at: T0 + 4 * H, on: true },
        ],
        true,
        period,
      ),
    ).toEqual([
      { from: T0, to: T0 + 2 * H },
      { from: T0 + 4 * H, to: T0 + 10 * H },
    ]);
    // No record before: the opposite of his first change; no record at all: as he is now.
    expect(floorSpans([{ at: T0 + 3 * H, on: false }], false, period)).toEqual([{ from: T0, to: T0 + 3 * H }]);
    expect(floorSpans([], false, period)).toEqual([]);
    expect(floorSpans([], true, period, T0 + 8 * H)).toEqual([{ from: T0 + 8 * H, to: T0 + 10 * H }]);
    // Changes after the period do not count.
    expect(floorSpans([{ at: T0 + 11 * H, on: false }], true, period)).toEqual([{ from: T0, to: T0 + 10 * H }]);
    expect(floorText(2 * H + 5 * 60_000)).toBe('2 h 5 min');
    expect(floorText(45 * 60_000)).toBe('45 min');
  });

  it('shares each up among those on the floor then, for the hours he was there', () => {
    const amy = [{ from: T0, to: T0 + 4 * H }];
    const bob = [{ from: T0, to: T0 + 8 * H }];
    // Ups at 1 h and 2 h (both on: half each), at 6 h (Bob alone).
    const ups = [T0 + H, T0 + 2 * H, T0 + 6 * H];
    expect(fairShare(ups, amy, [amy, bob])).toBe(1);
    expect(fairShare(ups, bob, [amy, bob])).toBe(2);
  });

  it('gives one person’s figures for a period', () => {
    const log: LogRow[] = [
      { type: 'assign', at: T0 + H, targetId: 'a', reason: null, noCustomer: false },
      { type: 'assign', at: T0 + 2 * H, targetId: 'b', reason: null, noCustomer: false },
      { type: 'assign', at: T0 + 3 * H, targetId: 'a', reason: 'Asked for her', noCustomer: false },
      { type: 'beback', at: T0 + 3 * H, targetId: 'a', reason: null, noCustomer: false },
      { type: 'assign', at: T0 + 3 * H, targetId: 'a', reason: 'Claimed', noCustomer: false },
      { type: 'assign', at: T0 + 4 * H, targetId: 'a', reason: null, noCustomer: true },
      { type: 'skip', at: T0 + 5 * H, targetId: 'a', reason: 'Lunch', noCustomer: false },
      { type: 'assign', at: T0 + 20 * H, targetId: 'a', reason: null, noCustomer: false },
    ];
    const spans = new Map([
      ['a', [{ from: T0, to: T0 + 30 * H }]],
      ['b', [{ from: T0, to: T0 + 30 * H }]],
    ]);
    const f = figures('a', log, [T0 + 6 * H, T0 + 25 * H], spans, { from: T0, to: T0 + 10 * H });
    expect(f).toEqual({ floorMs: 10 * H, ups: 1, teamAverage: 1, overrides: 1, claims: 1, beBacks: 1, noCustomer: 1, passes: 1, skips: 1 });
  });

  it('says a pass in words, a snooze with the skip it came from', () => {
    const skips = [
      { at: T0, reason: 'Lunch', by: 'Manny' },
      { at: T0 + 2 * H, reason: 'With a customer', by: 'Mo' },
    ];
    expect(skipBehind(skips, T0 + H)).toEqual(skips[0]);
    expect(skipBehind(skips, T0 + 3 * H)).toEqual(skips[1]);
    expect(skipBehind(skips, T0 - 1)).toBeNull();
    expect(passWords('snooze', '', skips[0])).toBe('Snoozed: skipped by Manny (Lunch)');
    expect(passWords('hold', '2', null)).toBe('Held out: 2 past-due follow-ups');
    expect(passWords('rule', 'Rule "Spanish" sent it to the Spanish team', null)).toBe('Rule "Spanish" sent it to the Spanish team');
    expect(passWords('rule', '', null)).toBe('A routing rule sent it to another team');
    expect(passWords('off', '', null)).toBe('Off duty');
  });
});
