import { sql, type RawBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Cond, Field, OrderKey } from '../../domain/conditions';
import {
  ELIGIBLE,
  IN_ROTATION,
  NEXT_UP,
  OVERDUE,
  PASS_DETAIL,
  PASS_KINDS,
  PAST_DUE,
  PENDING_ACCEPT,
  UP_FOR_GRABS,
  WAITING,
  type LeadFacts,
  type Member,
} from '../../domain/rotation';
import type { Dialect } from '../db';
import type { LeadsTable } from '../db/schema';

/**
 * The rule book's rules (domain/rotation.ts) as SQL over a store's line (memberships joined to
 * users) and its leads: each value there compiled here, the same for
 * SQLite and PostgreSQL, and for PostgreSQL's one-call assign (assign-postgres.ts), where "now",
 * the hold-out switch and the pointer are the function's own arguments.
 */
export interface SqlEnv {
  now: number | RawBuilder<unknown>;
  /** Whether the hold-out rule counts past-due follow-ups (a flag, or the function's argument). */
  holdOut: boolean | RawBuilder<unknown>;
  /** When the store's day began: a daily cap counts the ups since. */
  dayStart: number | RawBuilder<unknown>;
  /**
   * False where no one in the store has a daily or open-leads cap (the one-call assign checks it
   * under the lock): his counts then compile to 0 and are never read.
   */
  caps?: false;
}

export type Columns<R> = Record<Field<R>, RawBuilder<unknown>>;

/** Columns declared NOT NULL (and counts): their comparisons need no guard against a missing value. */
const neverNull = new WeakSet<RawBuilder<unknown>>();
const notNull = <T>(r: RawBuilder<T>) => {
  neverNull.add(r);
  return r;
};

/** Where each field the rules read is stored. */
const LEAD_COLUMNS: Columns<LeadFacts> = {
  assignedTo: notNull(sql.ref('leads.assigned_to')),
  closed: notNull(sql.ref('leads.closed')),
  firstContactAt: sql.ref('leads.first_contact_at'),
  followUpDue: sql.ref('leads.follow_up_due'),
  handoffs: notNull(sql.ref('leads.handoffs')),
  acceptedAt: sql.ref('leads.accepted_at'),
  acceptDue: sql.ref('leads.accept_due'),
  grabUntil: sql.ref('leads.grab_until'),
  timeOut: sql.ref('leads.time_out'),
};

/** A stored lead as the rule book reads it. */
export const leadFacts = (l: Selectable<LeadsTable>): LeadFacts => ({
  assignedTo: l.assigned_to,
  closed: !!l.closed,
  firstContactAt: l.first_contact_at === null ? null : new Date(Number(l.first_contact_at)),
  followUpDue: new Date(Number(l.follow_up_due)),
  handoffs: l.handoffs,
  acceptedAt: l.accepted_at === null ? null : new Date(Number(l.accepted_at)),
  acceptDue: l.accept_due === null ? null : new Date(Number(l.accept_due)),
  grabUntil: l.grab_until === null ? null : new Date(Number(l.grab_until)),
  timeOut: l.time_out === null ? null : new Date(Number(l.time_out)),
});

/** The past-due follow-ups in his store of the salesman in the outer query (memberships), or 0 while the hold-out rule is off. */
const pastDueCount = (env: SqlEnv): RawBuilder<number> => {
  const count = sql<number>`(select count(*) from leads where leads.assigned_to = memberships.user_id and leads.store_id = memberships.store_id and ${toSql(PAST_DUE, LEAD_COLUMNS, env)})`;
  if (env.holdOut === false) return notNull(sql.lit(0));
  if (env.holdOut === true) return notNull(count);
  return notNull(sql<number>`(case when ${env.holdOut} then ${count} else 0 end)`);
};

/** His ups today in his store (an up marked "No customer" does not count), counted only when he has a daily cap. */
const upsTodayCount = (env: SqlEnv): RawBuilder<number> =>
  env.caps === false
    ? notNull(sql.lit(0))
    : notNull(
        sql<number>`(case when memberships.daily_cap is null then 0 else (select count(*) from rotation_log r where r.store_id = memberships.store_id and r.target_id = memberships.user_id and r.type = 'assign' and r.created_at >= ${typeof env.dayStart === 'number' ? sql.val(env.dayStart) : env.dayStart} and r.no_customer_at is null) end)`,
      );

/** His open leads in his store, counted only when he has an open-leads cap. */
const openLeadsCount = (env: SqlEnv): RawBuilder<number> =>
  env.caps === false
    ? notNull(sql.lit(0))
    : notNull(
        sql<number>`(case when memberships.open_cap is null then 0 else (select count(*) from leads where leads.store_id = memberships.store_id and leads.assigned_to = memberships.user_id and leads.closed = 0) end)`,
      );

/** Where a line keeps its places: the store's memberships, or a team's (team_members, joined as `tm`). */
export type Places = 'memberships' | 'tm';

const memberColumns = (env: SqlEnv, places: Places = 'memberships'): Columns<Member> => ({
  id: notNull(sql.ref('users.id')),
  name: notNull(sql.ref('users.name')),
  role: notNull(sql.ref('users.role')),
  position: notNull(sql.ref(`${places}.position`)),
  active: notNull(sql.ref('memberships.active')),
  onDuty: notNull(sql.ref('memberships.on_duty')),
  snoozeUntil: sql.ref('memberships.snooze_until'),
  disabled: notNull(sql.ref('users.disabled')),
  deletedAt: sql.ref('users.deleted_at'),
  pastDue: pastDueCount(env),
  weight: notNull(sql.ref('memberships.weight')),
  owed: notNull(sql.ref(`${places}.owed`)),
  dailyCap: sql.ref('memberships.daily_cap'),
  upsToday: upsTodayCount(env),
  openCap: sql.ref('memberships.open_cap'),
  openLeads: openLeadsCount(env),
  away: sql.ref('memberships.away'),
});

/** A rule's constant as stored: flags are 1 or 0. Constants come from the rule book, never from a request. */
const lit = (v: string | number | boolean) => sql.lit(typeof v === 'boolean' ? (v ? 1 : 0) : v);
const now = (env: SqlEnv) => (typeof env.now === 'number' ? sql.val(env.now) : env.now);

/**
 * A condition as a boolean SQL expression. Every leaf is false, never unknown, for a missing value
 * (as `holds` reads it), and stays a plain comparison an index can serve.
 */
export function toSql<R>(cond: Cond<R>, cols: Columns<R>, env: SqlEnv): RawBuilder<boolean> {
  const known = (col: RawBuilder<unknown>, test: RawBuilder<unknown>) =>
    neverNull.has(col) ? sql<boolean>`(${test})` : sql<boolean>`(${col} is not null and ${test})`;
  if ('eq' in cond) return known(cols[cond.eq], sql`${cols[cond.eq]} = ${lit(cond.to)}`);
  if ('ne' in cond) return known(cols[cond.ne], sql`${cols[cond.ne]} <> ${lit(cond.to)}`);
  if ('below' in cond) return known(cols[cond.below], sql`${cols[cond.below]} < ${lit(cond.than)}`);
  if ('lt' in cond) return known(cols[cond.lt], known(cols[cond.of], sql`${cols[cond.lt]} < ${cols[cond.of]}`));
  if ('due' in cond) return known(cols[cond.due], sql`${cols[cond.due]} <= ${now(env)}`);
  if ('isNull' in cond) return sql<boolean>`(${cols[cond.isNull]} is null)`;
  if ('all' in cond)
    return sql<boolean>`(${sql.join(
      cond.all.map((c) => toSql(c, cols, env)),
      sql` and `,
    )})`;
  if ('any' in cond)
    return sql<boolean>`(${sql.join(
      cond.any.map((c) => toSql(c, cols, env)),
      sql` or `,
    )})`;
  return sql<boolean>`(not ${toSql(cond.not, cols, env)})`;
}

/** An order as SQL; text sorts by code unit on both databases, as the domain compares it. */
function orderSql<R>(keys: OrderKey<R>[], cols: Columns<R>, dialect: Dialect, refs: { pointer: number | RawBuilder<unknown> }) {
  const binary = dialect === 'postgres' ? sql` collate "C"` : sql``;
  return sql.join(
    keys.map((k) => {
      if ('above' in k) return sql`(${cols[k.above]} > ${typeof refs.pointer === 'number' ? sql.val(refs.pointer) : refs.pointer}) desc`;
      return k.field === 'id' ? sql`${cols[k.field]}${binary}` : cols[k.field];
    }),
  );
}

export const eligibleSql = (env: SqlEnv) => toSql(ELIGIBLE, memberColumns(env), env);

/** No one in the store has a daily or open-leads cap: where this holds, an env with `caps: false` reads the same. */
export function uncappedSql(store: RawBuilder<number>): RawBuilder<boolean> {
  const { dailyCap, openCap } = memberColumns({ now: 0, holdOut: false, dayStart: 0 });
  return sql<boolean>`not exists (select 1 from memberships where memberships.store_id = ${store} and (${dailyCap} is not null or ${openCap} is not null))`;
}
export const inRotationSql = (env: SqlEnv) => toSql(IN_ROTATION, memberColumns(env), env);

/** Why someone out of line was passed over: the first of PASS_KINDS that holds, and its detail (PASS_DETAIL) as text. */
export function passSql(env: SqlEnv, places: Places = 'memberships') {
  const cols = memberColumns(env, places);
  const kind = sql<string>`(case ${sql.join(
    PASS_KINDS.map((k) => sql`when ${toSql(k.when, cols, env)} then ${sql.lit(k.kind)}`),
    sql` `,
  )} end)`;
  const detail = sql<string>`(case ${sql.join(
    PASS_KINDS.map((k) => {
      const field = PASS_DETAIL[k.kind];
      return sql`when ${toSql(k.when, cols, env)} then ${field ? sql`cast(${cols[field]} as text)` : sql.lit('')}`;
    }),
    sql` `,
  )} end)`;
  return { kind, detail };
}
export const pastDueSql = (env: SqlEnv) => toSql(PAST_DUE, LEAD_COLUMNS, env);
export const waitingSql = (env: SqlEnv) => toSql(WAITING, LEAD_COLUMNS, env);
export const upForGrabsSql = (env: SqlEnv) => toSql(UP_FOR_GRABS, LEAD_COLUMNS, env);
export const overdueSql = (env: SqlEnv) => toSql(OVERDUE, LEAD_COLUMNS, env);
export const pendingSql = (env: SqlEnv) => toSql(PENDING_ACCEPT, LEAD_COLUMNS, env);
export const pastDueCountSql = pastDueCount;
export const upsTodaySql = upsTodayCount;
export const openLeadsSql = openLeadsCount;
export const nextUpOrderSql = (env: SqlEnv, dialect: Dialect, pointer: number | RawBuilder<unknown>, places: Places = 'memberships') =>
  orderSql(NEXT_UP, memberColumns(env, places), dialect, { pointer });

/**
 * Next Up's id among a line's `eligible` rows, as a value: NEXT_UP read as the first past the
 * pointer in the order of its other keys, else the first of all (coalesce asks the second only
 * when there is none). Each is a walk of the line's place index that stops at its first row;
 * ordering the whole line by (place > pointer) made SQLite read and sort every row, 10 to 20
 * times the cost.
 */
export function nextUpIdSql<DB, TB extends keyof DB>(
  eligible: SelectQueryBuilder<DB, TB, object>,
  env: SqlEnv,
  dialect: Dialect,
  pointer: number | RawBuilder<unknown>,
  places: Places = 'memberships',
): RawBuilder<string> {
  const [past, ...rest] = NEXT_UP;
  if (!('above' in past)) throw new Error('NEXT_UP begins with the places past the pointer');
  const cols = memberColumns(env, places);
  const first = (q: SelectQueryBuilder<DB, TB, object>) =>
    q
      .clearSelect()
      .select(cols.id.as('id'))
      .orderBy(orderSql(rest, cols, dialect, { pointer }))
      .limit(sql.lit(1));
  return sql<string>`coalesce((${first(eligible.where(sql<boolean>`${cols[past.above]} > ${pointer}`))}), (${first(eligible)}))`;
}
