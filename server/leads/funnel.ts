import { sql, type RawBuilder } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db, Dialect } from '../db';
import type { Ctx, StoreCtx } from '../context';
import { access } from '../http/access';
import { badRequest, notFound, parse } from '../http/errors';
import { implement } from '../http/implement';
import { storeOfRequest } from '../stores/scope';
import { STORE_NOT_FOUND } from '../stores/service';
import { dayKey, zonedStartOfDay } from '../../domain/time';
import { toSql, type Columns } from '../rotation/sql';
import {
  FUNNEL_STEPS,
  REACHED,
  UNASSIGNED,
  dayAfter,
  funnelCsv,
  funnelQuery,
  funnelRange,
  sortRows,
  toFunnelRow,
  type FunnelAnswer,
  type FunnelBy,
  type FunnelCounts,
  type FunnelLead,
  type FunnelStep,
} from '../../domain/funnel';

/** Where each fact the funnel's rules read is stored. */
const FACTS: Columns<FunnelLead> = {
  firstContactAt: sql.ref('l.first_contact_at'),
  appointmentSetAt: sql.ref('l.appointment_set_at'),
  shownAt: sql.ref('l.shown_at'),
  stage: sql.ref('l.stage'),
};
/** The rules never read "now"; the compiler wants one. */
const ENV = { now: 0, holdOut: false };

/** A lead (as `l`) that is sold, by the funnel's rule: the sales board's closing ratio counts by it too. */
export const soldSql = () => toSql(REACHED.sold, FACTS, ENV);

interface FunnelScope {
  store: number;
  /** Received at or after (epoch ms). */
  since: number;
  /** Received before (epoch ms). */
  until: number;
  by: FunnelBy;
  /** Only this salesman's leads (a salesman asking); null: everyone's. */
  only: string | null;
}

const keyOf = (by: FunnelBy) => (by === 'salesman' ? sql.ref('l.assigned_to') : sql.ref('l.source'));
const nameOf = (by: FunnelBy) => (by === 'salesman' ? sql.ref('l.assigned_to_name') : sql.ref('l.source'));

function received(s: FunnelScope) {
  const mine = s.only === null ? sql`` : sql` and l.assigned_to = ${s.only}`;
  return sql`l.store_id = ${s.store} and l.assigned_at >= ${s.since} and l.assigned_at < ${s.until}${mine}`;
}

type Median = { key: string; ms: number | string | null };

/**
 * The medians of the time to first contact, per group (`key`) or of all (key ''). PostgreSQL has
 * the median as an aggregate; SQLite takes the middle one or two of each group's times in order
 * (row n/2 and n/2 + 1, or (n + 1)/2): the same number.
 */
function medians(db: Db, dialect: Dialect, s: FunnelScope, key: RawBuilder<unknown>) {
  const ms = sql`l.first_contact_at - l.assigned_at`;
  const where = sql`${received(s)} and l.first_contact_at is not null`;
  if (dialect === 'postgres')
    // A year of a busy store's times is some 20 MB to sort: in memory, not in files (the default's 4 MB).
    return db.transaction().execute(async (trx) => {
      await sql`set local work_mem = '64MB'`.execute(trx);
      return sql<Median>`select ${key} as key, percentile_cont(0.5) within group (order by ${ms}) as ms from leads l where ${where} group by 1`.execute(trx);
    });
  return sql<Median>`
    select r.key as key, avg(r.ms) as ms from (
      select x.key, x.ms, row_number() over (partition by x.key order by x.ms) as rn, count(*) over (partition by x.key) as n
      from (select ${key} as key, ${ms} as ms from leads l where ${where}) x
    ) r
    where r.rn * 2 in (r.n, r.n + 1, r.n + 2)
    group by r.key`.execute(db);
}

/**
 * The funnel of a store's leads received in a period, per salesman or per source: one pass over
 * the leads counting each step by its rule in domain/funnel.ts compiled to SQL, and the medians of
 * the time to first contact per group and of all (three queries at once on PostgreSQL, where an
 * index holds every column they read).
 */
async function funnelOf(db: Db, dialect: Dialect, s: FunnelScope): Promise<Pick<FunnelAnswer, 'rows' | 'total'>> {
  const counts = sql<{ key: string; name: string; leads: number | string } & Record<FunnelStep, number | string>>`
    select ${keyOf(s.by)} as key, max(${nameOf(s.by)}) as name, count(*) as leads,
      ${sql.join(
        FUNNEL_STEPS.map((step) => sql`sum(case when ${toSql(REACHED[step], FACTS, ENV)} then 1 else 0 end) as ${sql.ref(step)}`),
        sql`, `,
      )}
    from leads l
    where ${received(s)}
    group by 1`;
  // The three run at once, each on a connection of its own: no more parallel workers on top of that.
  const countsRun =
    dialect === 'postgres'
      ? db.transaction().execute(async (trx) => {
          await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
          return counts.execute(trx);
        })
      : counts.execute(db);
  const [c, byKey, all] = await Promise.all([countsRun, medians(db, dialect, s, keyOf(s.by)), medians(db, dialect, s, sql.lit(''))]);
  const median = new Map(byKey.rows.map((r) => [r.key, r.ms === null ? null : Number(r.ms)]));
  const rows: FunnelCounts[] = c.rows.map((r) => ({
    key: r.key,
    name: r.name || (s.by === 'salesman' ? UNASSIGNED : '—'),
    leads: Number(r.leads),
    contacted: Number(r.contacted),
    appointment: Number(r.appointment),
    shown: Number(r.shown),
    sold: Number(r.sold),
    medianFirstContactMs: median.get(r.key) ?? null,
  }));
  const sum = (f: 'leads' | FunnelStep) => rows.reduce((n, r) => n + r[f], 0);
  const whole = all.rows[0]?.ms;
  const total: FunnelCounts = {
    key: '',
    name: 'Total',
    leads: sum('leads'),
    contacted: sum('contacted'),
    appointment: sum('appointment'),
    shown: sum('shown'),
    sold: sum('sold'),
    medianFirstContactMs: whole === undefined || whole === null ? null : Number(whole),
  };
  return { rows: sortRows(rows.map(toFunnelRow)), total: toFunnelRow(total) };
}

/** The funnel a person asked for: the period on the store's clock (400 when it is not one), managers everyone's leads, a salesman his own. */
async function answer(ctx: StoreCtx, me: { id: string; role: string }, q: { from?: string; to?: string; by: FunnelBy }): Promise<FunnelAnswer> {
  const tz = ctx.config.APP_TIMEZONE;
  const range = funnelRange(q, dayKey(new Date(), tz));
  if ('error' in range) throw badRequest(range.error);
  const since = zonedStartOfDay(range.from, tz).getTime();
  const until = zonedStartOfDay(dayAfter(range.to), tz).getTime();
  const only = me.role === 'manager' ? null : me.id;
  return { ...range, by: q.by, ...(await funnelOf(ctx.dbh.db, ctx.dbh.dialect, { store: ctx.store.id, since, until, by: q.by, only })) };
}

/** GET /leads/funnel and its CSV: everyone in the store; a salesman sees the funnel of his own leads only. */
export function funnelRoutes(app: FastifyInstance, root: Ctx) {
  implement(app, 'GET /leads/funnel', ({ me, ctx, query }) => answer(ctx, me, query));

  app.get('/leads/funnel.csv', access('user'), async (req, reply) => {
    const ctx = await storeOfRequest(root, req);
    const me = req.user;
    if (!me) throw notFound(STORE_NOT_FOUND);
    // A link names its store by ?store= (server/stores/scope.ts); the rest is the funnel's.
    const { store: _, ...asked } = req.query as Record<string, unknown>;
    const f = await answer(ctx, me, parse(funnelQuery, asked));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="funnel-${f.by}-${ctx.store.code}-${f.from}-${f.to}.csv"`)
      .header('cache-control', 'no-store')
      .send(funnelCsv(f));
  });
}
