import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Ctx, StoreCtx } from '../context';
import type { Db } from '../db';
import { implement } from '../http/implement';
import { access } from '../http/access';
import { storeOfRequest } from '../stores/scope';
import { soldSql } from '../leads/funnel';
import { listUsers } from '../users/service';
import { boardCsv, salesBoard, type BoardPerson } from '../../domain/board';
import { dayKey, startOfMonth, startOfYear } from '../../domain/time';

/**
 * A store's team sales board on its own clock (domain/board.ts): a row per salesman of the store
 * (staff, not disabled) and per anyone else with a sale in the store this year, so the team's
 * total is the store's. Sales from January of last year on: the figures compare with last year.
 */
export async function storeBoard(db: Db, store: number, tz: string, now = new Date()) {
  const today = dayKey(now, tz);
  const [people, sales, last, leads] = await Promise.all([
    listUsers(db, store),
    db
      .selectFrom('sales')
      .select(['user_id', 'rep_name', 'date', 'front_gross_cents', 'commission_cents'])
      .where('store_id', '=', store)
      .where('date', '>=', `${Number(today.slice(0, 4)) - 1}-01-01`)
      .where('date', '<=', today)
      .execute(),
    db
      .selectFrom('sales')
      .select(['user_id', (eb) => eb.fn.max('date').as('last')])
      .where('store_id', '=', store)
      .where('date', '<=', today)
      .groupBy('user_id')
      .execute(),
    leadsReceived(db, store, startOfMonth(now, tz).getTime(), startOfYear(now, tz).getTime()),
  ]);
  const year = `${today.slice(0, 4)}-01-01`;
  const names = new Map(people.map((p) => [p.id, p.name]));
  const ids = new Set(people.filter((p) => p.role === 'staff' && !p.disabled && p.place !== null).map((p) => p.id));
  for (const s of sales) {
    if (s.date < year) continue;
    ids.add(s.user_id);
    if (!names.has(s.user_id)) names.set(s.user_id, s.rep_name);
  }
  const lastOf = new Map(last.map((l) => [l.user_id, String(l.last)]));
  const board: BoardPerson[] = [...ids].map((id) => ({
    id,
    name: names.get(id) ?? id,
    leads: leads.get(id) ?? { mtd: 0, ytd: 0, soldMtd: 0, soldYtd: 0 },
    lastSale: lastOf.get(id) ?? null,
  }));
  const rows = sales.map((s) => ({
    userId: s.user_id,
    date: s.date,
    frontGrossCents: Number(s.front_gross_cents),
    commissionCents: Number(s.commission_cents),
  }));
  return salesBoard(board, rows, today);
}

/**
 * Leads each salesman received this month and this year (assigned to him in the store since the
 * month's, the year's, first instant on its clock) and how many of them are sold, both as the
 * funnel counts them (server/leads/funnel.ts): the board's closing ratio is the funnel's.
 */
async function leadsReceived(db: Db, store: number, monthStart: number, yearStart: number) {
  const sold = soldSql();
  const rows = await db
    .selectFrom('leads as l')
    .select([
      'l.assigned_to',
      sql<number>`sum(case when l.assigned_at >= ${monthStart} then 1 else 0 end)`.as('mtd'),
      sql<number>`count(*)`.as('ytd'),
      sql<number>`sum(case when l.assigned_at >= ${monthStart} and ${sold} then 1 else 0 end)`.as('sold_mtd'),
      sql<number>`sum(case when ${sold} then 1 else 0 end)`.as('sold_ytd'),
    ])
    .where('l.store_id', '=', store)
    .where('l.assigned_at', '>=', yearStart)
    .groupBy('l.assigned_to')
    .execute();
  return new Map(rows.map((r) => [r.assigned_to, { mtd: Number(r.mtd), ytd: Number(r.ytd), soldMtd: Number(r.sold_mtd), soldYtd: Number(r.sold_ytd) }]));
}

/** GET /sales/board and its CSV: managers only (a salesman: 403), in the store the request names. */
export async function boardRoutes(app: FastifyInstance, { ctx: root }: { ctx: Ctx }) {
  const boardOf = (ctx: StoreCtx) => storeBoard(ctx.dbh.db, ctx.store.id, ctx.store.timezone);

  implement(app, 'GET /sales/board', ({ ctx }) => boardOf(ctx));

  app.get('/sales/board.csv', access('manager'), async (req, reply) => {
    const ctx = await storeOfRequest(root, req);
    const board = await boardOf(ctx);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="sales-board-${ctx.store.code}-${board.today}.csv"`)
      .header('cache-control', 'no-store')
      .send(boardCsv(board));
  });
}
