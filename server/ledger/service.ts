import type { Db } from '../db';
import {
  figures,
  floorSpans,
  LEDGER_EVENTS,
  passWords,
  periodsOf,
  PERIODS,
  skipBehind,
  type DutyChange,
  type LedgerEvent,
  type LogRow,
  type Period,
  type PersonLedger,
  type SkipRow,
  type Span,
  type TeamLedger,
} from '../../domain/ledger';

const DAY_MS = 86_400_000;

/** The store's salesmen (not deleted): who a ledger is kept for. */
async function staffOf(db: Db, store: number) {
  return db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id', 'users.name', 'memberships.on_duty', 'memberships.created_at'])
    .where('memberships.store_id', '=', store)
    .where('users.role', '=', 'staff')
    .where('users.deleted_at', 'is', null)
    .orderBy('users.name')
    .execute();
}

/**
 * Everyone's spans on the floor this month, from the audit log's 'on duty' / 'off duty' entries
 * (a salesman or manager clocking him in or out, the floor's closing taking everyone off): the
 * state before the month is his last entry before it.
 */
async function spansOf(db: Db, staff: { id: string; on_duty: number; created_at: number }[], month: Span) {
  const ids = staff.map((s) => s.id);
  if (!ids.length) return new Map<string, Span[]>();
  const duty = ['on duty', 'off duty'];
  const [inMonth, before] = await Promise.all([
    db
      .selectFrom('audit_log')
      .select(['user_id', 'action', 'at'])
      .where('user_id', 'in', ids)
      .where('action', 'in', duty)
      .where('at', '>', month.from)
      .where('at', '<', month.to)
      .execute(),
    // His last change up to the month's start: how he stood when it began.
    db
      .selectFrom('audit_log as a')
      .select(['a.user_id', 'a.action', 'a.at'])
      .where('a.action', 'in', duty)
      .where('a.user_id', 'in', ids)
      .where('a.at', '=', (eb) =>
        eb
          .selectFrom('audit_log as b')
          .select((b) => b.fn.max('b.at').as('at'))
          .whereRef('b.user_id', '=', 'a.user_id')
          .where('b.action', 'in', duty)
          .where('b.at', '<=', month.from),
      )
      .execute(),
  ]);
  const changes = new Map<string, DutyChange[]>();
  for (const r of [...before, ...inMonth]) {
    const list = changes.get(r.user_id) ?? [];
    list.push({ at: Number(r.at), on: r.action === 'on duty' });
    changes.set(r.user_id, list);
  }
  return new Map(staff.map((s) => [s.id, floorSpans(changes.get(s.id) ?? [], !!s.on_duty, month, Number(s.created_at))]));
}

async function logOf(db: Db, store: number, month: Span): Promise<LogRow[]> {
  const rows = await db
    .selectFrom('rotation_log')
    .select(['type', 'created_at', 'target_id', 'reason', 'no_customer_at'])
    .where('store_id', '=', store)
    .where('type', 'in', ['assign', 'beback', 'skip'])
    .where('created_at', '>=', month.from)
    .where('created_at', '<', month.to)
    .execute();
  return rows.map((r) => ({ type: r.type, at: Number(r.created_at), targetId: r.target_id, reason: r.reason, noCustomer: r.no_customer_at !== null }));
}

async function passesOf(db: Db, store: number, month: Span, id?: string) {
  let q = db
    .selectFrom('passed_over')
    .leftJoin('rotation_log', 'rotation_log.id', 'passed_over.log_id')
    .select(['passed_over.user_id', 'passed_over.kind', 'passed_over.why', 'passed_over.created_at', 'rotation_log.target_name'])
    .where('passed_over.store_id', '=', store)
    .where('passed_over.created_at', '>=', month.from)
    .where('passed_over.created_at', '<', month.to);
  if (id) q = q.where('passed_over.user_id', '=', id);
  return (await q.orderBy('passed_over.created_at', 'desc').orderBy('passed_over.id', 'desc').execute()).map((p) => ({
    ...p,
    at: Number(p.created_at),
  }));
}

function periodFigures(id: string, log: LogRow[], passesAt: number[], spans: Map<string, Span[]>, now: Date, tz: string) {
  const periods = periodsOf(now, tz);
  return Object.fromEntries(PERIODS.map((p) => [p, figures(id, log, passesAt, spans, periods[p])])) as Record<Period, ReturnType<typeof figures>>;
}

/** The whole team's ledger side by side (a manager's). */
export async function teamLedger(db: Db, store: number, tz: string, now = new Date()): Promise<TeamLedger> {
  const month = periodsOf(now, tz).month;
  const staff = await staffOf(db, store);
  const [spans, log, passes] = await Promise.all([spansOf(db, staff, month), logOf(db, store, month), passesOf(db, store, month)]);
  return {
    people: staff.map((s) => ({
      id: s.id,
      name: s.name,
      periods: periodFigures(
        s.id,
        log,
        passes.filter((p) => p.user_id === s.id).map((p) => p.at),
        spans,
        now,
        tz,
      ),
    })),
  };
}

/** One salesman's ledger: his figures and this month's passes and skips, each with its reason and by whom. Null: not a salesman of the store. */
export async function personLedger(db: Db, store: number, id: string, tz: string, now = new Date()): Promise<PersonLedger | null> {
  const month = periodsOf(now, tz).month;
  const staff = await staffOf(db, store);
  const me = staff.find((s) => s.id === id);
  if (!me) return null;
  const [spans, log, passes, skipRows] = await Promise.all([
    spansOf(db, staff, month),
    logOf(db, store, month),
    passesOf(db, store, month, id),
    // A snooze may come from a skip just before the month began (the floor's closing ends every snooze).
    db
      .selectFrom('rotation_log')
      .select(['created_at', 'reason', 'manager_name'])
      .where('store_id', '=', store)
      .where('type', '=', 'skip')
      .where('target_id', '=', id)
      .where('created_at', '>=', month.from - DAY_MS)
      .where('created_at', '<', month.to)
      .execute(),
  ]);
  const skips: SkipRow[] = skipRows.map((s) => ({ at: Number(s.created_at), reason: s.reason, by: s.manager_name }));
  const events: (LedgerEvent & { ms: number })[] = [
    ...passes.map((p) => ({
      ms: p.at,
      at: new Date(p.at).toISOString(),
      kind: 'pass' as const,
      text: passWords(p.kind, p.why, p.kind === 'snooze' ? skipBehind(skips, p.at) : null),
      by: p.target_name ? `Up went to ${p.target_name}` : 'Up went to someone else',
    })),
    ...skips
      .filter((s) => s.at >= month.from)
      .map((s) => ({ ms: s.at, at: new Date(s.at).toISOString(), kind: 'skip' as const, text: s.reason || 'No reason given', by: `Skipped by ${s.by}` })),
  ];
  events.sort((a, b) => b.ms - a.ms);
  return {
    id,
    name: me.name,
    periods: periodFigures(
      id,
      log,
      passes.map((p) => p.at),
      spans,
      now,
      tz,
    ),
    events: events.slice(0, LEDGER_EVENTS).map(({ ms: _, ...e }) => e),
  };
}
