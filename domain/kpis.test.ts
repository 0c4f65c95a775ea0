import { describe, expect, it } from 'vitest';
import { closePct, leadKpis, skipReasons } from './kpis';

describe('lead KPIs', () => {
  it('computes close % per associate and the team average, busiest first', () => {
    const { associates, average } = leadKpis([
      { id: 'a', name: 'Ann', received: 4, closed: 1, skips: 0, beBacks: 2 },
      { id: 'b', name: 'Ben', received: 10, closed: 5, skips: 3, beBacks: 0 },
      { id: 'c', name: 'Cat', received: 0, closed: 0, skips: 1, beBacks: 1 },
    ]);
    expect(associates.map((a) => [a.name, a.closePct])).toEqual([
      ['Ben', 50],
      ['Ann', 25],
      ['Cat', null],
    ]);
    expect(average).toEqual({ received: 4.7, closed: 2, skips: 1.3, beBacks: 1, closePct: 43 });
  });

  it('has no close % without leads', () => {
    expect(closePct(0, 0)).toBeNull();
    expect(closePct(1, 3)).toBe(33);
    expect(leadKpis([]).average).toEqual({ received: 0, closed: 0, skips: 0, beBacks: 0, closePct: null });
  });

  it('groups skip reasons case-insensitively, most frequent first', () => {
    expect(skipReasons([{ reason: 'Lunch' }, { reason: 'lunch ' }, { reason: 'With customer' }, { reason: null }])).toEqual([
      { reason: 'Lunch', count: 2 },
      { reason: '(no reason)', count: 1 },
      { reason: 'With customer', count: 1 },
    ]);
  });
});
