import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { ApiError, notFound, parse } from '../http/errors';
import { access } from '../http/access';
import { implement } from '../http/implement';
import type { UserRow } from '../users/repo';
import { nextUp, sqlEnv, teamStaff, waiting } from '../rotation/queries';
import { pendingSql } from '../rotation/sql';
import { eligibleQueue } from '../../domain/rotation';
import { loadRules } from '../rules/service';
import { dayKey, zonedStartOfDay } from '../../domain/time';
import { addStore, editStore, openStore, storesOf, STORE_NOT_FOUND } from './service';
import { groupReportOf } from './report';
import { groupReportQuery } from '../../domain/contract/inputs';
import { reportDaySchemaOn } from '../../domain/schemas';
import { readCode, type Store } from '../../domain/stores';
import { groupReportCsv, groupTotal } from '../../domain/group-report';
import { KPI_DAYS } from '../leads/kpis';
import type { z } from 'zod';

const GROUP_ONLY = 'The group screen is for group managers.';

/**
 * The group report's stores and day, for a group manager: the stores named (each must be one,
 * else 404 "Store not found"), every store when none is; the day, if one is given, not after
 * today on the clock of the store furthest ahead (a store behind it shows an empty floor).
 */
async function reportScope(
  db: Parameters<typeof storesOf>[0],
  me: UserRow,
  query: z.output<typeof groupReportQuery>,
): Promise<{ stores: Store[]; day?: string; period: { from?: string; to?: string } }> {
  if (!me.all_stores) throw new ApiError(403, GROUP_ONLY);
  const all = await storesOf(db, me);
  const stores = query.stores.length
    ? await Promise.all(
        query.stores.map(async (c) => {
          const code = readCode(c);
          const store = code ? (all.find((s) => s.code === code) ?? (await openStore(db, me, code))) : null;
          if (!store) throw notFound(STORE_NOT_FOUND);
          return store;
        }),
      )
    : all;
  const period = { from: query.from, to: query.to };
  if (query.day === undefined) return { stores, period };
  const latest = stores.map((s) => dayKey(new Date(), s.timezone)).reduce((a, b) => (a > b ? a : b), '0000-01-01');
  return { stores, day: parse(reportDaySchemaOn(latest), { day: query.day }).day, period };
}

/** Adding a store and changing one's name or clock is a group manager's. */
function checkGroupManager(me: UserRow) {
  if (!me.all_stores) throw new ApiError(403, 'Only a group manager can add or change stores.');
}

/** The group's stores: each person sees those he may open; group managers add and change them, and see the group at a glance. */
export async function storeRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;

  implement(app, 'GET /stores', async ({ me }) => ({ stores: await storesOf(db, me), can: { add: !!me.all_stores } }));

  implement(app, 'POST /stores', async ({ me, body }) => {
    checkGroupManager(me);
    const store = await addStore(ctx.dbh, body);
    ctx.bus.publish({ topic: 'users' });
    return { store };
  });

  implement(app, 'PATCH /stores/:code', async ({ me, params, body }) => {
    if (!(await openStore(db, me, params.code))) throw notFound(STORE_NOT_FOUND);
    checkGroupManager(me);
    const store = await editStore(db, params.code, body);
    ctx.bus.publish({ topic: 'rules', storeId: store.id });
    return { store };
  });

  /** Every store's floor at once: Next Up, who is in line, what waits, accepts pending, today's ups. */
  implement(app, 'GET /group', async ({ me }) => {
    if (!me.all_stores) throw new ApiError(403, GROUP_ONLY);
    const now = new Date();
    const stores = await Promise.all(
      (await storesOf(db, me)).map(async (store) => {
        const env = sqlEnv(now, await loadRules(db, store.id));
        const from = zonedStartOfDay(dayKey(now, store.timezone), store.timezone).getTime();
        const [{ next }, team, waits, pending, today] = await Promise.all([
          nextUp(db, store.id, env, ctx.dbh.dialect),
          teamStaff(db, store.id, env),
          waiting(db, store.id, env)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow(),
          // Only leads on the clock have an accept_due: the partial index finds them, the rule book says which wait.
          db
            .selectFrom('leads')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('store_id', '=', store.id)
            .where('accept_due', 'is not', null)
            .where(pendingSql(env))
            .executeTakeFirstOrThrow(),
          db
            .selectFrom('leads')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('store_id', '=', store.id)
            .where('assigned_at', '>=', from)
            .executeTakeFirstOrThrow(),
        ]);
        return {
          store,
          nextUp: next ? { id: next.id, name: next.name } : null,
          inLine: eligibleQueue(team, now).length,
          waiting: Number(waits.n),
          pending: Number(pending.n),
          upsToday: Number(today.n),
        };
      }),
    );
    const unassigned = await db
      .selectFrom('leads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('store_id', 'is', null)
      .where('closed', '=', 0)
      .executeTakeFirstOrThrow();
    return { stores, unassigned: Number(unassigned.n) };
  });

  /** The chosen stores' lead KPIs, floor day, month of sales and funnel, each store's and the group's total; the salesmen across them. */
  implement(app, 'GET /group/report', async ({ me, query }) => {
    const { stores, day, period } = await reportScope(db, me, query);
    const { funnelMedianSeconds, ...report } = await groupReportOf(db, ctx.dbh.dialect, stores, day, period);
    return { days: KPI_DAYS, ...report, total: groupTotal(report.stores, funnelMedianSeconds) };
  });

  /** The same as a spreadsheet: a row per store and the group's total, each with its Store. */
  app.get('/group/report.csv', access('manager'), async (req, reply) => {
    if (!req.user) throw notFound(STORE_NOT_FOUND);
    const { stores, day, period } = await reportScope(db, req.user, parse(groupReportQuery, req.query));
    const report = await groupReportOf(db, ctx.dbh.dialect, stores, day, period);
    const csv = groupReportCsv(report.stores, report.funnelMedianSeconds);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="group-report-${day ?? dayKey(new Date(), ctx.config.APP_TIMEZONE)}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
