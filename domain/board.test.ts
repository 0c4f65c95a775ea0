import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BOARD_CSV_HEADER, boardCsv, closingRatio, daysSince, pace, salesBoard, TEAM_TOTAL, type BoardPerson, type BoardSale } from './board';
import { salesFigures } from './figures';

const sale = (userId: string, date: string, frontGrossCents: number, commissionCents: number): BoardSale => ({
  userId,
  date,
  frontGrossCents,
  commissionCents,
});
const person = (id: string, name: string, mtd = 0, ytd = mtd, lastSale: string | null = null, soldMtd = 0, soldYtd = soldMtd): BoardPerson => ({
  id,
  name,
  leads: { mtd, ytd, soldMtd, soldYtd },
  lastSale,
});

const TODAY = '2026-03-10';
const sales = [
  sale('ann', '2025-03-05', 100000, 25000), // last year, within the same days
  sale('ann', '2026-02-03', 200000, 50000), // last month, within the same days
  sale('ann', '2026-03-01', 300000, 105000),
  sale('ann', '2026-03-10', 150000, 10000),
  sale('ben', '2026-01-20', 90000, 7500),
  sale('ben', '2026-03-09', 250000, 75000),
  sale('ben', '2026-03-11', 999900, 349965), // after today: never counted
  sale('gone', '2026-03-02', 500000, 175000), // not on the board: not in the team either
];

describe('pace', () => {
  it('is units so far over days elapsed (today counts) times days in the month, to a tenth, halves away from zero', () => {
    expect(pace(0, '2026-03-10')).toBe(0);
    expect(pace(3, '2026-03-10')).toBe(9.3); // 3 / 10 × 31 = 9.3
    expect(pace(1, '2026-03-03')).toBe(10.3); // 31 / 3 = 10.333…
    expect(pace(2, '2026-03-03')).toBe(20.7); // 62 / 3 = 20.666…
    expect(pace(1, '2026-02-08')).toBe(3.5); // 28 / 8 = 3.5 exactly
    expect(pace(1, '2024-02-08')).toBe(3.6); // 29 / 8 = 3.625: leap February
    expect(pace(4, '2026-04-30')).toBe(4); // the last day: the units themselves
    expect(pace(5, '2026-01-01')).toBe(155);
  });

  it('is never below the units sold and equals them on the last day of the month', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 2000, max: 2100 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (units, y, m, d) => {
          const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
          const day = Math.min(d, last);
          const key = `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const p = pace(units, key);
          expect(p).toBeGreaterThanOrEqual(units);
          expect(Math.round(p * 10)).toBe(p * 10);
          if (day === last) expect(p).toBe(units);
        },
      ),
    );
  });
});

describe('daysSince', () => {
  it('counts calendar days to today, 0 for a sale today, null without one', () => {
    expect(daysSince(null, TODAY)).toBeNull();
    expect(daysSince(TODAY, TODAY)).toBe(0);
    expect(daysSince('2026-03-09', TODAY)).toBe(1);
    expect(daysSince('2025-12-31', '2026-01-01')).toBe(1);
    expect(daysSince('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysSince('2025-03-10', TODAY)).toBe(365);
  });
});

describe('closingRatio', () => {
  it('is sold over received as a whole percentage, null without leads, and may pass 100% while sales do not name their lead', () => {
    expect(closingRatio(1, 3)).toEqual({ sold: 1, received: 3, pct: 33 });
    expect(closingRatio(2, 3)).toEqual({ sold: 2, received: 3, pct: 67 });
    expect(closingRatio(0, 0)).toEqual({ sold: 0, received: 0, pct: null });
    expect(closingRatio(3, 0).pct).toBeNull();
    expect(closingRatio(3, 2).pct).toBe(150);
  });
});

describe('salesBoard', () => {
  // Ann sold one of her leads this month (her other unit a walk-in without a lead), two this year.
  const people = [person('ann', 'Ann', 4, 9, '2026-03-10', 1, 2), person('ben', 'Ben', 2, 5, '2026-03-09', 1, 1), person('cy', 'Cy', 1, 1)];
  const board = salesBoard(people, sales, TODAY);

  it('gives each person his month and year to date, closing ratio, pace and days since his last sale, most units first', () => {
    expect(board.rows.map((r) => r.name)).toEqual(['Ann', 'Ben', 'Cy']);
    const [ann, ben, cy] = board.rows;
    expect(ann).toEqual({
      id: 'ann',
      name: 'Ann',
      mtd: { units: 2, grossCents: 450000, commissionCents: 115000 },
      ytd: { units: 3, grossCents: 650000, commissionCents: 165000 },
      closing: { mtd: { sold: 1, received: 4, pct: 25 }, ytd: { sold: 2, received: 9, pct: 22 } },
      pace: 6.2,
      lastSale: '2026-03-10',
      daysSinceLastSale: 0,
    });
    expect(ben).toMatchObject({ mtd: { units: 1, grossCents: 250000, commissionCents: 75000 }, ytd: { units: 2 }, pace: 3.1, daysSinceLastSale: 1 });
    expect(cy).toMatchObject({
      mtd: { units: 0, grossCents: 0, commissionCents: 0 },
      closing: { mtd: { pct: 0 } },
      pace: 0,
      lastSale: null,
      daysSinceLastSale: null,
    });
  });

  it("reads the same figures as the salesman's own tracker", () => {
    for (const r of board.rows) {
      const own = salesFigures(
        sales.filter((s) => s.userId === r.id),
        TODAY,
      );
      expect([r.mtd, r.ytd]).toEqual([own.mtd, own.ytd]);
    }
  });

  it('totals the team over the same sales: sums, pace from the summed units, closing from the summed counts, the latest sale', () => {
    expect(board.team).toEqual({
      mtd: { units: 3, grossCents: 700000, commissionCents: 190000 },
      ytd: { units: 5, grossCents: 990000, commissionCents: 247500 },
      closing: { mtd: { sold: 2, received: 7, pct: 29 }, ytd: { sold: 3, received: 15, pct: 20 } },
      pace: 9.3,
      lastSale: '2026-03-10',
      daysSinceLastSale: 0,
    });
    expect(board.figures.mtd).toEqual(board.team.mtd);
    expect(board.figures.monthProjectionCents).toBe(589000); // 1900 × 31 / 10
    expect(board.before).toEqual({
      lastMonth: { units: 1, grossCents: 200000, commissionCents: 50000 },
      lastYear: { units: 1, grossCents: 100000, commissionCents: 25000 },
    });
    expect(board.daily).toHaveLength(10);
    expect(board.daily[0]).toEqual({ day: '2026-03-01', commission: 1050 });
    expect(board.daily[8]).toEqual({ day: '2026-03-09', commission: 750 });
    expect(board.monthly).toEqual([
      { month: 'Jan', gross: 900 },
      { month: 'Feb', gross: 2000 },
      { month: 'Mar', gross: 7000 },
    ]);
  });

  it('sums to the team total whatever the sales, and never counts a sale after today', () => {
    const ids = ['a', 'b', 'c'];
    const arb = fc.array(
      fc.record({
        userId: fc.constantFrom(...ids),
        date: fc.constantFrom('2025-12-31', '2026-01-01', '2026-02-28', '2026-03-01', TODAY, '2026-03-11'),
        frontGrossCents: fc.integer({ min: -100000, max: 10000000 }),
        commissionCents: fc.integer({ min: 0, max: 3500000 }),
      }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(arb, (rows) => {
        const b = salesBoard(
          ids.map((id) => person(id, id.toUpperCase(), 2, 5)),
          rows,
          TODAY,
        );
        for (const k of ['units', 'grossCents', 'commissionCents'] as const) {
          expect(b.team.mtd[k]).toBe(b.rows.reduce((n, r) => n + r.mtd[k], 0));
          expect(b.team.ytd[k]).toBe(b.rows.reduce((n, r) => n + r.ytd[k], 0));
        }
        const counted = rows.filter((r) => r.date >= '2026-03-01' && r.date <= TODAY);
        expect(b.team.mtd.units).toBe(counted.length);
        expect(b.rows.map((r) => r.mtd.units)).toEqual([...b.rows.map((r) => r.mtd.units)].sort((x, y) => y - x));
      }),
    );
  });

  it('exports a row per salesman in the board order, then the team total, with spreadsheet-safe names', () => {
    const csv = boardCsv(salesBoard([person('x', '=cmd()', 0), ...people], sales, TODAY));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(BOARD_CSV_HEADER.join(','));
    expect(lines[1]).toBe('Ann,2,4500,1150,4,25,3,6500,1650,9,22,6.2,2026-03-10,0');
    // No units: by name, where = sorts before letters.
    expect(lines[3]).toBe("'=cmd(),0,0,0,0,,0,0,0,0,,0,,");
    expect(lines[4]).toBe('Cy,0,0,0,1,0,0,0,0,1,0,0,,');
    expect(lines[5]).toBe(`${TEAM_TOTAL},3,7000,1900,7,29,5,9900,2475,15,20,9.3,2026-03-10,0`);
    expect(lines).toHaveLength(7);
    expect(lines[6]).toBe('');
  });
});
