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
const ENV = { now: 0, holdOut: false, dayStart: 0 };

/** A lead (as `l`) that is sold, by the funnel's rule: the sales board's closing ratio counts by it too. */
export const soldSql = () => toSql(REACHED.sold, FACTS, ENV);

/** Each store's leads received in its own period: at or after `since`, before `until` (epoch ms). */
export interface FunnelPeriod {
  store: number;
  since: number;
  until: number;
}

export interface FunnelScope {
  periods: FunnelPeriod[];
  /** Per salesman, per source, or (the group report) per store: the key is then the store's id. */
  by: FunnelBy | 'store';
  /** Only this salesman's leads (a salesman asking); null: everyone's. */
  only: string | null;
}

const keyOf = (by: FunnelScope['by']) => (by === 'salesman' ? sql.ref('l.assigned_to') : by === 'source' ? sql.ref('l.source') : sql`cast(l.store_id as text)`);
const nameOf = (by: FunnelScope['by']) => (by === 'salesman' ? sql.ref('l.assigned_to_name') : keyOf(by));

function received(s: FunnelScope) {
  const mine = s.only === null ? sql`` : sql` and l.assigned_to = ${s.only}`;
  const each = s.periods.map((p) => sql`(l.store_id = ${p.store} and l.assigned_at >= ${p.since} and l.assigned_at < ${p.until})`);
  return sql`(${sql.join(each, sql` or `)})${mine}`;
}

/** Each step counted by its rule (domain/funnel.ts) compiled to SQL. */
const stepSums = () =>
  sql.join(
    FUNNEL_STEPS.map((step) => sql`sum(case when ${toSql(REACHED[step], FACTS, ENV)} then 1 else 0 end) as ${sql.ref(step)}`),
    sql`, `,
  );

/** The time from receiving a lead to its first contact (null: not contacted). */
const contactMs = sql`l.first_contact_at - l.assigned_at`;

type Counted = { key: string; name: string; leads: number | string } & Record<FunnelStep, number | string>;
/** Each group's counts and median (ms), and the median of all. */
type Found = { rows: (Counted & { ms: number | string | null })[]; allMs: number | string | null };

/**
 * PostgreSQL, two queries at once, each one pass over the period's leads: the counts per group
 * with each group's times to first contact gathered (a hash per group: no sort of the leads by
 * group) and their median; and the median of all the times (percentile_cont: the mean of the two
 * middle ones for an even count).
 */
async function onPostgres(db: Db, s: FunnelScope): Promise<Found> {
  const groups = sql<Counted & { ms: number | string | null }>`
    with g as (
      select ${keyOf(s.by)} as key, max(${nameOf(s.by)}) as name, count(*) as leads, ${stepSums()},
        array_agg(${contactMs}) filter (where l.first_contact_at is not null) as times
      from leads l
      where ${received(s)}
      group by 1
    )
    select g.key, g.name, g.leads, ${sql.join(
      FUNNEL_STEPS.map((step) => sql`g.${sql.ref(step)}`),
      sql`, `,
    )},
      (select percentile_cont(0.5) within group (order by v) from unnest(g.times) v) as ms
    from g`;
  const all = sql<{ ms: number | string | null }>`
    select percentile_cont(0.5) within group (order by ${contactMs}) as ms from leads l where ${received(s)}`;
  // Each on a connection of its own: a year of a busy store's times sorts in memory, not in files
  // (the default's 4 MB), and no parallel workers on top of the two.
  const run = <R>(q: RawBuilder<R>) =>
    db.transaction().execute(async (trx) => {
      await sql`set local work_mem = '64MB'`.execute(trx);
      await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
      return (await q.execute(trx)).rows;
    });
  const [rows, [whole]] = await Promise.all([run(groups), run(all)]);
  return { rows, allMs: whole?.ms ?? null };
}

/**
 * SQLite: the counts, then the medians per group and of all, each the middle one or two of the
 * times in order (row n/2 and n/2 + 1, or (n + 1)/2): the same numbers as PostgreSQL's.
 */
async function inSteps(db: Db, s: FunnelScope): Promise<Found> {
  const counts = await sql<Counted>`
    select ${keyOf(s.by)} as key, max(${nameOf(s.by)}) as name, count(*) as leads, ${stepSums()}
    from leads l
    where ${received(s)}
    group by 1`.execute(db);
  const medians = (key: RawBuilder<unknown>) =>
    sql<{ key: string; ms: number | null }>`
      select r.key as key, avg(r.ms) as ms from (
        select x.key, x.ms, row_number() over (partition by x.key order by x.ms) as rn, count(*) over (partition by x.key) as n
        from (select ${key} as key, ${contactMs} as ms from leads l where ${received(s)} and l.first_contact_at is not null) x
      ) r
      where r.rn * 2 in (r.n, r.n + 1, r.n + 2)
      group by r.key`.execute(db);
  const byKey = new Map((await medians(keyOf(s.by))).rows.map((r) => [r.key, r.ms]));
  const all = (await medians(sql.lit(''))).rows[0]?.ms ?? null;
  return { rows: counts.rows.map((r) => ({ ...r, ms: byKey.get(r.key) ?? null })), allMs: all };
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

/**
 * The funnel of the leads received in the periods, per salesman, source or store: each step
 * counted by its rule in domain/funnel.ts compiled to SQL, and the median time to first contact
 * per group and of all.
 */
export async function funnelOf(db: Db, dialect: Dialect, s: FunnelScope): Promise<Pick<FunnelAnswer, 'rows' | 'total'>> {
  const found: Found = s.periods.length === 0 ? { rows: [], allMs: null } : dialect === 'postgres' ? await onPostgres(db, s) : await inSteps(db, s);
  const rows: FunnelCounts[] = found.rows.map((r) => ({
    key: r.key,
    name: r.name || (s.by === 'salesman' ? UNASSIGNED : '—'),
    leads: Number(r.leads),
    contacted: Number(r.contacted),
    appointment: Number(r.appointment),
    shown: Number(r.shown),
    sold: Number(r.sold),
    medianFirstContactMs: num(r.ms),
  }));
  const sum = (f: 'leads' | FunnelStep) => rows.reduce((n, r) => n + r[f], 0);
  const total: FunnelCounts = {
    key: '',
    name: 'Total',
    leads: sum('leads'),
    contacted: sum('contacted'),
    appointment: sum('appointment'),
    shown: sum('shown'),
    sold: sum('sold'),
    medianFirstContactMs: num(found.allMs),
  };
  return { rows: sortRows(rows.map(toFunnelRow)), total: toFunnelRow(total) };
}

/** A store's period on its own clock, from the days asked (400 when they are not a period). */
export function periodOf(store: number, tz: string, q: { from?: string; to?: string }): FunnelPeriod & { from: string; to: string } {
  const range = funnelRange(q, dayKey(new Date(), tz));
  if ('error' in range) throw badRequest(range.error);
  return { ...range, store, since: zonedStartOfDay(range.from, tz).getTime(), until: zonedStartOfDay(dayAfter(range.to), tz).getTime() };
}

/** The funnel a person asked for: the period on the store's clock (400 when it is not one), managers everyone's leads, a salesman his own. */
async function answer(ctx: StoreCtx, me: { id: string; role: string }, q: { from?: string; to?: string; by: FunnelBy }): Promise<FunnelAnswer> {
  const { from, to, ...period } = periodOf(ctx.store.id, ctx.config.APP_TIMEZONE, q);
  const only = me.role === 'manager' ? null : me.id;
  return { from, to, by: q.by, ...(await funnelOf(ctx.dbh.db, ctx.dbh.dialect, { periods: [period], by: q.by, only })) };
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
