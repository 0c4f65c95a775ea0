import type { Db, Dialect } from '../db';
import { sql, type Compilable, type Insertable } from 'kysely';
import { reused, slot, slotsFor } from '../db/reuse';
import type { Database } from '../db/schema';
import { eligibleQueue, type Member } from '../../domain/rotation';
import { afterServe, lineOfTarget, pickWeighted, ruleSentText, toBack, type route, type Routing } from '../../domain/routing';
import type { Actor } from '../../domain/users';
import {
  asTeamLine,
  nextUp,
  nextUpInTeam,
  passedQuery,
  readState,
  rulePassQuery,
  slotted,
  storeShapeSql,
  teamLineStaff,
  teamStaff,
  type TeamLine,
} from './queries';
import type { SqlEnv } from './sql';

/** The line an up goes through: a team's (its id) or the whole floor's (null), and the routing rule that chose it. */
export interface Way {
  team: number | null;
  teamName: string | null;
  /** The rule's name; null: no rule matched (the store's fallback) or the store routes nothing. */
  rule: string | null;
  /** Up for grabs instead of the line (domain/routing.ts grabSchema, after 0). */
  grab: { minutes: number } | null;
  /** The team's pointer and the store's shape, read with its teams: Next Up's question need not ask them again. */
  line?: TeamLine;
}

export const FLOOR_WAY: Way = { team: null, teamName: null, rule: null, grab: null };

/** Whether a store's routing can send a lead anywhere but the whole floor's line. */
export const routes = (r: Routing) => r.rules.length > 0 || !('floor' in r.fallback);

/** The line a lead goes through, given the rule its traits met (domain/routing.ts route; null: the store routes nothing), its team read under the rotation lock. */
export async function wayOf(trx: Db, dialect: Dialect, store: number, hit: ReturnType<typeof route> | null): Promise<Way> {
  if (!hit) return FLOOR_WAY;
  const teams = await reused(
    trx,
    dialect,
    "a store's teams, pointers and shape",
    () =>
      trx
        .selectFrom('teams')
        .select(['id', 'name', 'pointer_pos'])
        .select(storeShapeSql(slot('store')))
        .where('store_id', '=', slot<number>('store')),
    { store },
  );
  const team = lineOfTarget(
    hit.to,
    teams.map((t) => Number(t.id)),
  );
  const grab = hit.rule?.grab && hit.rule.grab.after === 0 ? { minutes: hit.rule.grab.minutes } : null;
  const row = teams.find((t) => Number(t.id) === team);
  return { team, teamName: row?.name ?? null, rule: hit.rule?.name ?? null, grab, ...(row && { line: asTeamLine(row) }) };
}

/**
 * Next Up in a line, with his address for the mail about his lead, and the line's pointer. The
 * database picks by the rule book; where weights are at play the domain picks among the same
 * eligible people (domain/routing.ts pickWeighted).
 */
export async function nextIn(trx: Db, store: number, team: number | null, env: SqlEnv, dialect: Dialect, now: Date, line?: TeamLine) {
  const floor = team === null ? await nextUp(trx, store, env, dialect) : null;
  const picked = floor
    ? { pointer: floor.state.pointer_pos, next: floor.next, email: floor.email, shape: floor.shape }
    : await nextUpInTeam(trx, store, team ?? 0, env, dialect, line);
  const shape = picked.shape ?? (await storeShape(trx, store));
  if (!picked.next || !shape.weights) return { ...picked, shape };
  const { queue } = await lineQueue(trx, store, team, env, now);
  const next = pickWeighted(queue, picked.pointer, (await readState(trx, store)).last_assigned_to);
  if (!next || next.id === picked.next.id) return { ...picked, shape };
  const to = await trx.selectFrom('users').select('email').where('id', '=', next.id).executeTakeFirstOrThrow();
  return { pointer: picked.pointer, next, email: to.email, shape };
}

/** A line's pointer and its eligible people in place order (the domain's pick reads them). */
export async function lineQueue(trx: Db, store: number, team: number | null, env: SqlEnv, now: Date) {
  const pointer =
    team === null
      ? (await readState(trx, store)).pointer_pos
      : ((await trx.selectFrom('teams').select('pointer_pos').where('id', '=', team).executeTakeFirst())?.pointer_pos ?? 0);
  return { pointer, queue: eligibleQueue(await peopleOf(trx, store, team, env), now) };
}

/** A line's people, with the rule book's counts, in its order. */
const peopleOf = (trx: Db, store: number, team: number | null, env: SqlEnv) =>
  team === null ? teamStaff(trx, store, env) : teamLineStaff(trx, store, team, env);

/**
 * Sets a line's pointer, its places that move (each onto a place no one holds, as places are
 * unique) and its credits; `state`, the store's last up, goes with the whole floor's pointer.
 */
async function moveLine(
  trx: Db,
  dialect: Dialect,
  store: number,
  team: number | null,
  pointer: number,
  places: { id: string; position: number }[],
  owed: { id: string; owed: number }[] = [],
  state?: { last_assigned_to: string; last_assigned_at: number; updated_by: string | null },
) {
  // Run at every up: built once each (server/db/reuse.ts).
  const run = (key: string, build: () => Compilable<unknown>, values: Record<string, unknown>) => reused(trx, dialect, key, build, values);
  const line = placesIn(store, team);
  const set = (column: 'position' | 'owed', id: string, value: number) =>
    run(
      `${line.table} ${column}`,
      () => trx.updateTable(line.table).set(column, slot<number>('value')).where(line.key, '=', slot<number>('line')).where('user_id', '=', slot<string>('id')),
      { value, line: line.of, id },
    );
  for (const p of places) await set('position', p.id, p.position);
  for (const o of owed) await set('owed', o.id, o.owed);
  if (team !== null)
    await run('team pointer', () => trx.updateTable('teams').set('pointer_pos', slot<number>('pointer')).where('id', '=', slot<number>('team')), {
      pointer,
      team,
    });
  // The store's row: the whole floor's pointer, and the last up with whichever line served it.
  const floor = team === null ? { pointer_pos: pointer } : {};
  const row = { ...floor, ...state };
  if (Object.keys(row).length)
    await run(
      `rotation state: ${Object.keys(row).join()}`,
      () => trx.updateTable('rotation_state').set(slotsFor(row)).where('id', '=', slot<number>('store')),
      {
        ...row,
        store,
      },
    );
}

/**
 * An up given in a line: logs it (with its line and rule) and who was passed over on the way and
 * why (the fairness ledger), moves the line's pointer (a weight above 1 spreads his ups over the
 * turn, domain/routing.ts afterServe), and, under the back-of-every-line rule, puts him at the
 * back of every other line he stands in. Returns the line's pointer after it.
 */
export async function served(
  trx: Db,
  u: {
    store: number;
    dialect: Dialect;
    way: Way;
    next: Member;
    pointer: number;
    leadId: number;
    customer: string;
    by: Actor;
    now: Date;
    env: SqlEnv;
    backOfEveryLine: boolean;
    /** A manager's override: his reason, and the pointer override() leaves (no one loses a turn). */
    named?: { reason: string; pointer: number };
    /** The store's shape when the caller has read it already (nextIn). */
    shape?: { weights: boolean; teams: boolean };
  },
): Promise<number> {
  const { store, way, next, now } = u;
  const at = now.getTime();
  const shape = u.shape ?? (await storeShape(trx, store));
  // Weights at play: the line's credits move (afterServe reads everyone in it); else the pointer stops at his place.
  const people = shape.weights && !u.named ? await peopleOf(trx, store, way.team, u.env) : null;
  const after = u.named
    ? { pointer: u.named.pointer, owed: [] }
    : people
      ? afterServe(people, people.find((m) => m.id === next.id) ?? next, now)
      : { pointer: next.position, owed: [] };
  const entry = {
    store_id: store,
    type: 'assign' as const,
    customer: u.customer,
    target_id: next.id,
    target_name: next.name,
    reason: u.named?.reason ?? null,
    manager_id: u.by.id,
    manager_name: u.by.name,
    pointer_pos_after: after.pointer,
    lead_id: u.leadId,
    created_at: at,
    team_id: way.team,
    rule: way.rule,
  } satisfies Insertable<Database['rotation_log']>;
  const [log] = await reused(trx, u.dialect, 'log an up', () => trx.insertInto('rotation_log').values(slotsFor(entry)).returning('id'), entry);
  const stamp = (v: number | null) => sql<number>`cast(${v} as bigint)`;
  // Who was passed over on the way to him, and why (an override passes no one over: nobody's turn moves).
  // Nearly always no one stood between the pointer and him: a look at the places says so cheaply.
  if (!u.named && (await standsBetween(trx, u.dialect, store, way.team, u.pointer, next.position)))
    await trx
      .insertInto('passed_over')
      .columns(['user_id', 'kind', 'why', 'store_id', 'log_id', 'lead_id', 'team_id', 'created_at'])
      .expression(
        passedQuery(trx, store, way.team, u.env, u.pointer, next.position).select([
          stamp(store).as('store_id'),
          stamp(Number(log.id)).as('log_id'),
          stamp(u.leadId).as('lead_id'),
          stamp(way.team).as('team_id'),
          stamp(at).as('created_at'),
        ]),
      )
      .execute();
  // A rule sent the lead to a team: whoever was Next Up on the whole floor, outside it, was passed over by the rule.
  if (way.team !== null && way.rule !== null) {
    const s = slotted(u.env);
    const pass = { log: Number(log.id), lead: u.leadId, team: way.team, served: next.id, why: ruleSentText(way.rule, way.teamName ?? 'other') };
    await reused(
      trx,
      u.dialect,
      `a rule pass: ${s.key}`,
      () =>
        trx
          .insertInto('passed_over')
          .columns(['user_id', 'store_id', 'log_id', 'lead_id', 'team_id', 'kind', 'why', 'created_at'])
          .expression(
            rulePassQuery(trx, slot('store'), slot('team'), s.env, u.dialect, slot('served')).select([
              sql<number>`cast(${slot('store')} as bigint)`.as('store_id'),
              sql<number>`cast(${slot('log')} as bigint)`.as('log_id'),
              sql<number>`cast(${slot('lead')} as bigint)`.as('lead_id'),
              sql<number>`cast(${slot('team')} as bigint)`.as('team_id'),
              sql.lit('rule').as('kind'),
              sql<string>`cast(${slot('why')} as text)`.as('why'),
              sql<number>`cast(${slot('at')} as bigint)`.as('created_at'),
            ]),
          ),
      { ...pass, store, at, ...s.values },
    );
  }
  await moveLine(trx, u.dialect, store, way.team, after.pointer, [], after.owed, { last_assigned_to: next.id, last_assigned_at: at, updated_by: u.by.id });
  if (u.backOfEveryLine && shape.teams) await backOfOthers(trx, u.dialect, store, way.team, next.id);
  return after.pointer;
}

/**
 * Whether anyone stands in a line between the pointer and a place, in the circle's order. Places
 * are whole numbers: no one stands between the pointer and the place right after it, so that is not asked.
 */
async function standsBetween(trx: Db, dialect: Dialect, store: number, team: number | null, pointer: number, at: number) {
  if (at === pointer + 1) return false;
  const place = sql.ref<number>('position');
  const [from, to] = [slot<number>('pointer'), slot<number>('at')];
  const wraps = at <= pointer;
  const between = wraps ? sql<boolean>`(${place} > ${from} or ${place} < ${to})` : sql<boolean>`(${place} > ${from} and ${place} < ${to})`;
  const line = placesIn(store, team);
  const rows = await reused(
    trx,
    dialect,
    `stands between: ${line.table}${wraps ? ', round the end' : ''}`,
    () => trx.selectFrom(line.table).select('position').where(line.key, '=', slot<number>('line')).where(between).limit(1),
    { line: line.of, pointer, at },
  );
  return rows.length > 0;
}

/** Whether weights are at play in a store (anyone above 1) and whether it has teams: the extra work of an up is only for them. */
async function storeShape(trx: Db, store: number) {
  const r = await trx.selectNoFrom(storeShapeSql(store)).executeTakeFirstOrThrow();
  return { weights: !!r.weights, teams: !!r.teams };
}

/** Puts someone served in one line at the back of every other line he stands in (the whole floor's and his teams'). */
async function backOfOthers(trx: Db, dialect: Dialect, store: number, servedIn: number | null, id: string) {
  const lines = await reused(
    trx,
    dialect,
    "a salesman's lines and their pointers",
    () =>
      trx
        .selectFrom('team_members')
        .innerJoin('teams', 'teams.id', 'team_members.team_id')
        .select([sql<number | null>`teams.id`.as('id'), 'teams.pointer_pos'])
        .where('teams.store_id', '=', slot<number>('store'))
        .where('team_members.user_id', '=', slot<string>('id'))
        .unionAll(
          trx
            .selectFrom('rotation_state')
            .select([sql<number | null>`null`.as('id'), 'pointer_pos'])
            .where('id', '=', slot<number>('store')),
        ),
    { store, id },
  );
  // Only the floor's row: he stands in no team, so he has no other line.
  if (lines.length < 2) return;
  for (const l of lines) {
    const team = l.id === null ? null : Number(l.id);
    if (team === servedIn) continue;
    const line = placesIn(store, team);
    const people = await reused(
      trx,
      dialect,
      `places in a line: ${line.table}`,
      () => trx.selectFrom(line.table).select(['user_id as id', 'position']).where(line.key, '=', slot<number>('line')),
      { line: line.of },
    );
    if (!people.some((m) => m.id === id) || lastIn(people, l.pointer_pos)?.id === id) continue;
    const r = toBack(people, id, l.pointer_pos, Math.max(l.pointer_pos, ...people.map((m) => m.position)));
    await moveLine(trx, dialect, store, team, r.pointer, r.places);
  }
}

/** Where a line keeps its places: the store's memberships (the whole floor's), or a team's team_members; `of` is the store or the team. */
const placesIn = (store: number, team: number | null) =>
  team === null ? ({ table: 'memberships', key: 'store_id', of: store } as const) : ({ table: 'team_members', key: 'team_id', of: team } as const);

/** Who is served last in a line, its circle read from the pointer. */
function lastIn(people: Pick<Member, 'id' | 'position'>[], pointer: number) {
  const sorted = [...people].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  const upTo = sorted.filter((m) => m.position <= pointer);
  return upTo.length ? upTo[upTo.length - 1] : sorted[sorted.length - 1];
}
