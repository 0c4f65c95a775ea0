import type { Db, Dialect } from '../db';
import type { Store } from '../../domain/stores';
import { dayKey } from '../../domain/time';
import { salesFigures } from '../../domain/figures';
import { kpiTotal, salesBySalesman, type SalesmanInStore, type StoreFigures } from '../../domain/group-report';
import { toFunnelRow, type FunnelFigures, type FunnelRow } from '../../domain/funnel';
import { kpiCounts, kpiSince } from '../leads/kpis';
import { funnelOf, periodOf } from '../leads/funnel';
import { reportFor } from '../floor/service';
import { monthSales } from '../sales/service';

/**
 * One store's figures for the group report: its salesmen's lead KPIs of the last 30 days, its
 * floor report's team row of the day (`day`, else today on its own clock), and this month's sales
 * on its own clock, in all and per salesman.
 */
async function storeFigures(db: Db, store: Store, day: string | undefined, now: Date) {
  const today = dayKey(now, store.timezone);
  const [counts, floor, sales] = await Promise.all([
    kpiCounts(db, store.id, kpiSince(now.getTime())),
    reportFor(db, store.id, day ?? today, store.timezone),
    monthSales(db, store.id, today),
  ]);
  const byPerson = new Map<string, typeof sales>();
  for (const s of sales) byPerson.set(s.userId, [...(byPerson.get(s.userId) ?? []), s]);
  const { ups, beBacks, skips, handoffs, closed } = floor.team;
  const figures: Omit<StoreFigures, 'funnel'> = {
    store: { code: store.code, name: store.name },
    kpis: kpiTotal(counts.rows),
    floor: { day: floor.day, ups, beBacks, skips, handoffs, closed },
    sales: { month: today.slice(0, 7), ...salesFigures(sales, today).mtd },
  };
  const salesmen: SalesmanInStore[] = [...byPerson].map(([id, rows]) => ({ id, name: rows[0].name, store: store.code, ...salesFigures(rows, today).mtd }));
  return { figures, salesmen };
}

const figuresOf = ({ key: _, name: __, ...figures }: FunnelRow): FunnelFigures => figures;

/**
 * The funnel of each chosen store's leads received in the period on its own clock (this month so
 * far by default), by the same query as a store's own Stats → Funnel (server/leads/funnel.ts),
 * grouped by store; and the median first contact of all of them, for the group's total.
 */
async function storeFunnels(db: Db, dialect: Dialect, stores: Store[], periods: ReturnType<typeof periodOf>[]) {
  const f = await funnelOf(db, dialect, { periods: periods.map(({ store, since, until }) => ({ store, since, until })), by: 'store', only: null });
  const byStore = new Map(f.rows.map((r) => [r.key, r]));
  const none = (s: Store) => toFunnelRow({ key: '', name: s.name, leads: 0, contacted: 0, appointment: 0, shown: 0, sold: 0, medianFirstContactMs: null });
  return {
    each: stores.map((s, i) => ({ from: periods[i].from, to: periods[i].to, ...figuresOf(byStore.get(String(s.id)) ?? none(s)) })),
    medianSeconds: f.total.medianFirstContactSeconds,
  };
}

/**
 * The chosen stores' figures, in the order given, each salesman's month across them, and the
 * funnel's median first contact of all; `period`: the funnel's days (a 400 when they are not a period).
 */
export async function groupReportOf(
  db: Db,
  dialect: Dialect,
  stores: Store[],
  day: string | undefined,
  period: { from?: string; to?: string } = {},
  now = new Date(),
) {
  const periods = stores.map((s) => periodOf(s.id, s.timezone, period));
  const [each, funnels] = await Promise.all([Promise.all(stores.map((s) => storeFigures(db, s, day, now))), storeFunnels(db, dialect, stores, periods)]);
  return {
    stores: each.map((e, i): StoreFigures => ({ ...e.figures, funnel: funnels.each[i] })),
    salesmen: salesBySalesman(each.flatMap((e) => e.salesmen)),
    funnelMedianSeconds: funnels.medianSeconds,
  };
}
