import type { Db, Dialect } from '../db';
import type { UserRow } from '../users/repo';
import type { Member } from '../../domain/rotation';
import type { Rules } from '../../domain/rules';
import { loadRules } from '../rules/service';
import { eligibleSql, nextUpOrderSql, overdueSql, pastDueCountSql, pastDueSql, waitingSql, type SqlEnv } from './sql';

/** assigned_to of a lead that is waiting for someone eligible. */
export const UNASSIGNED = '';

export const toMember = (u: UserRow & { past_due?: number | string | null }): Member => ({
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
});

/** The rule book's SQL for a moment: now and the hold-out rule (sql.ts). */
export const sqlEnv = (now: Date, rules: Pick<Rules, 'holdOut'>): SqlEnv => ({ now: now.getTime(), holdOut: rules.holdOut });

/** Staff still on the team (not disabled or deleted), in rotation order; with `env`, each with his past-due count under the hold-out rule. */
export async function teamStaff(db: Db, env?: SqlEnv): Promise<Member[]> {
  const team = db
    .selectFrom('users')
    .selectAll('users')
    .where('role', '=', 'staff')
    .where('disabled', '=', 0)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id');
  const rows = env ? await team.select(pastDueCountSql(env).as('past_due')).execute() : await team.execute();
  return rows.map(toMember);
}

/** The eligible (the rule book's ELIGIBLE, applied by the database), in place order, each with his past-due count. */
export const candidates = (db: Db, env: SqlEnv) =>
  db.selectFrom('users').selectAll('users').select(pastDueCountSql(env).as('past_due')).where(eligibleSql(env)).orderBy('position').orderBy('id').execute();

/** A salesman by id, with his past-due count, as the rule book reads him. */
export async function memberById(db: Db, env: SqlEnv, id: string): Promise<Member | undefined> {
  const row = await db.selectFrom('users').selectAll('users').select(pastDueCountSql(env).as('past_due')).where('id', '=', id).executeTakeFirst();
  return row && toMember(row);
}

export const readState = (db: Db) => db.selectFrom('rotation_state').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();

/** Next Up (the rule book's ELIGIBLE and NEXT_UP, applied by the database), with his address for the mail about his lead. */
export async function nextUp(trx: Db, env: SqlEnv, dialect: Dialect) {
  const state = await readState(trx);
  const row = await trx
    .selectFrom('users')
    .selectAll('users')
    .where(eligibleSql(env))
    .orderBy(nextUpOrderSql(env, dialect, state.pointer_pos))
    .limit(1)
    .executeTakeFirst();
  return { state, next: row ? toMember(row) : null, email: row?.email ?? '' };
}

/** Leads waiting for someone eligible (the rule book's WAITING). */
export const waiting = (db: Db, env: SqlEnv) => db.selectFrom('leads').where(waitingSql(env));

/**
 * The oldest lead whose Accept window has passed (the partial index on accept_due finds it).
 * With `lock` (PostgreSQL, inside the transaction) the row stays locked until the hand-on
 * commits: an Accept arriving meanwhile waits and then finds the lead gone, and one that
 * committed first makes this read find the lead accepted.
 */
export const firstOverdue = (db: Db, env: SqlEnv, lock = false) =>
  db
    .selectFrom('leads')
    .selectAll()
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
export async function rotationRows(db: Db, logSize: number, now: Date) {
  const [state, team, log, rules, pending] = await Promise.all([
    readState(db),
    teamStaff(db),
    db.selectFrom('rotation_log').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(logSize).execute(),
    loadRules(db),
    // Only leads on the clock have an accept_due (an Accept, a close or a hand-on clears it): the
    // partial index finds them, and the rule book says which of them wait (a condition on
    // `closed` here would lead SQLite to walk every open lead instead).
    db
      .selectFrom('leads')
      .selectAll()
      .where('id', 'in', (eb) =>
        eb.selectFrom('leads as due').select('due.id').where('due.accept_due', 'is not', null).orderBy('due.accept_due').orderBy('due.id').limit(PENDING_LOOK),
      )
      .execute(),
  ]);
  // None are listed while the hold-out rule is off.
  const pastDue = rules.holdOut
    ? await db
        .selectFrom('leads')
        .select(['id', 'customer', 'assigned_to'])
        .where(pastDueSql(sqlEnv(now, rules)))
        .orderBy('follow_up_due')
        .execute()
    : [];
  return { state, team, log, pending, pastDue };
}

export type RotationRows = Awaited<ReturnType<typeof rotationRows>>;
