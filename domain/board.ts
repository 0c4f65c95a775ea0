import { roundDiv } from './commission';
import { toCsv, type Cell } from './csv';
import { dailyCommission, monthlyGross, salesFigures, type SaleRow, type SalesFigures } from './figures';
import { samePeriodBefore } from './format';
import { closePct } from './kpis';
import { daysInMonth, parseDayKey } from './time';

/**
 * The team sales board (issue #29): each salesman's month and year to date on the store's clock,
 * his closing ratio, his pace to the month's end and the days since his last sale; the team's
 * total of the same; and the team's figures and charts, made by the tracker's own functions
 * (domain/figures.ts) over every sale of the team.
 */

/** A sale of the store, with whose it is. */
export type BoardSale = SaleRow & { userId: string };

/** Leads a salesman received this month and this year, and how many of each are sold (as the funnel counts them). */
interface Received {
  mtd: number;
  ytd: number;
  soldMtd: number;
  soldYtd: number;
}

/** A person on the board, and his leads of this month and this year. */
export interface BoardPerson {
  id: string;
  name: string;
  leads: Received;
  /** His latest sale on or before today in the store, of any year; null when he never sold there. */
  lastSale: string | null;
}

type Totals = SalesFigures['mtd'];

/** Sold leads of a period against its leads; pct a whole percentage, null without leads. */
export interface Closing {
  sold: number;
  received: number;
  pct: number | null;
}

export interface BoardLine {
  mtd: Totals;
  ytd: Totals;
  closing: { mtd: Closing; ytd: Closing };
  /** Units this month at this rate by the month's last day, to a tenth (see `pace`). */
  pace: number;
  lastSale: string | null;
  /** Whole days on the store's calendar from the last sale to today (0: sold today); null when none. */
  daysSinceLastSale: number | null;
}

export interface BoardRow extends BoardLine {
  id: string;
  name: string;
}

export const TEAM_TOTAL = 'Team total';

/**
 * The closing ratio of a period: of the leads received in it, how many are sold (the funnel's
 * Closing ratio, domain/funnel.ts). A walk-in sold on the spot without a lead is a unit, not a
 * closed lead.
 */
export function closingRatio(sold: number, received: number): Closing {
  return { sold, received, pct: closePct(sold, received) };
}

/**
 * Units at month's end at this month's rate: units so far ÷ days elapsed (today counts, as the
 * tracker's month projection counts it) × days in the month, rounded to a tenth of a unit, halves
 * away from zero, exactly (in integers).
 */
export function pace(units: number, today: string): number {
  const { year, month, day } = parseDayKey(today);
  return roundDiv(units * daysInMonth(year, month) * 10, day) / 10;
}

const dayNumber = (key: string) => {
  const { year, month, day } = parseDayKey(key);
  return Date.UTC(year, month - 1, day) / 86_400_000;
};

/** Calendar days from `last` to `today` (both day keys on the store's clock); null when there is no last sale. */
export function daysSince(last: string | null, today: string): number | null {
  return last === null ? null : Math.max(0, dayNumber(today) - dayNumber(last));
}

const latest = (days: (string | null)[]) => days.reduce<string | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);

function line(sales: SaleRow[], leads: Received, lastSale: string | null, today: string): BoardLine {
  const { mtd, ytd } = salesFigures(sales, today);
  return {
    mtd,
    ytd,
    closing: { mtd: closingRatio(leads.soldMtd, leads.mtd), ytd: closingRatio(leads.soldYtd, leads.ytd) },
    pace: pace(mtd.units, today),
    lastSale,
    daysSinceLastSale: daysSince(lastSale, today),
  };
}

/** Most units this month first, then most commission this month, then by name: the leaderboard's order. */
const byStanding = (a: BoardRow, b: BoardRow) =>
  b.mtd.units - a.mtd.units || b.mtd.commissionCents - a.mtd.commissionCents || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The board: a row per person (the store's salesmen, and anyone else with a sale in `sales`, so
 * the team's total is the store's), the team's total over the same sales (pace from the summed
 * units, closing ratio from the summed counts, never an average), the team's figures as the
 * tracker shows a salesman's, against the same days last month and last year, and its charts.
 */
export function salesBoard(people: BoardPerson[], sales: BoardSale[], today: string) {
  const mine = new Map<string, BoardSale[]>(people.map((p) => [p.id, []]));
  for (const s of sales) mine.get(s.userId)?.push(s);
  const rows = people.map((p): BoardRow => ({ id: p.id, name: p.name, ...line(mine.get(p.id) ?? [], p.leads, p.lastSale, today) })).sort(byStanding);
  const counted = sales.filter((s) => mine.has(s.userId));
  const sum = (k: keyof Received) => people.reduce((n, p) => n + p.leads[k], 0);
  const leads: Received = { mtd: sum('mtd'), ytd: sum('ytd'), soldMtd: sum('soldMtd'), soldYtd: sum('soldYtd') };
  const team = line(counted, leads, latest(people.map((p) => p.lastSale)), today);
  return {
    today,
    rows,
    team,
    figures: salesFigures(counted, today),
    before: samePeriodBefore(counted, today),
    daily: dailyCommission(counted, today),
    monthly: monthlyGross(counted, today),
  };
}

export type SalesBoard = ReturnType<typeof salesBoard>;

export const BOARD_CSV_HEADER = [
  'Salesman',
  'MTD units',
  'MTD front gross',
  'MTD commission',
  'MTD leads',
  'MTD closing %',
  'YTD units',
  'YTD front gross',
  'YTD commission',
  'YTD leads',
  'YTD closing %',
  'Pace to month end',
  'Last sale',
  'Days since last sale',
];

const lineCells = (l: BoardLine): Cell[] => [
  l.mtd.units,
  l.mtd.grossCents / 100,
  l.mtd.commissionCents / 100,
  l.closing.mtd.received,
  l.closing.mtd.pct,
  l.ytd.units,
  l.ytd.grossCents / 100,
  l.ytd.commissionCents / 100,
  l.closing.ytd.received,
  l.closing.ytd.pct,
  l.pace,
  l.lastSale,
  l.daysSinceLastSale,
];

/** The board as a spreadsheet: a row per salesman in the board's order, then the team's total. */
export function boardCsv(board: Pick<SalesBoard, 'rows' | 'team'>): string {
  return toCsv([BOARD_CSV_HEADER, ...board.rows.map((r) => [r.name, ...lineCells(r)]), [TEAM_TOTAL, ...lineCells(board.team)]]);
}
