import { describe, expect, it } from 'vitest';
import { closePct, firstNotice, formatMs, leadKpis, skipReasons } from './kpis';

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

describe('time from assign to the first notice delivered', () => {
  it('takes per lead the first notice that reached him: a text once delivered, a push once the push service took it', () => {
    const lead = (leadId: number, channel: 'push' | 'sms' | 'email', sentAt: number | null, deliveredAt: number | null = null) => ({
      leadId,
      assignedAt: 1000,
      channel,
      sentAt,
      deliveredAt,
    });
    expect(
      firstNotice([
        lead(1, 'push', 1800),
        lead(1, 'push', 1500),
        lead(1, 'sms', 1100, 3000),
        lead(2, 'sms', 1200, null),
        lead(3, 'sms', 1200, 5000),
        lead(4, 'push', null),
      ]),
    ).toEqual({ count: 2, medianMs: 500, p90Ms: 4000 });
    expect(firstNotice([])).toEqual({ count: 0, medianMs: null, p90Ms: null });
  });

  it('reads as ms, seconds or minutes', () => {
    expect([null, 850, 2400, 125_000, 3_900_000].map(formatMs)).toEqual(['—', '850 ms', '2.4 s', '2 min', '1 h 5 min']);
  });
});
