import { closePct, type AssociateCounts } from './kpis';
import type { FloorRow } from './report';
import { toCsv, type Cell } from './csv';
import { FUNNEL_CSV_COLUMNS, funnelCells, pctOf, type FunnelFigures } from './funnel';

/** A store's (or the group's) lead KPIs: counts summed over its salesmen, close % from those sums. */
export type KpiSum = Pick<AssociateCounts, 'received' | 'closed' | 'skips' | 'beBacks'> & { closePct: number | null };
/** A store's (or the group's) day on the floor: what adds up across salesmen and stores. */
export type FloorSum = Pick<FloorRow, 'ups' | 'beBacks' | 'skips' | 'handoffs' | 'closed'>;
/** Units, front gross and commission summed. */
export type SalesSum = { units: number; grossCents: number; commissionCents: number };

const add = <K extends string>(rows: Record<K, number>[], keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, rows.reduce((s, r) => s + r[k], 0)])) as Record<K, number>;

/** Counts summed; the close % is the summed closed over the summed received, never an average of percentages. */
export function kpiTotal(rows: Pick<AssociateCounts, 'received' | 'closed' | 'skips' | 'beBacks'>[]): KpiSum {
  const sum = add(rows, ['received', 'closed', 'skips', 'beBacks'] as const);
  return { ...sum, closePct: closePct(sum.closed, sum.received) };
}

export const floorTotal = (rows: FloorSum[]): FloorSum => add(rows, ['ups', 'beBacks', 'skips', 'handoffs', 'closed'] as const);

export const salesTotal = (rows: SalesSum[]): SalesSum => add(rows, ['units', 'grossCents', 'commissionCents'] as const);

/** One store's figures in the group report. */
export interface StoreFigures {
  store: { code: string; name: string };
  kpis: KpiSum;
  /** `day`: the floor's day on the store's own clock. */
  floor: FloorSum & { day: string };
  /** `month`: this month (YYYY-MM) on the store's own clock. */
  sales: SalesSum & { month: string };
  /** The funnel (domain/funnel.ts) of the leads received from..to: this month so far on the store's own clock. */
  funnel: FunnelFigures & { from: string; to: string };
}

/** A salesman's month in one store. */
export interface SalesmanInStore extends SalesSum {
  id: string;
  name: string;
  store: string;
}
export interface SalesmanTotal extends SalesSum {
  id: string;
  name: string;
  /** The codes of the chosen stores he sold in. */
  stores: string[];
}

/** Each salesman once, his months in the chosen stores summed; most commission first, then by name. */
export function salesBySalesman(rows: SalesmanInStore[]): SalesmanTotal[] {
  const by = new Map<string, SalesmanInStore[]>();
  for (const r of rows) by.set(r.id, [...(by.get(r.id) ?? []), r]);
  return [...by.values()]
    .map((mine) => ({ id: mine[0].id, name: mine[0].name, stores: mine.map((r) => r.store), ...salesTotal(mine) }))
    .sort((a, b) => b.commissionCents - a.commissionCents || b.units - a.units || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
}

/**
 * The funnel's counts summed, each % from the sums (never an average of percentages); the median
 * first contact cannot be summed: it is the median of all the stores' leads, counted by the database.
 */
export function funnelTotal(rows: FunnelFigures[], medianFirstContactSeconds: number | null): FunnelFigures {
  const sum = add(rows, ['leads', 'contacted', 'appointment', 'shown', 'sold'] as const);
  return {
    ...sum,
    contactedPct: pctOf(sum.contacted, sum.leads),
    appointmentPct: pctOf(sum.appointment, sum.leads),
    shownPct: pctOf(sum.shown, sum.leads),
    soldPct: pctOf(sum.sold, sum.leads),
    medianFirstContactSeconds,
  };
}

/** The group's total of the chosen stores' figures; the funnel's median first contact is the median of all their leads'. */
export const groupTotal = (stores: StoreFigures[], funnelMedianSeconds: number | null) => ({
  kpis: kpiTotal(stores.map((s) => s.kpis)),
  floor: floorTotal(stores.map((s) => s.floor)),
  sales: salesTotal(stores.map((s) => s.sales)),
  funnel: funnelTotal(
    stores.map((s) => s.funnel),
    funnelMedianSeconds,
  ),
});

export const GROUP_TOTAL = 'Group total';

export const GROUP_CSV_HEADER = [
  'Store',
  'Store name',
  'Leads received (30 days)',
  'Leads closed (30 days)',
  'Close %',
  'Skips (30 days)',
  'Be-backs (30 days)',
  'Floor day',
  'Ups',
  'Be-backs',
  'Skips',
  'Hand-offs',
  'Leads closed',
  'Month',
  'Units',
  'FrontGross',
  'Commission',
  'Funnel from',
  'Funnel to',
  'Funnel leads',
  ...FUNNEL_CSV_COLUMNS.slice(1),
];

/** The group report as CSV: a row per store, then the group total; the Store column on every row. */
export function groupReportCsv(stores: StoreFigures[], funnelMedianSeconds: number | null): string {
  const total = groupTotal(stores, funnelMedianSeconds);
  const line = (
    code: string,
    name: string,
    k: KpiSum,
    f: FloorSum,
    day: string | null,
    s: SalesSum,
    month: string | null,
    u: FunnelFigures,
    period: { from: string | null; to: string | null },
  ): Cell[] => [
    code,
    name,
    k.received,
    k.closed,
    k.closePct,
    k.skips,
    k.beBacks,
    day,
    f.ups,
    f.beBacks,
    f.skips,
    f.handoffs,
    f.closed,
    month,
    s.units,
    s.grossCents / 100,
    s.commissionCents / 100,
    period.from,
    period.to,
    ...funnelCells(u),
  ];
  const one = <T>(values: T[]) => (new Set(values).size === 1 ? values[0] : null);
  return toCsv([
    GROUP_CSV_HEADER,
    ...stores.map((s) => line(s.store.code, s.store.name, s.kpis, s.floor, s.floor.day, s.sales, s.sales.month, s.funnel, s.funnel)),
    // The total's day, month and period, when every store's is the same (their clocks may be a day apart).
    line(
      GROUP_TOTAL,
      GROUP_TOTAL,
      total.kpis,
      total.floor,
      one(stores.map((s) => s.floor.day)),
      total.sales,
      one(stores.map((s) => s.sales.month)),
      total.funnel,
      {
        from: one(stores.map((s) => s.funnel.from)),
        to: one(stores.map((s) => s.funnel.to)),
      },
    ),
  ]);
}
