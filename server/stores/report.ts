import type { Db } from '../db';
import type { Store } from '../../domain/stores';
import { dayKey } from '../../domain/time';
import { salesFigures } from '../../domain/figures';
import { kpiTotal, salesBySalesman, type SalesmanInStore, type StoreFigures } from '../../domain/group-report';
import { kpiCounts, kpiSince } from '../leads/kpis';
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
  const figures: StoreFigures = {
    store: { code: store.code, name: store.name },
    kpis: kpiTotal(counts.rows),
    floor: { day: floor.day, ups, beBacks, skips, handoffs, closed },
    sales: { month: today.slice(0, 7), ...salesFigures(sales, today).mtd },
  };
  const salesmen: SalesmanInStore[] = [...byPerson].map(([id, rows]) => ({ id, name: rows[0].name, store: store.code, ...salesFigures(rows, today).mtd }));
  return { figures, salesmen };
}

/** The chosen stores' figures, in the order given, and each salesman's month across them. */
export async function groupReportOf(db: Db, stores: Store[], day: string | undefined, now = new Date()) {
  const each = await Promise.all(stores.map((s) => storeFigures(db, s, day, now)));
  return { stores: each.map((e) => e.figures), salesmen: salesBySalesman(each.flatMap((e) => e.salesmen)) };
}
