import { sql, type Selectable } from 'kysely';
import { deliveryText } from '../../domain/notices';
import type { Db, StoreDb } from '../db';
import type { LeadsTable } from '../db/schema';
import { LEADS_PAGE_SIZE } from '../../domain/leads';
import { UNASSIGNED } from '../rotation/service';
import { dayKey, periodsBefore, startOfMonth, zonedStartOfDay } from '../../domain/time';
import type { Actor } from '../../domain/users';
import type { TimelineEntry } from '../../domain/contract/answers';
import { ApiError } from '../http/errors';
import { holderRefusal } from './policy';
import { logEvent } from './life';
import { foldedSql } from '../db/fold';
import { fold } from '../../domain/text';

export type LeadRow = Selectable<LeadsTable>;

export interface LeadQuery {
  q?: string;
  open?: boolean;
  assignedTo?: string;
  unassigned?: boolean;
  /** Only leads their salesman has not accepted yet, oldest first. */
  waiting?: boolean;
  cursor?: string;
  limit?: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Newest first, searched and filtered in the database, a page at a time (keyset paging). */
export async function listLeads(h: StoreDb, query: LeadQuery) {
  const limit = query.limit ?? LEADS_PAGE_SIZE;
  let qb = h.db.selectFrom('leads').selectAll().where('store_id', '=', h.store);
  if (query.open) qb = qb.where('closed', '=', 0);
  if (query.assignedTo) qb = qb.where('assigned_to', '=', query.assignedTo);
  if (query.unassigned) qb = qb.where('assigned_to', '=', UNASSIGNED);
  if (query.waiting) qb = qb.where('closed', '=', 0).where('offered_at', 'is not', null).where('accepted_at', 'is', null);
  const q = fold(query.q?.trim() ?? '');
  if (q) {
    // Both databases look for the text inside the customer or inside the assignee, without case or accents (domain/text.ts fold).
    const like = `%${escapeLike(q)}%`;
    const inEither = (col: (c: string) => ReturnType<typeof sql>) =>
      sql<boolean>`(${col('customer')} like ${like} escape '\\' or ${col('assigned_to_name')} like ${like} escape '\\')`;
    if (h.dialect === 'postgres') {
      qb = qb.where(inEither(foldedSql));
    } else if ([...q].length >= 3) {
      // The trigram table answers a phrase query by substring, without case or accents.
      const phrase = `"${q.replace(/"/g, '""')}"`;
      qb = qb.where(sql<boolean>`leads.id in (select rowid from leads_fts where leads_fts match ${phrase})`);
    } else {
      // Fewer than three characters: no trigram to look up, so a scan, reading each name as the search does.
      qb = qb.where(inEither((c) => sql`fold(${sql.ref(c)})`));
    }
  }
  if (query.cursor) {
    const [at, id] = query.cursor.split('.').map(Number);
    if (Number.isFinite(at) && Number.isFinite(id)) {
      qb = qb.where((eb) => eb.or([eb('assigned_at', '<', at), eb.and([eb('assigned_at', '=', at), eb('id', '<', id)])]));
    }
  }
  const rows = await qb
    .orderBy('assigned_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    leads: page,
    nextCursor: rows.length > limit && last ? `${last.assigned_at}.${last.id}` : null,
  };
}

/** A lead by id, whichever store's: for a route that already found it in its store. */
const leadById = (db: Db, id: number) => db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst();

/** A store's lead; one of another store is not found. */
export const findLead = (db: Db, store: number, id: number) =>
  db.selectFrom('leads').selectAll().where('id', '=', id).where('store_id', '=', store).executeTakeFirst();

/** Gives a lead its customer's name; the placeholder flag goes (the repeat rule still compares the name as sent). */
export const setCustomerName = (db: Db, id: number, customer: string) =>
  db.updateTable('leads').set({ customer, name_missing: 0 }).where('id', '=', id).execute();

/** Who may accept: a person (the system holds no leads). */
type Holder = Actor & { id: string };

/**
 * The holder accepts his lead, once: it stops waiting and is never handed on. The update is
 * conditional, so an accept and the sweep taking the lead back cannot both win.
 */
export async function acceptLead(db: Db, id: number, me: Holder, now = Date.now()) {
  await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('leads')
      .set({ accepted_at: now, accept_due: null })
      .where('id', '=', id)
      .where('assigned_to', '=', me.id)
      .where('closed', '=', 0)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) return logEvent(trx, id, 'accepted', me, now);
    const lead = await leadById(trx, id);
    throw holderRefusal(lead, me, 'accept it') ?? new ApiError(409, 'You already accepted this lead.');
  });
}

/** Everything that happened to a lead, oldest first: its assigns (from the rotation log) and its events. */
export async function leadTimeline(db: Db, id: number, tz: string): Promise<TimelineEntry[]> {
  const [assigns, events, notices] = await Promise.all([
    db.selectFrom('rotation_log').selectAll().where('lead_id', '=', id).where('type', 'in', ['assign', 'beback']).execute(),
    db.selectFrom('lead_events').selectAll().where('lead_id', '=', id).execute(),
    db
      .selectFrom('notices')
      .innerJoin('users', 'users.id', 'notices.user_id')
      .select(['notices.channel', 'notices.state', 'notices.error', 'notices.created_at', 'notices.sent_at', 'notices.delivered_at', 'users.name'])
      .where('notices.lead_id', '=', id)
      .execute(),
  ]);
  const entries: (TimelineEntry & { t: number; order: number })[] = [
    ...assigns.map((a) => ({
      type: 'assigned' as const,
      actorName: a.manager_name,
      targetName: a.target_name,
      channel: null,
      outcome: null,
      reason: null,
      appointmentAt: null,
      note: null,
      at: new Date(Number(a.created_at)).toISOString(),
      t: Number(a.created_at),
      // A hand-on and the assign it leads to share a moment: the hand-on reads first.
      order: 1,
    })),
    ...events.map((e) => ({
      type: e.type,
      actorName: e.actor_name,
      targetName: null,
      channel: e.channel,
      outcome: e.outcome,
      reason: e.reason,
      appointmentAt: e.appointment_at === null ? null : new Date(Number(e.appointment_at)).toISOString(),
      note: e.note,
      at: new Date(Number(e.created_at)).toISOString(),
      t: Number(e.created_at),
      order: e.type === 'handed_on' ? 0 : 2,
    })),
    ...notices.map((n) => {
      const t = Number(n.delivered_at ?? n.sent_at ?? n.created_at);
      return {
        type: 'notice' as const,
        actorName: 'Portal',
        targetName: n.name,
        channel: n.channel,
        outcome: n.state,
        reason: n.error,
        appointmentAt: null,
        note: deliveryText(
          { ...n, created_at: Number(n.created_at), sent_at: n.sent_at && Number(n.sent_at), delivered_at: n.delivered_at && Number(n.delivered_at) },
          tz,
        ),
        at: new Date(t).toISOString(),
        t,
        order: 3,
      };
    }),
  ];
  return entries.sort((a, b) => a.t - b.t || a.order - b.order).map(({ t: _t, order: _o, ...e }) => e);
}

/**
 * Assigned Today and Total Month, counted from the real leads in the dealership's time zone, and
 * the same periods before (the same weekday last week, last month so far) for comparison.
 */
export async function myCounts(db: Db, store: number, userId: string, tz: string, now = new Date()) {
  const today = zonedStartOfDay(dayKey(now, tz), tz).getTime();
  const month = startOfMonth(now, tz).getTime();
  const before = periodsBefore(now, tz);
  const within = (r: { from: number; to: number }) => sql<number>`sum(case when assigned_at >= ${r.from} and assigned_at <= ${r.to} then 1 else 0 end)`;
  const row = await db
    .selectFrom('leads')
    .select([
      within({ from: today, to: now.getTime() }).as('today'),
      within({ from: month, to: now.getTime() }).as('month'),
      within(before.lastWeekDay).as('last_week_day'),
      within(before.lastMonth).as('last_month'),
    ])
    .where('store_id', '=', store)
    .where('assigned_to', '=', userId)
    .where('assigned_at', '>=', Math.min(before.lastMonth.from, before.lastWeekDay.from))
    .where('assigned_at', '<=', now.getTime())
    .executeTakeFirst();
  return {
    assignedToday: Number(row?.today ?? 0),
    assignedMonth: Number(row?.month ?? 0),
    sameDayLastWeek: Number(row?.last_week_day ?? 0),
    lastMonthSoFar: Number(row?.last_month ?? 0),
  };
}
