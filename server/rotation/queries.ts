import type { Db, Dialect } from '../db';
import type { UserRow } from '../users/repo';
import type { MembershipsTable } from '../db/schema';
import type { RawBuilder, Selectable } from 'kysely';
import type { Member } from '../../domain/rotation';
import type { Rules } from '../../domain/rules';
import { loadRules } from '../rules/service';
import { dayKey, zonedStartOfDay } from '../../domain/time';
import { sql } from 'kysely';
import { reused, slot } from '../db/reuse';
import {
  eligibleSql,
  inRotationSql,
  nextUpIdSql,
  openLeadsSql,
  overdueSql,
  passSql,
  pastDueCountSql,
  pastDueSql,
  upsTodaySql,
  waitingSql,
  type SqlEnv,
} from './sql';

/** assigned_to of a lead that is waiting for someone eligible. */
export const UNASSIGNED = '';

type MemberRow = UserRow &
  Pick<Selectable<MembershipsTable>, 'position' | 'active' | 'on_duty' | 'snooze_until' | 'weight' | 'owed' | 'daily_cap' | 'open_cap' | 'away'> & {
    past_due?: number | string | null;
    ups_today?: number | string | null;
    open_leads?: number | string | null;
  };

export const toMember = (u: MemberRow): Member => ({
  id: u.id,
  name: u.name,
  role: u.role,
  position: u.position,
  active: !!u.active,
  onDuty: !!u.on_duty,
  snoozeUntil: u.snooze_until ? new Date(u.snooze_until) : null,
  disabled: !!u.disabled,
  deletedAt: u.deleted_at ? new Date(u.deleted_at) : null,
  pastDue: Number(u.past_due ?? 0),
  weight: u.weight,
  owed: u.owed,
  dailyCap: u.daily_cap,
  upsToday: Number(u.ups_today ?? 0),
  openCap: u.open_cap,
  openLeads: Number(u.open_leads ?? 0),
  away: u.away,
});

/** The rule book's SQL for a moment: now and the hold-out rule (sql.ts). */
export const sqlEnv = (now: Date, rules: Pick<Rules, 'holdOut'>, tz = 'UTC'): SqlEnv => ({
  now: now.getTime(),
  holdOut: rules.holdOut,
  dayStart: dayStart(now, tz),
});

/**
 * When the day of `now` began on a clock, remembered per clock and minute (it is asked at every
 * assign; a day on any clock starts on a whole minute, so a minute never spans two days).
 */
const dayStarts = new Map<string, number>();
export function dayStart(now: Date, tz: string): number {
  const key = `${tz} ${Math.floor(now.getTime() / 60_000)}`;
  let at = dayStarts.get(key);
  if (at === undefined) {
    if (dayStarts.size > 500) dayStarts.clear();
    dayStarts.set(key, (at = zonedStartOfDay(dayKey(now, tz), tz).getTime()));
  }
  return at;
}

/** A store's line: its people (memberships) with who they are (users); sql.ts reads both. */
export const line = (db: Db, store: number | RawBuilder<number>) =>
  db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .selectAll('users')
    .select([
      'memberships.position',
      'memberships.active',
      'memberships.on_duty',
      'memberships.snooze_until',
      'memberships.weight',
      'memberships.owed',
      'memberships.daily_cap',
      'memberships.open_cap',
      'memberships.away',
    ])
    .where('memberships.store_id', '=', store);

/**
 * A team's line in its store: its people with their places and owed ups in the team (team_members
 * as `tm`), everything else from their store membership (sql.ts Places 'tm').
 */
export const teamLine = (db: Db, store: number | RawBuilder<number>, team: number | RawBuilder<number>) =>
  db
    .selectFrom('team_members as tm')
    .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'tm.user_id').on('memberships.store_id', '=', store))
    .innerJoin('users', 'users.id', 'tm.user_id')
    .selectAll('users')
    .select([
      'tm.position',
      'tm.owed',
      'memberships.active',
      'memberships.on_duty',
      'memberships.snooze_until',
      'memberships.weight',
      'memberships.daily_cap',
      'memberships.open_cap',
      'memberships.away',
    ])
    .where('tm.team_id', '=', team);

/**
 * Who was passed over at an up in a line, and why (the fairness ledger): those in the rotation
 * but out of line (domain/rotation.ts IN_ROTATION, ELIGIBLE, PASS_KINDS, compiled by sql.ts)
 * whose places lie after the pointer and before the one served, in the circle's order. The same
 * query serves the stepwise assign (serve.ts) and the one-call assign (assign-postgres.ts), where
 * the store, the pointer and the place are the function's own variables.
 */
export function passedQuery(
  db: Db,
  store: number | RawBuilder<number>,
  team: number | RawBuilder<number> | null,
  env: SqlEnv,
  pointer: number | RawBuilder<number>,
  at: number | RawBuilder<number>,
) {
  const why = passSql(env, team === null ? 'memberships' : 'tm');
  const place = sql.ref<number>(team === null ? 'memberships.position' : 'tm.position');
  const rows =
    team === null
      ? db.selectFrom('memberships').innerJoin('users', 'users.id', 'memberships.user_id').where('memberships.store_id', '=', store)
      : db
          .selectFrom('team_members as tm')
          .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'tm.user_id').on('memberships.store_id', '=', store))
          .innerJoin('users', 'users.id', 'tm.user_id')
          .where('tm.team_id', '=', team);
  // Known places make a range the line's index finds (nearly always empty: no one stood between); the function's variables a case.
  const between =
    typeof pointer === 'number' && typeof at === 'number'
      ? at > pointer
        ? sql<boolean>`(${place} > ${pointer} and ${place} < ${at})`
        : sql<boolean>`(${place} > ${pointer} or ${place} < ${at})`
      : sql<boolean>`(case when ${at} > ${pointer} then ${place} > ${pointer} and ${place} < ${at} else ${place} > ${pointer} or ${place} < ${at} end)`;
  return rows
    .select(['users.id', why.kind.as('kind'), why.detail.as('why')])
    .where(between)
    .where(inRotationSql(env))
    .where(sql<boolean>`not ${eligibleSql(env)}`);
}

/**
 * Who was Next Up on the whole floor when a routing rule sent the lead to a team: passed over by
 * the rule, unless he stands in that team or is the one served. The floor's pointer is read in the
 * same statement. Both assigns write it (serve.ts, assign-postgres.ts).
 */
export function rulePassQuery(db: Db, store: RawBuilder<number>, team: RawBuilder<number>, env: SqlEnv, dialect: Dialect, served: RawBuilder<string>) {
  const pointer = sql<number>`(select pointer_pos from rotation_state where id = ${store})`;
  return db
    .selectFrom('users')
    .select('users.id')
    .where('users.id', '=', nextUpIdSql(line(db, store).where(eligibleSql(env)), env, dialect, pointer))
    .where('users.id', '<>', served)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('team_members')
            .select('team_members.user_id')
            .where('team_members.team_id', '=', team)
            .whereRef('team_members.user_id', '=', 'users.id'),
        ),
      ),
    );
}

/** What the rule book counts per person (past-due follow-ups under the hold-out rule, ups today and open leads under caps). */
const counted = (env: SqlEnv) => [pastDueCountSql(env).as('past_due'), upsTodaySql(env).as('ups_today'), openLeadsSql(env).as('open_leads')] as const;

/** A store's staff still on the team (not disabled or deleted), in rotation order; with `env`, each with his past-due count under the hold-out rule. */
export async function teamStaff(db: Db, store: number, env?: SqlEnv): Promise<Member[]> {
  const team = line(db, store)
    .where('role', '=', 'staff')
    .where('disabled', '=', 0)
    .where('deleted_at', 'is', null)
    .orderBy('memberships.position')
    .orderBy('users.id');
  const rows = env ? await team.select(counted(env)).execute() : await team.execute();
  return rows.map(toMember);
}

/** A team's staff still on the team, in its line's order, each with the rule book's counts. */
export async function teamLineStaff(db: Db, store: number, team: number, env: SqlEnv): Promise<Member[]> {
  const rows = await teamLine(db, store, team)
    .select(counted(env))
    .where('role', '=', 'staff')
    .where('disabled', '=', 0)
    .where('deleted_at', 'is', null)
    .orderBy('tm.position')
    .orderBy('users.id')
    .execute();
  return rows.map(toMember);
}

/** A store's eligible (the rule book's ELIGIBLE, applied by the database), in place order, each with his counts. */
export const candidates = (db: Db, store: number, env: SqlEnv) =>
  line(db, store).select(counted(env)).where(eligibleSql(env)).orderBy('memberships.position').orderBy('users.id').execute();

/** A salesman of the store by id, with his counts, as the rule book reads him. */
export async function memberById(db: Db, store: number, env: SqlEnv, id: string): Promise<Member | undefined> {
  const row = await line(db, store).select(counted(env)).where('users.id', '=', id).executeTakeFirst();
  return row && toMember(row);
}

export const readState = (db: Db, store: number) => db.selectFrom('rotation_state').selectAll().where('id', '=', store).executeTakeFirstOrThrow();

/**
 * The rule book's moment as slots of a reused query (server/db/reuse.ts): the text of its SQL
 * changes only with the hold-out switch, which goes into the query's key.
 */
export function slotted(env: SqlEnv) {
  if (typeof env.holdOut !== 'boolean') throw new Error('a reused query takes the hold-out rule as a switch');
  return {
    env: { now: slot('now'), holdOut: env.holdOut, dayStart: slot('dayStart') } satisfies SqlEnv,
    key: env.holdOut ? 'hold-out' : 'no hold-out',
    values: { now: env.now, dayStart: env.dayStart },
  };
}

/** Next Up (the rule book's ELIGIBLE and NEXT_UP, applied by the database), with his address for the mail about his lead. */
export async function nextUp(trx: Db, store: number, env: SqlEnv, dialect: Dialect) {
  const [{ weights, teams, ...state }] = await reused(
    trx,
    dialect,
    'rotation state and shape',
    () =>
      trx
        .selectFrom('rotation_state')
        .selectAll()
        .select(storeShapeSql(slot('store')))
        .where('id', '=', slot<number>('store')),
    { store },
  );
  const s = slotted(env);
  const [row] = await reused(
    trx,
    dialect,
    `next up: ${s.key}`,
    () => {
      const rows = line(trx, slot('store'));
      return rows.where('users.id', '=', nextUpIdSql(rows.where(eligibleSql(s.env)), s.env, dialect, slot('pointer')));
    },
    { store, pointer: state.pointer_pos, ...s.values },
  );
  return { state, next: row ? toMember(row) : null, email: row?.email ?? '', shape: { weights: !!weights, teams: !!teams } };
}

/** What an up must do beyond the line it is in: weights at play in the store (anyone above 1), teams to move him in. */
export const storeShapeSql = (store: number | RawBuilder<number>) => [
  sql<number>`exists (select 1 from memberships w where w.store_id = ${store} and w.weight <> 1)`.as('weights'),
  sql<number>`exists (select 1 from teams t where t.store_id = ${store})`.as('teams'),
];

/** A team's pointer and its store's shape, as Next Up in the team reads them. */
export type TeamLine = { pointer: number; shape: { weights: boolean; teams: boolean } };

/**
 * Next Up in a team's line, by the same rules over the team's places and pointer; with the store's
 * shape. `known`: the team's pointer and the store's shape, already read under this lock.
 */
export async function nextUpInTeam(trx: Db, store: number, team: number, env: SqlEnv, dialect: Dialect, known?: TeamLine) {
  const line = known ?? (await teamLineOf(trx, dialect, store, team));
  if (!line) return { pointer: 0, next: null, email: '', shape: undefined };
  const s = slotted(env);
  const [row] = await reused(
    trx,
    dialect,
    `next up in a team: ${s.key}`,
    () => {
      const rows = teamLine(trx, slot('store'), slot('team'));
      return rows.where('users.id', '=', nextUpIdSql(rows.where(eligibleSql(s.env)), s.env, dialect, slot('pointer'), 'tm'));
    },
    { store, team, pointer: line.pointer, ...s.values },
  );
  return { pointer: line.pointer, next: row ? toMember(row) : null, email: row?.email ?? '', shape: line.shape };
}

/** A team's row read with storeShapeSql, as a TeamLine. */
export const asTeamLine = (t: { pointer_pos: number; weights: unknown; teams: unknown }): TeamLine => ({
  pointer: t.pointer_pos,
  shape: { weights: !!t.weights, teams: !!t.teams },
});

/** A team's pointer and its store's shape; undefined where the store has no such team. */
async function teamLineOf(trx: Db, dialect: Dialect, store: number, team: number): Promise<TeamLine | undefined> {
  const [t] = await reused(
    trx,
    dialect,
    'team pointer and shape',
    () =>
      trx
        .selectFrom('teams')
        .select('pointer_pos')
        .select(storeShapeSql(slot('store')))
        .where('id', '=', slot<number>('team'))
        .where('store_id', '=', slot<number>('store')),
    { store, team },
  );
  return t && asTeamLine(t);
}

/** A store's leads waiting for someone eligible (the rule book's WAITING). */
export const waiting = (db: Db, store: number | RawBuilder<number>, env: SqlEnv) =>
  db.selectFrom('leads').where('leads.store_id', '=', store).where(waitingSql(env));

/**
 * The oldest lead whose Accept window has passed (the partial index on accept_due finds it).
 * With `lock` (PostgreSQL, inside the transaction) the row stays locked until the hand-on
 * commits: an Accept arriving meanwhile waits and then finds the lead gone, and one that
 * committed first makes this read find the lead accepted.
 */
export const firstOverdue = (db: Db, store: number, env: SqlEnv, lock = false) =>
  db
    .selectFrom('leads')
    .selectAll()
    .where('store_id', '=', store)
    .where(overdueSql(env))
    .orderBy('accept_due')
    .orderBy('id')
    .limit(1)
    .$if(lock, (qb) => qb.forUpdate())
    .executeTakeFirst();

/** Who let each of these leads pass (the sweep handed it on from them), by lead. */
export async function passersOf(db: Db, leadIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!leadIds.length) return out;
  const rows = await db.selectFrom('lead_events').select(['lead_id', 'actor_id']).where('lead_id', 'in', leadIds).where('type', '=', 'handed_on').execute();
  for (const r of rows) if (r.actor_id) out.set(Number(r.lead_id), [...(out.get(Number(r.lead_id)) ?? []), r.actor_id]);
  return out;
}

/** How many leads waiting for an Accept the routing screen lists at most. */
const PENDING_LOOK = 100;

/**
 * What the overview and routing screens are made of (present.ts shapes it): the pointer, the
 * team, the recent log, the leads on the clock for an Accept and, under the hold-out rule, the
 * past-due follow-ups.
 */
export async function rotationRows(db: Db, store: number, logSize: number, now: Date, tz?: string) {
  const [state, team, log, rules, pending] = await Promise.all([
    readState(db, store),
    // With the caps' counts (ups today, open leads); past-due follow-ups are listed below.
    teamStaff(db, store, sqlEnv(now, { holdOut: false }, tz)),
    db.selectFrom('rotation_log').selectAll().where('store_id', '=', store).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(logSize).execute(),
    loadRules(db, store),
    // Only leads on the clock have an accept_due (an Accept, a close or a hand-on clears it): the
    // partial index finds them, and the rule book says which of them wait (a condition on
    // `closed` here would lead SQLite to walk every open lead instead).
    db
      .selectFrom('leads')
      .selectAll()
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('leads as due')
          .select('due.id')
          .where('due.accept_due', 'is not', null)
          .where('due.store_id', '=', store)
          .orderBy('due.accept_due')
          .orderBy('due.id')
          .limit(PENDING_LOOK),
      )
      .execute(),
  ]);
  // None are listed while the hold-out rule is off.
  const pastDue = rules.holdOut
    ? await db
        .selectFrom('leads')
        .select(['id', 'customer', 'assigned_to'])
        .where('store_id', '=', store)
        .where(pastDueSql(sqlEnv(now, rules)))
        .orderBy('follow_up_due')
        .execute()
    : [];
  return { state, team, log, pending, pastDue };
}

export type RotationRows = Awaited<ReturnType<typeof rotationRows>>;
