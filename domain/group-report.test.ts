import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  floorTotal,
  funnelTotal,
  GROUP_CSV_HEADER,
  groupReportCsv,
  groupTotal,
  kpiTotal,
  salesBySalesman,
  salesTotal,
  type StoreFigures,
} from './group-report';
import { pctOf, toFunnelRow } from './funnel';
import { closePct } from './kpis';

/** A store's funnel: leads, contacted, appointment, shown, sold and the median first contact (s). */
type Steps = [number, number, number, number, number, number | null];
const funnel = ([leads, contacted, appointment, shown, sold, median]: Steps) => {
  const {
    key: _,
    name: __,
    ...f
  } = toFunnelRow({
    key: '',
    name: '',
    leads,
    contacted,
    appointment,
    shown,
    sold,
    medianFirstContactMs: median === null ? null : median * 1000,
  });
  return { from: '2026-03-01', to: '2026-03-10', ...f };
};

const store = (
  code: string,
  k: [number, number, number, number],
  f: [number, number, number, number, number],
  s: [number, number, number],
  u: Steps = [0, 0, 0, 0, 0, null],
): StoreFigures => ({
  store: { code, name: `${code} Motors` },
  funnel: funnel(u),
  kpis: kpiTotal([{ received: k[0], closed: k[1], skips: k[2], beBacks: k[3] }]),
  floor: { day: '2026-03-10', ups: f[0], beBacks: f[1], skips: f[2], handoffs: f[3], closed: f[4] },
  sales: { month: '2026-03', units: s[0], grossCents: s[1], commissionCents: s[2] },
});

describe('the group report', () => {
  it("sums the stores' counts, and takes the close % from the sums, not the stores' percentages", () => {
    // 1 of 4 (25%) and 9 of 10 (90%): the group closed 10 of 14, 71%, not the 58% of an average.
    const stores = [
      store('NSH', [4, 1, 2, 0], [3, 1, 2, 1, 1], [2, 300_00, 75_00], [3, 1, 0, 0, 0, 60]),
      store('SST', [10, 9, 0, 3], [5, 0, 1, 0, 2], [1, 2500_00, 750_00], [1, 1, 1, 1, 1, 120]),
    ];
    expect(groupTotal(stores, 90)).toEqual({
      kpis: { received: 14, closed: 10, skips: 2, beBacks: 3, closePct: 71 },
      floor: { ups: 8, beBacks: 1, skips: 3, handoffs: 1, closed: 3 },
      sales: { units: 3, grossCents: 2800_00, commissionCents: 825_00 },
      // 1 sold of 4 leads: 25%, not the 50% average of 0% and 100%.
      funnel: {
        leads: 4,
        contacted: 2,
        appointment: 1,
        shown: 1,
        sold: 1,
        contactedPct: 50,
        appointmentPct: 25,
        shownPct: 25,
        soldPct: 25,
        medianFirstContactSeconds: 90,
      },
    });
  });

  it('has no close % and zero counts for no stores or no leads', () => {
    expect(groupTotal([], null)).toEqual({
      kpis: { received: 0, closed: 0, skips: 0, beBacks: 0, closePct: null },
      floor: { ups: 0, beBacks: 0, skips: 0, handoffs: 0, closed: 0 },
      sales: { units: 0, grossCents: 0, commissionCents: 0 },
      funnel: {
        leads: 0,
        contacted: 0,
        appointment: 0,
        shown: 0,
        sold: 0,
        contactedPct: 0,
        appointmentPct: 0,
        shownPct: 0,
        soldPct: 0,
        medianFirstContactSeconds: null,
      },
    });
    expect(kpiTotal([{ received: 0, closed: 0, skips: 4, beBacks: 1 }]).closePct).toBeNull();
  });

  it('any split of the salesmen into stores gives the same total as all of them in one', () => {
    const counts = fc.record({ received: fc.nat(50), closed: fc.nat(50), skips: fc.nat(9), beBacks: fc.nat(9) });
    fc.assert(
      fc.property(fc.array(fc.array(counts, { maxLength: 6 }), { maxLength: 5 }), (stores) => {
        const total = kpiTotal(stores.map((s) => kpiTotal(s)));
        const flat = stores.flat();
        expect(total).toEqual(kpiTotal(flat));
        expect(total.closePct).toBe(closePct(total.closed, total.received));
      }),
    );
  });

  it("any split of the leads into stores gives the funnel's total of all of them in one", () => {
    const steps = fc
      .tuple(fc.nat(40), fc.nat(40), fc.nat(40), fc.nat(40), fc.nat(40))
      .map(([a, b, c, d, e]) => [a + b + c + d + e, b + c + d + e, c + d + e, d + e, e, null] as Steps);
    fc.assert(
      fc.property(fc.array(steps, { maxLength: 6 }), (stores) => {
        const total = funnelTotal(
          stores.map((u) => funnel(u)),
          null,
        );
        const all = [0, 1, 2, 3, 4].map((i) => stores.reduce((n, u) => n + (u[i] ?? 0), 0));
        expect([total.leads, total.contacted, total.appointment, total.shown, total.sold]).toEqual(all);
        expect(total.soldPct).toBe(pctOf(total.sold, total.leads));
        expect(total.contactedPct).toBe(pctOf(total.contacted, total.leads));
      }),
    );
  });

  it('sums floor days and sales months', () => {
    expect(floorTotal([{ ups: 1, beBacks: 2, skips: 3, handoffs: 4, closed: 5 }])).toEqual({ ups: 1, beBacks: 2, skips: 3, handoffs: 4, closed: 5 });
    expect(
      salesTotal([
        { units: 1, grossCents: -50_00, commissionCents: 0 },
        { units: 2, grossCents: 1234_56, commissionCents: 150_00 },
      ]),
    ).toEqual({ units: 3, grossCents: 1184_56, commissionCents: 150_00 });
  });

  it('lists each salesman once across the stores he sold in, most commission first', () => {
    const rows = salesBySalesman([
      { id: 'amy', name: 'Amy', store: 'NSH', units: 1, grossCents: 1000_00, commissionCents: 100_00 },
      { id: 'bo', name: 'Bo', store: 'NSH', units: 3, grossCents: 6000_00, commissionCents: 150_00 },
      { id: 'amy', name: 'Amy', store: 'SST', units: 2, grossCents: 3000_00, commissionCents: 105_00 },
      { id: 'cy', name: 'Cy', store: 'SST', units: 0, grossCents: 0, commissionCents: 0 },
    ]);
    expect(rows).toEqual([
      { id: 'amy', name: 'Amy', stores: ['NSH', 'SST'], units: 3, grossCents: 4000_00, commissionCents: 205_00 },
      { id: 'bo', name: 'Bo', stores: ['NSH'], units: 3, grossCents: 6000_00, commissionCents: 150_00 },
      { id: 'cy', name: 'Cy', stores: ['SST'], units: 0, grossCents: 0, commissionCents: 0 },
    ]);
  });

  it('writes CSV with the Store column on every row, the group total last', () => {
    const stores = [
      store('NSH', [4, 1, 2, 0], [3, 1, 2, 1, 1], [2, 300_00, 75_00], [3, 1, 0, 0, 0, 90]),
      store('SST', [10, 9, 0, 3], [5, 0, 1, 0, 2], [1, 2500_50, 750_15], [1, 1, 1, 1, 1, 150]),
    ];
    stores[1].floor.day = '2026-03-11';
    const lines = groupReportCsv(stores, 120).split('\r\n');
    expect(lines[0]).toBe(GROUP_CSV_HEADER.join(','));
    expect(lines[0].startsWith('Store,')).toBe(true);
    expect(lines.slice(1)).toEqual([
      'NSH,NSH Motors,4,1,25,2,0,2026-03-10,3,1,2,1,1,2026-03,2,300,75,2026-03-01,2026-03-10,3,1,33.3,0,0,0,0,0,0,1.5',
      'SST,SST Motors,10,9,90,0,3,2026-03-11,5,0,1,0,2,2026-03,1,2500.5,750.15,2026-03-01,2026-03-10,1,1,100,1,100,1,100,1,100,2.5',
      // The stores' floor days differ (their clocks are a day apart): the total names none.
      'Group total,Group total,14,10,71,2,3,,8,1,3,1,3,2026-03,3,2800.5,825.15,2026-03-01,2026-03-10,4,2,50,1,25,1,25,1,25,2',
      '',
    ]);
  });
});
