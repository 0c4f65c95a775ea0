import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db, StoreDb } from '../db';
import { dayStart, line, passedQuery, rulePassQuery, teamLine } from './queries';
import { ApiError } from '../http/errors';
import { customerFields, followUpDue } from '../../domain/leads';
import { acceptDue } from '../../domain/speed';
import { eligibleSql, nextUpOrderSql, uncappedSql, waitingSql, type SqlEnv } from './sql';
import type { Rules } from '../../domain/rules';
import { ruleSentText } from '../../domain/routing';
import { newLeadMail } from '../leads/notify';
import type { Announcement } from '../events/bus';
import type { Actor } from '../../domain/users';
import type { Assigned, Handed, NewLead } from './assign';

/** What the one-call assign answers; `to` is the salesman's address. */
type Answer =
  | { error: 'action_reused' | 'none_eligible' | 'rules_changed' | 'waiting' | 'stepwise' }
  | { replayed: true; result: Assigned }
  | { assigned: Assigned; to: string | null };

/** The one-call assign's arguments after the store, each with its type. */
const ARGS = [
  ['customer', 'text'],
  ['phone', 'text'],
  ['email', 'text'],
  ['vehicle', 'text'],
  ['vin', 'text'],
  ['comments', 'text'],
  ['source', 'text'],
  ['by_id', 'text'],
  ['by_name', 'text'],
  ['at', 'bigint'],
  ['follow_up_due', 'bigint'],
  ['keep', 'boolean'],
  ['action_id', 'text'],
  ['request', 'text'],
  ['accept_due', 'bigint'],
  ['hold_out', 'boolean'],
  ['rules', 'text'],
  ['waiting_first', 'boolean'],
  ['day_start', 'bigint'],
  ['team', 'bigint'],
  ['rule', 'text'],
  ['rule_why', 'text'],
  ['back', 'boolean'],
] as const;
/** With the live updates to send when its lead is stored: the call sends the last of them once, for the whole batch. */
const COLUMNS = [...ARGS, ['channel', 'text'], ['events', 'text[]']] as const;
type Item = Record<(typeof COLUMNS)[number][0], string | number | boolean | string[] | null>;

/** One answer, its keys always in the same order: a replay reads the same as the first answer. */
const shape = (a: Assigned): Assigned => ({
  leadId: Number(a.leadId),
  customer: a.customer,
  assignedTo: a.assignedTo ? { id: a.assignedTo.id, name: a.assignedTo.name } : null,
  pointerPos: a.pointerPos,
  duplicate: a.duplicate,
});

/**
 * One call of an app server at a time for a store: its assigns queue here, in the order they came,
 * and those that queued while a call ran go in the next, up to BATCH, one after another in one
 * transaction. Each call's parse, plan, commit and round trip were half of PostgreSQL's work for
 * an assign (README, "Where an assign's CPU goes"); now they are shared. Calls queue on the
 * store's rotation lock anyway, each holding a pooled connection while it waits: with sixteen
 * managers pressing at once, one call each ran the pool dry for everything else (sessions, mail,
 * events). Stores have locks of their own, so each has its own queue; all of them together hold
 * at most ALL_STORES connections, leaving the rest of the pool to everything else.
 */
const BATCH = 32;
const ALL_STORES = 6;

/** A queue of at most `size` runs at once; a freed slot passes straight to the next in line. `full`: a run now would wait. */
function gate(size: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const pass = async <T>(run: () => Promise<T>): Promise<T> => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
  return Object.assign(pass, { full: () => running >= size });
}

/** An assign in its store's queue; `stepwise`: its transaction statement by statement, for when the one call hands it back. */
type Job = { item: Item; stepwise: () => Promise<Handed>; done: (a: Answer | { stepped: Handed }) => void; fail: (err: unknown) => void };
type Queue = { jobs: Job[]; busy: boolean };
const queues = new WeakMap<Db, { all: ReturnType<typeof gate>; stores: Map<number, Queue> }>();

/** One call of the function on a connection of its own; `wrote` is told once the call is on its way (pg writes it at once). */
async function call(h: StoreDb, fn: string, items: Item[], wrote?: () => void) {
  if (!h.pool) throw new Error('the one-call assign runs on PostgreSQL');
  const client = await h.pool.connect();
  try {
    const answer = client.query<{ r: Answer[] }>(`select ${fn}($1::bigint, $2::json) as r`, [h.store, JSON.stringify(items)]);
    wrote?.();
    return (await answer).rows[0].r;
  } finally {
    client.release();
  }
}

/** A statement the database refused, so nothing of its transaction was kept (not a lost connection, whose commit may have landed). */
const refused = (err: unknown) => {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.length === 5 && !/^(08|57)/.test(code);
};

const handedBack = (a: Answer) => 'error' in a && a.error === 'stepwise';

/**
 * One call for the jobs: each one's answer, or its failure. The call stops at an assign it hands
 * back, so fewer answers than jobs come back then. A batch the database refused goes again one
 * by one, so one assign's fault is its own.
 */
async function send(h: StoreDb, fn: string, jobs: Job[], wrote: () => void): Promise<(Answer | { failed: unknown })[]> {
  try {
    return await call(
      h,
      fn,
      jobs.map((j) => j.item),
      wrote,
    );
  } catch (err) {
    if (jobs.length === 1 || !refused(err)) return jobs.map(() => ({ failed: err }));
    const answers: (Answer | { failed: unknown })[] = [];
    for (const j of jobs) {
      const a = await call(h, fn, [j.item]).then(
        ([one]) => one,
        (failed: unknown) => ({ failed }),
      );
      answers.push(a);
      if (!('failed' in a) && handedBack(a)) break;
    }
    return answers;
  }
}

/** A batch's call under way: `written` once it is on its way to the database (or could not go), `answers` when they are back. */
function dispatch(h: StoreDb, fn: string, jobs: Job[], all: ReturnType<typeof gate>) {
  let wrote = () => {};
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const answers = all(() => send(h, fn, jobs, wrote));
  void answers.then(wrote);
  return { written, answers };
}

/**
 * The jobs of a store's queue, a batch at a time, one call at a time. One handed back runs
 * statement by statement before the batch after it: those behind it in the queue go after it, as
 * they came. Otherwise the next batch is on its way before this one's answers reach their
 * requests: their replies, run first, kept it waiting 1.3 ms of every 7–10 ms round with sixteen
 * managers pressing at once (0.5 ms once sent first).
 */
async function drain(h: StoreDb, fn: string, store: Queue, all: ReturnType<typeof gate>) {
  store.busy = true;
  try {
    let jobs = store.jobs.splice(0, BATCH);
    let sent = dispatch(h, fn, jobs, all);
    while (jobs.length) {
      const answers = await sent.answers;
      store.jobs.unshift(...jobs.slice(answers.length));
      const handsBack = answers.some((a) => !('failed' in a) && handedBack(a));
      const next = handsBack ? [] : store.jobs.splice(0, BATCH);
      if (next.length) {
        // Not when other stores' calls hold every slot: these answers would wait for one.
        const wait = !all.full();
        sent = dispatch(h, fn, next, all);
        if (wait) await sent.written;
      }
      for (const [k, a] of answers.entries()) {
        const job = jobs[k];
        if ('failed' in a) job.fail(a.failed);
        else if (handedBack(a)) await job.stepwise().then((stepped) => job.done({ stepped }), job.fail);
        else job.done(a);
      }
      // After a hand-back, those that queued behind it (and meanwhile) go now.
      jobs = handsBack ? store.jobs.splice(0, BATCH) : next;
      if (handsBack && jobs.length) sent = dispatch(h, fn, jobs, all);
    }
  } finally {
    // At once, with no wait between the queue found empty and the slot freed: a job queued meanwhile would find no one to send it.
    store.busy = false;
  }
}

/** One assign through its store's queue; it goes to the database with whatever queued beside it. */
function assignQueued(h: StoreDb, fn: string, item: Item, stepwise: () => Promise<Handed>): Promise<Answer | { stepped: Handed }> {
  let q = queues.get(h.db);
  if (!q) queues.set(h.db, (q = { all: gate(ALL_STORES), stores: new Map() }));
  let store = q.stores.get(h.store);
  if (!store) q.stores.set(h.store, (store = { jobs: [], busy: false }));
  const { all } = q;
  const mine = store;
  return new Promise((done, fail) => {
    mine.jobs.push({ item, stepwise, done, fail });
    if (!mine.busy) void drain(h, fn, mine, all);
  });
}

/**
 * The one-call assign, written for this app's rule book: the pick of Next Up and the check for
 * waiting leads are compiled from domain/rotation.ts (sql.ts), with the function's own arguments
 * for now, the hold-out switch and the pointer; the steps around them (lock, replay, store, log,
 * pointer, notify) are written here once. Its name carries a hash of its text, so an app server
 * always calls the function of its own rules, even beside another version during a deploy.
 */
function assignFunction(db: Db): { name: string; texts: string[] } {
  const env: SqlEnv = { now: sql.raw('p_at'), holdOut: sql.raw('p_hold_out'), dayStart: sql.raw('p_day_start') };
  const store = sql.raw<number>('p_store');
  const team = sql.raw<number>('v_team');
  const pointer = sql.raw<number>('v_pointer');
  const place = sql.raw<number>('v_next.position');
  const statements = (env: SqlEnv) => ({
    pickFloor: line(db, store)
      .where(eligibleSql(env))
      .orderBy(nextUpOrderSql(env, 'postgres', sql.raw('v_floor')))
      .limit(sql.lit(1))
      .compile(),
    pickTeam: teamLine(db, store, team)
      .where(eligibleSql(env))
      .orderBy(nextUpOrderSql(env, 'postgres', pointer, 'tm'))
      .limit(sql.lit(1))
      .compile(),
    // Who was passed over on the way to Next Up, and why (the fairness ledger; serve.ts on the stepwise path).
    passedFloor: passedQuery(db, store, null, env, pointer, place).compile(),
    passedTeam: passedQuery(db, store, team, env, pointer, place).compile(),
    rulePass: rulePassQuery(db, store, team, env, 'postgres', sql.raw('v_next.id')).compile(),
  });
  // Each statement twice: as written, and lean, for a store with the hold-out rule off and no one
  // capped (v_lean, read under the lock), where the rule book's counts compile away. PostgreSQL
  // readies every count a statement holds each time it runs, read or not: 34 of them in a routed
  // up, a fifth of its time.
  const full = statements(env);
  const lean = statements({ ...env, holdOut: false, caps: false });
  const either = (q: keyof typeof full, text: (query: string) => string) => `if v_lean then ${text(lean[q].sql)} else ${text(full[q].sql)} end if;`;
  const uncapped = uncappedSql(store).compile(db);
  const waiting = db.selectFrom('leads').select(sql.lit(1).as('one')).where('leads.store_id', '=', store).where(waitingSql(env)).compile();
  // Everything in them is a constant of the rule book or an argument: nothing is bound.
  if ([waiting, uncapped, ...Object.values(full), ...Object.values(lean)].some((q) => q.parameters.length))
    throw new Error('the one-call assign must not bind values');
  // His other lines (serve.ts backOfOthers), each read as its pointer and who it serves last
  // (domain/routing.ts lastIn): the whole floor's when a team served him, and each team he stands in
  // but the one that did. Whether the place after a line's pointer is taken by someone else.
  const floorLine = `
    select coalesce((select o.user_id from memberships o where o.store_id = p_store and o.position <= v_floor order by o.position desc limit 1),
                    (select o.user_id from memberships o where o.store_id = p_store order by o.position desc limit 1)) <> v_next.id as moves,
           exists (select 1 from memberships o where o.store_id = p_store and o.position = v_floor + 1 and o.user_id <> v_next.id) as taken`;
  const teamLines = `
    select t.id as team, t.pointer_pos as pointer,
      coalesce((select o.user_id from team_members o where o.team_id = t.id and o.position <= t.pointer_pos order by o.position desc limit 1),
               (select o.user_id from team_members o where o.team_id = t.id order by o.position desc limit 1)) as last,
      exists (select 1 from team_members o where o.team_id = t.id and o.position = t.pointer_pos + 1 and o.user_id <> v_next.id) as taken
    from team_members tm join teams t on t.id = tm.team_id
    where t.store_id = p_store and tm.user_id = v_next.id and t.id is distinct from v_team`;
  // Each statement is planned once per connection and its plan kept (force_generic_plan, set by the call below). Left to
  // choose, PostgreSQL planned the pick and the passed-over query anew at every call, its custom plans
  // always looking cheaper (the hold-out switch folded away): 1.3 ms of planning an assign, with
  // 200,000 leads, beside 0.5 ms of work. A kept plan's cost is an estimate for any argument, high
  // enough to start JIT compilation at every call (80 ms). The portal's connections have JIT off
  // (db/index.ts), but options in the database address replace that; the call keeps it off itself.
  // Its statements read the store's few rows by index, never by scanning a table or through a
  // bitmap (the call sets both off). A plan kept from when the line's tables were a page each
  // scanned them whole; but serving a salesman in a team moves his place on the whole floor's line,
  // each move leaves a row version behind until a vacuum, and such scans, like bitmaps, read every
  // one of them again at every pick (4,800 of them after 8,000 routed assigns). An index scan marks
  // them as it passes, and the next skips them.
  // What no change can move while the store's lock is held (every change to them takes it): read
  // once a batch, after the lock is held, and given to each assign in it. Read at every assign, the
  // store's rules, the waiting leads, the weights, the teams and the caps cost an eighth of a routed
  // up: the memberships they look through hold a row version for every move on the floor.
  // Each: its name (p_seen_<name> in an assign, v_seen_<name> in the batch), type and expression.
  const anyWaiting = `exists (${waiting.sql})`;
  const seen = [
    ['rules', 'text', `md5(coalesce((select rules from stores where id = p_store), ''))`],
    ['waiting', 'boolean', anyWaiting],
    ['weighted', 'boolean', 'exists (select 1 from memberships m where m.store_id = p_store and m.weight <> 1)'],
    ['teams', 'boolean', 'exists (select 1 from teams t where t.store_id = p_store)'],
    [
      'two_teams',
      'boolean',
      `exists (select 1 from team_members a join teams ta on ta.id = a.team_id
                 join team_members b on b.user_id = a.user_id and b.team_id <> a.team_id join teams tb on tb.id = b.team_id
                 where ta.store_id = p_store and tb.store_id = p_store)`,
    ],
    ['uncapped', 'boolean', uncapped.sql],
  ] as const;
  const body = `(p_store bigint, ${ARGS.map(([n, t]) => `p_${n} ${t}`)
    .concat(seen.map(([n, t]) => `p_seen_${n} ${t}`))
    .join(', ')}) returns json language plpgsql as $fn$
declare
  v_floor integer;
  v_pointer integer;
  v_team bigint;
  v_team_name text;
  v_to text;
  v_action rotation_actions%rowtype;
  v_next record;
  v_has_next boolean;
  -- Where he goes at the back of his other lines: the whole floor's place (null: none) and each team's.
  v_back_floor integer;
  v_back_teams bigint[] := '{}';
  v_back_places integer[] := '{}';
  v_taken boolean;
  v_id bigint;
  v_log bigint;
  v_result json;
  v_lean boolean;
begin
  -- The same lock every change to the store's rotation takes (withRotationLock).
  select pointer_pos into strict v_floor from rotation_state where id = p_store for update;
  -- The store's rules the caller remembers, by the MD5 of their stored text (null: not checked);
  -- leads waiting in Unassigned, which go out before a new one; whether the lean statements serve
  -- (hold-out off, no one capped). What the whole batch read once under the lock (p_seen_*, below).
  v_lean := not p_hold_out and p_seen_uncapped;
  if p_rules is not null and p_rules <> p_seen_rules then
    return json_build_object('error', 'rules_changed');
  end if;
  -- The caller hands the waiting leads out, then asks again.
  if p_waiting_first and p_seen_waiting then
    return json_build_object('error', 'waiting');
  end if;
  if p_action_id is not null then
    select * into v_action from rotation_actions where id = p_action_id;
    if found then
      if v_action.request <> p_request then
        return json_build_object('error', 'action_reused');
      end if;
      return json_build_object('replayed', true, 'result', v_action.result::json);
    end if;
  end if;
  -- The line the routing rule chose: its team's (none, or a team no longer there: the whole floor's).
  if p_team is not null then
    select t.id, t.name, t.pointer_pos into v_team, v_team_name, v_pointer from teams t where t.id = p_team and t.store_id = p_store;
  end if;
  -- Next Up of that line, by the rule book.
  if v_team is null then
    v_pointer := v_floor;
    ${either('pickFloor', (q) => `select q.* into v_next from (${q}) q;`)}
  else
    ${either('pickTeam', (q) => `select q.* into v_next from (${q}) q;`)}
  end if;
  v_has_next := found;
  if not v_has_next and not p_keep then
    return json_build_object('error', 'none_eligible');
  end if;
  if v_has_next then
    -- Weights at play in the store: the stepwise path serves it (serve.ts, domain/routing.ts pickWeighted).
    if p_seen_weighted then
      return json_build_object('error', 'stepwise');
    end if;
    -- Back of every other line he stands in: here only where that is one write (the place after the
    -- line's pointer is free); a line that must be renumbered is the stepwise path's (domain/routing.ts toBack).
    -- A store without teams has only the one line.
    if p_back and p_seen_teams then
      -- Each line whose last place is not already his: its place after the pointer, free or not.
      -- Two statements: one over both lines (a union, ordered aggregates) cost 12–21 µs an up more.
      v_taken := false;
      if v_team is not null then
        select case when l.moves then v_floor + 1 end, coalesce(l.moves and l.taken, false)
          into v_back_floor, v_taken from (${floorLine}) l;
      end if;
      -- Served through a team, he stands in another only where someone stands in two.
      if not v_taken and (v_team is null or p_seen_two_teams) then
        select coalesce(bool_or(l.taken), false), coalesce(array_agg(l.team), '{}'), coalesce(array_agg(l.pointer + 1), '{}')
          into v_taken, v_back_teams, v_back_places
          from (${teamLines}) l where l.last <> v_next.id;
      end if;
      if v_taken then
        return json_build_object('error', 'stepwise');
      end if;
    end if;
  end if;
  insert into leads (store_id, customer, assigned_to, assigned_to_name, assigned_by, assigned_by_name, assigned_at, status,
                     follow_up_due, closed, source, closed_at, closed_by_id, closed_by_name,
                     phone, email, vehicle, vin, comments, offered_at, accept_due, team_id)
    values (p_store, p_customer, case when v_has_next then v_next.id else '' end, case when v_has_next then v_next.name else '' end, p_by_id, p_by_name, p_at,
            case when v_has_next then 'handed' else 'new' end, p_follow_up_due, 0, p_source, null, null, null,
            p_phone, p_email, p_vehicle, p_vin, p_comments,
            case when v_has_next then p_at end, case when v_has_next then p_accept_due end, v_team)
    returning id into v_id;
  if v_has_next then
    insert into rotation_log (store_id, type, customer, target_id, target_name, reason, manager_id, manager_name, pointer_pos_after, lead_id, created_at, team_id, rule)
      values (p_store, 'assign', p_customer, v_next.id, v_next.name, null, p_by_id, p_by_name, v_next.position, v_id, p_at, v_team, p_rule)
      returning id into v_log;
    -- Who was passed over stood between the line's pointer and the place served (none when that is the next place).
    if v_team is null then
      if v_next.position <> v_pointer + 1 then
        ${either(
          'passedFloor',
          (q) => `insert into passed_over (store_id, log_id, lead_id, team_id, user_id, kind, why, created_at)
          select p_store, v_log, v_id, null, q.id, q.kind, q.why, p_at from (${q}) q;`,
        )}
      end if;
      update rotation_state set pointer_pos = v_next.position, last_assigned_to = v_next.id, last_assigned_at = p_at, updated_by = p_by_id
        where id = p_store;
    else
      if v_next.position <> v_pointer + 1 then
        ${either(
          'passedTeam',
          (q) => `insert into passed_over (store_id, log_id, lead_id, team_id, user_id, kind, why, created_at)
          select p_store, v_log, v_id, v_team, q.id, q.kind, q.why, p_at from (${q}) q;`,
        )}
      end if;
      -- A rule sent the lead to a team: whoever was Next Up on the whole floor, outside it, was passed over by the rule.
      if p_rule is not null then
        ${either(
          'rulePass',
          (q) => `insert into passed_over (store_id, log_id, lead_id, team_id, user_id, kind, why, created_at)
          select p_store, v_log, v_id, v_team, q.id, 'rule', format(p_rule_why, v_team_name), p_at from (${q}) q;`,
        )}
      end if;
      update teams set pointer_pos = v_next.position where id = v_team;
      -- His other lines, as read before the lead was stored (nothing since has moved them): the whole floor's here.
      update rotation_state set last_assigned_to = v_next.id, last_assigned_at = p_at, updated_by = p_by_id, pointer_pos = coalesce(v_back_floor, pointer_pos)
        where id = p_store;
    end if;
    if v_back_floor is not null then
      update memberships set position = v_back_floor where store_id = p_store and user_id = v_next.id;
    end if;
    if cardinality(v_back_teams) > 0 then
      update team_members o set position = b.place from unnest(v_back_teams, v_back_places) as b(team, place)
        where o.team_id = b.team and o.user_id = v_next.id;
      update teams t set pointer_pos = b.place from unnest(v_back_teams, v_back_places) as b(team, place) where t.id = b.team;
    end if;
    v_pointer := v_next.position;
    v_to := v_next.email;
  end if;
  v_result := json_build_object(
    'leadId', v_id, 'customer', p_customer,
    'assignedTo', case when v_has_next then json_build_object('id', v_next.id, 'name', v_next.name) end,
    'pointerPos', v_pointer, 'duplicate', false);
  if p_action_id is not null then
    insert into rotation_actions (id, request, result, created_at) values (p_action_id, p_request, v_result::text, (extract(epoch from clock_timestamp()) * 1000)::bigint);
  end if;
  return json_build_object('assigned', v_result, 'to', v_to);
end
$fn$`;
  // The call: the assigns waiting for the store's lock, one after another in the order they came,
  // in one transaction (a batch, assignQueued); each answers for itself.
  const all = (one: string) => `(p_store bigint, p_items json) returns json language plpgsql
  set plan_cache_mode = force_generic_plan set jit = off set enable_seqscan = off set enable_bitmapscan = off as $fn$
declare
  i record;
  v_out json[] := '{}';
  v_one json;
  v_channel text;
  v_events text[];
  ${seen.map(([n, t]) => `v_seen_${n} ${t};`).join('\n  ')}
begin
  -- The same lock every change to the store's rotation takes (withRotationLock), then what it holds still,
  -- in a statement of its own: a call that waited for the lock reads what was committed meanwhile.
  perform 1 from rotation_state where id = p_store for update;
  select ${seen.map(([, , q]) => q).join(',\n         ')}
    into ${seen.map(([n]) => `v_seen_${n}`).join(', ')};
  -- An assign it hands back (stepwise) goes statement by statement before the ones after it: they wait for the next call.
  for i in select * from rows from (json_to_recordset(p_items) as (${COLUMNS.map(([n, t]) => `${n} ${t}`).join(', ')}))
           with ordinality as x(${COLUMNS.map(([n]) => n).join(', ')}, n) order by n loop
    v_one := ${one}(p_store, ${ARGS.map(([n]) => `i.${n}`).join(', ')}, ${seen.map(([n]) => `v_seen_${n}`).join(', ')});
    v_out := v_out || v_one;
    exit when v_one ->> 'error' = 'stepwise';
    -- A lead no one could take waits in Unassigned now: the assigns after it see it.
    if v_one -> 'assigned' is not null and v_one -> 'assigned' ->> 'assignedTo' is null then
      v_seen_waiting := ${anyWaiting};
    end if;
    -- A new lead: open screens hear of it when it commits, once for all of them.
    if v_one -> 'assigned' is not null and i.events is not null then
      v_channel := i.channel;
      v_events := i.events;
    end if;
  end loop;
  perform pg_notify(v_channel, e) from unnest(v_events) as e;
  return array_to_json(v_out);
end
$fn$`;
  const name = `bdc_assign_${crypto.createHash('sha256').update(body).update(all('')).digest('hex').slice(0, 16)}`;
  return { name: `${name}_all`, texts: [`create or replace function ${name}${body}`, `create or replace function ${name}_all${all(name)}`] };
}

/** The rules' text as the function compares it: its MD5, not the whole text in every assign of a batch. */
let last: { text: string; md5: string } | undefined;
function digest(text: string) {
  if (!last || last.text !== text) last = { text, md5: crypto.createHash('md5').update(text).digest('hex') };
  return last.md5;
}

const installed = new WeakMap<Db, Promise<string>>();

/**
 * The name of this app server's one-call assign, created in the database on first use if no
 * server has yet (under an advisory lock: two servers starting at once create it once).
 */
function assignFunctionName(h: StoreDb): Promise<string> {
  let name = installed.get(h.db);
  if (!name) {
    const { name: wanted, texts } = assignFunction(h.db);
    name = h.db
      .transaction()
      .execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext('bdc_assign'))`.execute(trx);
        const { rows } = await sql`select 1 from pg_proc where proname = ${wanted}`.execute(trx);
        if (!rows.length) for (const text of texts) await sql.raw(text).execute(trx);
        return wanted;
      })
      .catch((err: unknown) => {
        installed.delete(h.db);
        throw err;
      });
    installed.set(h.db, name);
  }
  return name;
}

/**
 * assignNext on PostgreSQL: the whole transaction (lock, the rules and waiting-leads checks,
 * action-id replay, pick in the routing rule's line, insert, log, passed over, pointers, back of
 * his other lines) is one call of the function above, so the state row is held for the
 * function's run rather than for several round trips. Plain leads only: a lead with a prospect id
 * or intake details takes the stepwise path, and so does an up the function hands back (weights
 * at play, or a line that must be renumbered to put him at its back): `stepwise` runs it in its
 * store's queue, before the assigns queued after it.
 */
export async function assignOnPostgres(
  h: StoreDb,
  l: NewLead,
  by: Actor,
  opts: {
    now: Date;
    keep?: boolean;
    actionId?: string;
    rules: Rules;
    rulesText?: string;
    waitingFirst?: boolean;
    announce?: Announcement | null;
    /** The routing rule's line (a team's id, or null: the whole floor's) and the rule's name. */
    routed?: { team: number | null; rule: string | null };
  },
  stepwise: () => Promise<Handed>,
): Promise<Handed | { askAgain: 'rules' | 'waiting' }> {
  const at = opts.now.getTime();
  const request = opts.actionId ? JSON.stringify({ assign: l }) : null;
  const followUp = followUpDue(opts.now, opts.rules.followUpHours).getTime();
  const accept = acceptDue(opts.now, opts.rules.responseWindowMinutes)?.getTime() ?? null;
  const rule = opts.routed?.rule ?? null;
  // The rule pass's words with the team's name left to the function (format's %s), which reads it under the lock.
  const ruleWhy = rule === null ? null : ruleSentText(rule.replaceAll('%', '%%'), '%s');
  const r = await assignQueued(
    h,
    await assignFunctionName(h),
    {
      ...customerFields(l),
      by_id: by.id,
      by_name: by.name,
      at,
      follow_up_due: followUp,
      keep: !!opts.keep,
      action_id: opts.actionId ?? null,
      request,
      accept_due: accept,
      hold_out: opts.rules.holdOut,
      rules: opts.rulesText === undefined ? null : digest(opts.rulesText),
      waiting_first: !!opts.waitingFirst,
      channel: opts.announce?.channel ?? null,
      events: opts.announce?.payloads ?? null,
      day_start: dayStart(opts.now, h.tz ?? 'UTC'),
      team: opts.routed?.team ?? null,
      rule,
      rule_why: ruleWhy,
      back: opts.rules.routing.backOfEveryLine,
    },
    stepwise,
  );
  if ('stepped' in r) return r.stepped;
  if ('error' in r) {
    if (r.error === 'rules_changed') return { askAgain: 'rules' };
    if (r.error === 'waiting') return { askAgain: 'waiting' };
    if (r.error === 'action_reused') throw new ApiError(422, 'This action id was already used for a different request.');
    throw new ApiError(409, 'No eligible associates right now.');
  }
  if ('replayed' in r) return { ...shape(r.result), replayed: true };
  const a: Handed = shape(r.assigned);
  if (a.assignedTo && r.to) a.mail = newLeadMail(a.leadId, l, { name: a.assignedTo.name, email: r.to }, followUp, accept);
  if (opts.announce && !a.duplicate) a.told = true;
  return a;
}
