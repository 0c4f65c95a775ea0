import { describe, expect, it } from 'vitest';
import type { RotationView } from '../../domain/contract/answers';
import { presentRotation } from './present';

const member = (id: string, pastDue: { id: number; customer: string }[]): RotationView['team'][number] => ({
  id,
  name: id.toUpperCase(),
  active: true,
  onDuty: true,
  snoozeUntil: null,
  eligible: pastDue.length === 0,
  place: pastDue.length === 0 ? 1 : null,
  notInLine: pastDue.length ? `Held out: ${pastDue.length} past-due follow-ups` : null,
  pastDueCount: pastDue.length,
  pastDue,
  weight: 1,
  dailyCap: null,
  openCap: null,
});

const view: RotationView = {
  pointerPos: 0,
  nextUp: { id: 'c', name: 'C' },
  queue: [{ id: 'c', name: 'C', place: 1, active: true, onDuty: true }],
  team: [
    member('c', []),
    member('a', [
      { id: 1, customer: 'Ann Lead' },
      { id: 2, customer: 'Abe Lead' },
    ]),
    member('b', [{ id: 3, customer: 'Bea Lead' }]),
  ],
  pending: [
    { leadId: 7, customer: 'Pat Pending', salesman: { id: 'a', name: 'A' }, acceptDue: '2026-11-20T15:00:00.000Z' },
    { leadId: 8, customer: 'Quin Pending', salesman: { id: 'b', name: 'B' }, acceptDue: '2026-11-20T15:01:00.000Z' },
  ],
  log: [],
  nextChangeAt: null,
};

describe('the rotation as each reader sees it', () => {
  it('shows a manager everything', () => {
    expect(presentRotation(view, { id: 'boss', role: 'manager' })).toEqual(view);
  });

  it("shows a salesman everyone's counts and reasons, and only his own leads", () => {
    const seen = presentRotation(view, { id: 'a', role: 'staff' });
    expect(seen.team.map((m) => [m.id, m.pastDueCount, m.notInLine, m.pastDue.map((l) => l.customer)])).toEqual([
      ['c', 0, null, []],
      ['a', 2, 'Held out: 2 past-due follow-ups', ['Ann Lead', 'Abe Lead']],
      ['b', 1, 'Held out: 1 past-due follow-ups', []],
    ]);
    expect(seen.pending.map((p) => p.leadId)).toEqual([7]);
    expect(JSON.stringify(seen)).not.toMatch(/Bea Lead|Quin Pending/);
  });

  it('shows a salesman with nothing of his own none of the others leads', () => {
    const seen = presentRotation(view, { id: 'c', role: 'staff' });
    expect(seen.team.flatMap((m) => m.pastDue)).toEqual([]);
    expect(seen.pending).toEqual([]);
    expect(seen.team.map((m) => m.pastDueCount)).toEqual([0, 2, 1]);
  });
});
