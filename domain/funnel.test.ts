import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MIN_BAR_PCT, funnelBars, shareText, funnelCsv, funnelOf, funnelRange, median, pctOf, reached, type FunnelLead } from './funnel';

const lead = (over: Partial<FunnelLead> = {}): FunnelLead => ({
  firstContactAt: null,
  appointmentSetAt: null,
  shownAt: null,
  stage: null,
  ...over,
});

describe('the funnel', () => {
  it('knows what each step means', () => {
    expect(reached('contacted', lead())).toBe(false);
    expect(reached('contacted', lead({ firstContactAt: 5 }))).toBe(true);
    expect(reached('contacted', lead({ stage: 'contacted' }))).toBe(false);
    expect(reached('appointment', lead({ appointmentSetAt: 9 }))).toBe(true);
    expect(reached('appointment', lead({ stage: 'appointment' }))).toBe(false);
    // A lost lead that showed was shown.
    expect(reached('shown', lead({ shownAt: 9, stage: 'lost' }))).toBe(true);
    expect(reached('sold', lead({ stage: 'sold' }))).toBe(true);
    expect(reached('sold', lead({ stage: 'lost' }))).toBe(false);
    expect(reached('sold', lead({ stage: 'shown' }))).toBe(false);
  });

  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([])).toBeNull();
    expect(median([7])).toBe(7);
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 1 }), (xs) => {
        const m = median(xs)!;
        expect(xs.filter((x) => x < m).length).toBeLessThanOrEqual(xs.length / 2);
        expect(xs.filter((x) => x > m).length).toBeLessThanOrEqual(xs.length / 2);
      }),
    );
  });

  it('gives percentages of the leads received, to one decimal', () => {
    expect(pctOf(1, 3)).toBe(33.3);
    expect(pctOf(2, 3)).toBe(66.7);
    expect(pctOf(0, 0)).toBe(0);
    expect(pctOf(5, 5)).toBe(100);
  });

  it('groups leads, counts each step, totals them and orders rows by leads', () => {
    const at = 1_000_000;
    const { rows, total } = funnelOf([
      {
        ...lead({ firstContactAt: at + 60_000, appointmentSetAt: at + 1, shownAt: at + 2, stage: 'sold' }),
        key: 'a',
        name: 'Ann',
        assignedAt: at,
      },
      { ...lead({ firstContactAt: at + 180_000 }), key: 'a', name: 'Ann', assignedAt: at },
      { ...lead(), key: 'b', name: 'Ben', assignedAt: at },
    ]);
    expect(rows.map((r) => r.name)).toEqual(['Ann', 'Ben']);
    expect(rows[0]).toMatchObject({ leads: 2, contacted: 2, appointment: 1, shown: 1, sold: 1, soldPct: 50, medianFirstContactSeconds: 120 });
    expect(rows[1]).toMatchObject({ leads: 1, contacted: 0, contactedPct: 0, medianFirstContactSeconds: null });
    expect(total).toMatchObject({ name: 'Total', leads: 3, contacted: 2, sold: 1, soldPct: 33.3, medianFirstContactSeconds: 120 });
    // Each step is reached by no more leads than the one before it here, and never by more than were received.
    fc.assert(
      fc.property(fc.array(fc.record({ c: fc.boolean(), a: fc.boolean(), s: fc.boolean(), sold: fc.boolean() })), (ls) => {
        const f = funnelOf(
          ls.map((l) => ({
            ...lead({ firstContactAt: l.c ? 1 : null, appointmentSetAt: l.a ? 2 : null, shownAt: l.s ? 3 : null, stage: l.sold ? 'sold' : null }),
            key: 'k',
            name: 'K',
            assignedAt: 0,
          })),
        );
        for (const step of ['contacted', 'appointment', 'shown', 'sold'] as const) expect(f.total[step]).toBeLessThanOrEqual(f.total.leads);
        expect(f.total.leads).toBe(ls.length);
      }),
    );
  });

  it('reads the period: this month by default, inclusive days, at most 366 of them', () => {
    expect(funnelRange({}, '2026-11-25')).toEqual({ from: '2026-11-01', to: '2026-11-25' });
    expect(funnelRange({ from: '2026-10-03' }, '2026-11-25')).toEqual({ from: '2026-10-03', to: '2026-11-25' });
    expect(funnelRange({ to: '2026-09-10' }, '2026-11-25')).toEqual({ from: '2026-09-01', to: '2026-09-10' });
    expect(funnelRange({ from: '2026-12-02' }, '2026-11-25')).toEqual({ from: '2026-12-02', to: '2026-12-02' });
    expect(funnelRange({ from: '2026-03-10', to: '2026-03-09' }, '2026-11-25')).toEqual({ error: 'From must be on or before To' });
    expect(funnelRange({ from: '2024-01-01', to: '2024-12-31' }, '2026-11-25')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(funnelRange({ from: '2025-01-01', to: '2026-01-02' }, '2026-11-25')).toEqual({ error: 'The period can be at most 366 days' });
  });

  it('writes the CSV with its total and neutralises formulas', () => {
    const { rows, total } = funnelOf([{ ...lead({ stage: 'sold' }), key: '@x', name: '@x', assignedAt: 0 }]);
    const csv = funnelCsv({ from: '2026-11-01', to: '2026-11-25', by: 'source', rows, total });
    expect(csv).toContain("'@x,1,0,0,0,0,0,0,1,100,\r\n");
    expect(csv.endsWith('Total,1,0,0,0,0,0,0,1,100,\r\n')).toBe(true);
  });

  it('draws tiny numbers plainly: a sliver for a few, nothing for none, figures that are numbers', () => {
    const steps = (...v: number[]) => ['Leads', 'Contacted', 'Appointment set', 'Shown', 'Sold'].map((name, i) => ({ name, value: v[i] }));
    const see = (...v: number[]) => funnelBars(steps(...v)).map((b) => [b.widthPct, b.figure]);
    expect(see(1, 0, 0, 0, 0)).toEqual([
      [100, '1'],
      [0, '0 · 0%'],
      [0, '0 · 0%'],
      [0, '0 · 0%'],
      [0, '0 · 0%'],
    ]);
    expect(see(3, 1, 0, 0, 0)).toEqual([
      [100, '3'],
      [33.3, '1 · 33.3%'],
      [0, '0 · 0%'],
      [0, '0 · 0%'],
      [0, '0 · 0%'],
    ]);
    expect(see(0, 0, 0, 0, 0).every(([w, f]) => w === 0 && (f === '0' || f === '0 · 0%'))).toBe(true);
    expect(see(200_000, 150_000, 1, 0, 0)).toEqual([
      [100, '200,000'],
      [75, '150,000 · 75%'],
      [MIN_BAR_PCT, '1 · <0.1%'],
      [0, '0 · 0%'],
      [0, '0 · 0%'],
    ]);
    expect([shareText(0, 0), shareText(0, 1), shareText(0.1, 1), shareText(100, 3)]).toEqual(['0%', '<0.1%', '0.1%', '100%']);
    fc.assert(
      fc.property(fc.array(fc.nat(1_000_000), { minLength: 1, maxLength: 6 }), (v) => {
        for (const b of funnelBars(v.map((value, i) => ({ name: `s${i}`, value })))) {
          expect(b.widthPct).toBeGreaterThanOrEqual(0);
          expect(b.widthPct).toBeLessThanOrEqual(100);
          expect(b.value > 0 && v[0] > 0 ? b.widthPct >= MIN_BAR_PCT : b.widthPct === 0).toBe(true);
          expect(b.figure).not.toMatch(/NaN|Infinity/);
        }
      }),
    );
  });
});
