/**
 * The funnel report (GET /leads/funnel) over a year of one busy store on PostgreSQL:
 * FUNNEL_LEADS leads received over the last 365 days, their steps on the timeline and
 * FUNNEL_SALES sales, asked for the whole year per salesman and per source, one request after
 * another through a running server.
 */
import { sql } from 'kysely';
import type { DbHandle } from '../../server/db';
import { freshDb } from '../../server/test/harness';
import { FIRST_STORE_ID } from '../../server/users/repo';
import { dayKey } from '../../domain/time';
import { addDays } from '../../domain/hours';
import { oneByOne, pct, request, round, say } from '../load';
import { seed, startServer } from '../server';
import type { Results } from '../table';

export const FUNNEL_LEADS = 200_000;
export const FUNNEL_SALES = 50_000;
const ASKS = 60;
const DAY = 86_400_000;

/** A year of one busy store: the leads, their steps and sales (as generate_series makes them, in seconds). */
async function seedYear(dbh: DbHandle) {
  const { boss, cookie } = await seed(dbh);
  const reps = await dbh.db.selectFrom('users').select(['id', 'name']).where('role', '=', 'staff').orderBy('id').execute();
  say(`[funnel] ${FUNNEL_LEADS.toLocaleString('en-US')} leads over a year to ${reps.length} salesmen, ${FUNNEL_SALES.toLocaleString('en-US')} sales…`);
  const t0 = performance.now();
  const now = Date.now();
  const ids = sql.val(reps.map((r) => r.id));
  const names = sql.val(reps.map((r) => r.name));
  const n = reps.length;
  // Lead i: received at a spread moment of the year; every 4th (i % 4 = 1) sold, so FUNNEL_SALES of them;
  // contacted unless i % 4 = 0 (a quarter never reached), appointments and shows in between.
  await sql`
      insert into leads (store_id, customer, assigned_to, assigned_to_name, assigned_by, assigned_by_name, assigned_at, status,
        follow_up_due, closed, source, first_contact_at, stage)
      select ${FIRST_STORE_ID}, 'Customer ' || i, (${ids}::text[])[1 + i % ${n}], (${names}::text[])[1 + i % ${n}], ${boss.id}, 'Bench Boss',
        ${now} - (i::bigint * ${365 * DAY}) / ${FUNNEL_LEADS}, 'handed', ${now},
        case when i % 4 = 1 or i % 20 = 3 then 1 else 0 end,
        (array['Cars.com', 'AutoTrader', 'Dealer website', 'Walk-in', 'BDC Portal'])[1 + (i / 7) % 5],
        case when i % 4 = 0 then null else ${now} - (i::bigint * ${365 * DAY}) / ${FUNNEL_LEADS} + 60000 + (i % 97) * 37000 end,
        case when i % 4 = 0 then null when i % 4 = 1 then 'sold' when i % 20 = 3 then 'lost' when i % 20 in (2, 6) then 'shown' else 'contacted' end
      from generate_series(1, ${FUNNEL_LEADS}) as i`.execute(dbh.db);
  const step = (type: string, where: string) =>
    sql`insert into lead_events (lead_id, type, actor_name, created_at)
        select id, ${type}, 'Bench', assigned_at + 3600000 from leads where ${sql.raw(where)}`.execute(dbh.db);
  const appointed = "stage in ('sold', 'shown') or id % 20 = 3";
  const shown = "stage in ('sold', 'shown')";
  await step('contacted', 'first_contact_at is not null');
  await step('appointment_set', appointed);
  await step('shown', shown);
  // The lead keeps when it first reached each, as the portal does when the step is taken.
  await sql`update leads set appointment_set_at = assigned_at + 3600000 where ${sql.raw(appointed)}`.execute(dbh.db);
  await sql`update leads set shown_at = assigned_at + 3600000 where ${sql.raw(shown)}`.execute(dbh.db);
  await step('no_show', 'id % 20 = 3');
  await step('sold', "stage = 'sold'");
  await step('lost', "stage = 'lost'");
  await sql`
      insert into sales (store_id, user_id, rep_name, date, vehicle_type, front_gross_cents, plan_type, plan_percent, plan_flat, plan_split,
        commission_cents, created_at, created_by, lead_id, customer)
      select store_id, assigned_to, assigned_to_name, to_char(to_timestamp((assigned_at + 86400000) / 1000.0), 'YYYY-MM-DD'), 'used', 200000,
        'flat', null, 300, 1, 30000, assigned_at + 86400000, ${boss.id}, id, customer
      from leads where stage = 'sold'`.execute(dbh.db);
  // As autovacuum leaves a table a while after it was written: its statistics and visibility map.
  await sql`vacuum analyze`.execute(dbh.db);
  const sales = await dbh.db
    .selectFrom('sales')
    .select((e) => e.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(sales.n) !== FUNNEL_SALES) throw new Error(`[funnel] ${sales.n} sales seeded, not ${FUNNEL_SALES}`);
  say(`[funnel]   seeded in ${round((performance.now() - t0) / 1000, 1)} s`);
  return cookie;
}

export async function funnelBench(): Promise<Results> {
  const dbh = await freshDb('postgres');
  try {
    const cookie = await seedYear(dbh);
    await dbh.release();

    const server = await startServer({ DATA_DIR: dbh.dir, DATABASE_URL: dbh.url ?? '' });
    try {
      const today = dayKey(new Date(), 'America/New_York');
      const url = (by: string) => `/api/leads/funnel?from=${addDays(today, -364)}&to=${today}&by=${by}`;
      const ask = async (i: number) => {
        const status = await request(server.port, 'GET', url(i % 2 ? 'source' : 'salesman'), cookie);
        if (status !== 200) throw new Error(`[funnel] GET /leads/funnel answered ${status}`);
      };
      await oneByOne(6, ask);
      const lat = await oneByOne(ASKS, ask);
      const p50 = round(pct(lat, 50), 1);
      const p95 = round(pct(lat, 95), 1);
      say(`[funnel]   a year's funnel: p50 ${p50} ms, p95 ${p95} ms over ${ASKS} requests`);
      return { funnel_p50_ms: p50, funnel_p95_ms: p95 };
    } finally {
      await server.stop();
    }
  } finally {
    await dbh.drop();
  }
}
