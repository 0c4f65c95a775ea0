import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { floorTotal, GROUP_CSV_HEADER, groupReportCsv, groupTotal, kpiTotal, salesBySalesman, salesTotal, type StoreFigures } from './group-report';
import { closePct } from './kpis';

const store = (code: string, k: [number, number, number, number], f: [number, number, number, number, number], s: [number, number, number]): StoreFigures => ({
  store: { code, name: `${code} Motors` },
  kpis: kpiTotal([{ received: k[0], closed: k[1], skips: k[2], beBacks: k[3] }]),
  floor: { day: '2026-03-10', ups: f[0], beBacks: f[1], skips: f[2], handoffs: f[3], closed: f[4] },
  sales: { month: '2026-03', units: s[0], grossCents: s[1], commissionCents: s[2] },
});

describe('the group report', () => {
  it("sums the stores' counts, and takes the close % from the sums, not the stores' percentages", () => {
    // 1 of 4 (25%) and 9 of 10 (90%): the group closed 10 of 14, 71%, not the 58% of an average.
    const stores = [store('NSH', [4, 1, 2, 0], [3, 1, 2, 1, 1], [2, 300_00, 75_00]), store('SST', [10, 9, 0, 3], [5, 0, 1, 0, 2], [1, 2500_00, 750_00])];
    expect(groupTotal(stores)).toEqual({
      kpis: { received: 14, closed: 10, skips: 2, beBacks: 3, closePct: 71 },
      floor: { ups: 8, beBacks: 1, skips: 3, handoffs: 1, closed: 3 },
      sales: { units: 3, grossCents: 2800_00, commissionCents: 825_00 },
    });
  });

  it('has no close % and zero counts for no stores or no leads', () => {
    expect(groupTotal([])).toEqual({
      kpis: { received: 0, closed: 0, skips: 0, beBacks: 0, closePct: null },
      floor: { ups: 0, beBacks: 0, skips: 0, handoffs: 0, closed: 0 },
      sales: { units: 0, grossCents: 0, commissionCents: 0 },
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
    const stores = [store('NSH', [4, 1, 2, 0], [3, 1, 2, 1, 1], [2, 300_00, 75_00]), store('SST', [10, 9, 0, 3], [5, 0, 1, 0, 2], [1, 2500_50, 750_15])];
    stores[1].floor.day = '2026-03-11';
    const lines = groupReportCsv(stores).split('\r\n');
    expect(lines[0]).toBe(GROUP_CSV_HEADER.join(','));
    expect(lines[0].startsWith('Store,')).toBe(true);
    expect(lines.slice(1)).toEqual([
      'NSH,NSH Motors,4,1,25,2,0,2026-03-10,3,1,2,1,1,2026-03,2,300,75',
      'SST,SST Motors,10,9,90,0,3,2026-03-11,5,0,1,0,2,2026-03,1,2500.5,750.15',
      // The stores' floor days differ (their clocks are a day apart): the total names none.
      'Group total,Group total,14,10,71,2,3,,8,1,3,1,3,2026-03,3,2800.5,825.15',
      '',
    ]);
  });
});
