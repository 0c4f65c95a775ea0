import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
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
} from '../../domain/funnel';

/** Where each fact the funnel's rules read is, in the per-lead query below (`f`). */
const FACTS: Columns<FunnelLead> = {
  firstContactAt: sql.ref('f.first_contact_at'),
  contactedEvent: sql.ref('f.contacted_event'),
  appointmentEvent: sql.ref('f.appointment_event'),
  shownEvent: sql.ref('f.shown_event'),
  stage: sql.ref('f.stage'),
  hasSale: sql.ref('f.has_sale'),
};
/** The rules never read "now"; the compiler wants one. */
const ENV = { now: 0, holdOut: false };

export interface FunnelScope {
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

/**
 * The funnel of a store's leads received in a period, per salesman or per source: one aggregate
 * over the leads with their steps (lead_events) and sales, each step counted by its rule in
 * domain/funnel.ts compiled to SQL; and one for the medians of the time to first contact.
 */
async function funnelOf(db: Db, s: FunnelScope): Promise<Pick<FunnelAnswer, 'rows' | 'total'>> {
  const counts = sql<{ key: string; name: string; leads: number | string } & Record<string, number | string>>`
    select f.key as key, max(f.name) as name, count(*) as leads,
      ${sql.join(
        FUNNEL_STEPS.map((step) => sql`sum(case when ${toSql(REACHED[step], FACTS, ENV)} then 1 else 0 end) as ${sql.ref(step)}`),
        sql`, `,
      )}
    from (
      select l.id, ${keyOf(s.by)} as key, ${nameOf(s.by)} as name, l.first_contact_at, l.stage,
        max(case when e.type = 'contacted' then 1 else 0 end) as contacted_event,
        max(case when e.type = 'appointment_set' then 1 else 0 end) as appointment_event,
        max(case when e.type = 'shown' then 1 else 0 end) as shown_event,
        max(case when sa.id is null then 0 else 1 end) as has_sale
      from leads l
      left join lead_events e on e.lead_id = l.id and e.type in ('contacted', 'appointment_set', 'shown')
      left join sales sa on sa.lead_id = l.id
      where ${received(s)}
      group by l.id
    ) f
    group by f.key`;
  // The median: the middle one or two of each group's times, in order (row n/2 and n/2+1, or (n+1)/2).
  const middle = (key: ReturnType<typeof sql.lit>, total: number) => sql`
    select ${total} as total, r.key as key, avg(r.ms) as ms from (
      select x.key, x.ms, row_number() over (partition by x.key order by x.ms) as rn, count(*) over (partition by x.key) as n
      from (select ${key} as key, l.first_contact_at - l.assigned_at as ms from leads l where ${received(s)} and l.first_contact_at is not null) x
    ) r
    where r.rn * 2 in (r.n, r.n + 1, r.n + 2)
    group by r.key`;
  const medians = sql<{ total: number | string; key: string; ms: number | string }>`${middle(keyOf(s.by), 0)} union all ${middle(sql.lit(''), 1)}`;

  const [c, m] = await Promise.all([counts.execute(db), medians.execute(db)]);
  const medianOf = (total: boolean, key: string) => {
    const hit = m.rows.find((r) => Number(r.total) === (total ? 1 : 0) && r.key === key);
    return hit ? Number(hit.ms) : null;
  };
  const rows: FunnelCounts[] = c.rows.map((r) => ({
    key: r.key,
    name: r.name || (s.by === 'salesman' ? UNASSIGNED : '—'),
    leads: Number(r.leads),
    contacted: Number(r.contacted),
    appointment: Number(r.appointment),
    shown: Number(r.shown),
    sold: Number(r.sold),
    medianFirstContactMs: medianOf(false, r.key),
  }));
  const sum = (f: 'leads' | 'contacted' | 'appointment' | 'shown' | 'sold') => rows.reduce((n, r) => n + r[f], 0);
  const total: FunnelCounts = {
    key: '',
    name: 'Total',
    leads: sum('leads'),
    contacted: sum('contacted'),
    appointment: sum('appointment'),
    shown: sum('shown'),
    sold: sum('sold'),
    medianFirstContactMs: medianOf(true, ''),
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
  return { ...range, by: q.by, ...(await funnelOf(ctx.dbh.db, { store: ctx.store.id, since, until, by: q.by, only })) };
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
