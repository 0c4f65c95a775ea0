import { sql, type Selectable } from 'kysely';
import type { Db, DbHandle } from '../db';
import type { Lead } from '../../domain/contract/answers';
import type { LeadsTable } from '../db/schema';
import { LEADS_PAGE_SIZE } from '../../domain/leads';
import { UNASSIGNED } from '../rotation/service';
import { dayKey, startOfMonth, zonedStartOfDay } from '../../domain/time';

interface TradeIn {
  year: string;
  make: string;
  model: string;
  odometer: string;
}
const tradeIn = (json: string | null): TradeIn | null => {
  if (!json) return null;
  try {
    return JSON.parse(json) as TradeIn;
  } catch {
    return null;
  }
};

/** An unassigned lead has no salesman yet: assignedTo is null, and it cannot be overdue. */
export const toLead = (l: Selectable<LeadsTable>, now = Date.now()): Lead => ({
  id: Number(l.id),
  customer: l.customer,
  assignedTo: l.assigned_to || null,
  assignedToName: l.assigned_to_name,
  assignedByName: l.assigned_by_name,
  assignedAt: new Date(l.assigned_at).toISOString(),
  status: l.status,
  followUpDue: new Date(l.follow_up_due).toISOString(),
  overdue: !l.closed && !!l.assigned_to && l.follow_up_due < now,
  closed: !!l.closed,
  source: l.source,
  closedAt: l.closed_at ? new Date(l.closed_at).toISOString() : null,
  closedById: l.closed_by_id,
  closedByName: l.closed_by_name,
  phone: l.phone,
  email: l.email,
  vehicle: l.vehicle,
  vin: l.vin,
  comments: l.comments,
  tradeIn: tradeIn(l.trade_in),
  /** The sender gave no name: the customer is a placeholder for a salesman to fill in. */
  nameMissing: !!l.name_missing,
  /** It came in as an ADF document, which a manager may read (GET /api/leads/:id/document). */
  hasDocument: l.document_id !== null && l.document_id !== undefined,
});

export interface LeadQuery {
  q?: string;
  open?: boolean;
  assignedTo?: string;
  unassigned?: boolean;
  cursor?: string;
  limit?: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Newest first, searched and filtered in the database, a page at a time (keyset paging). */
export async function listLeads(h: DbHandle, query: LeadQuery) {
  const limit = query.limit ?? LEADS_PAGE_SIZE;
  let qb = h.db.selectFrom('leads').selectAll();
  if (query.open) qb = qb.where('closed', '=', 0);
  if (query.assignedTo) qb = qb.where('assigned_to', '=', query.assignedTo);
  if (query.unassigned) qb = qb.where('assigned_to', '=', UNASSIGNED);
  const q = query.q?.trim().toLowerCase();
  if (q) {
    // Both databases look for the text inside the customer or inside the assignee, case-insensitively.
    const like = `%${escapeLike(q)}%`;
    const inEither = (col: (c: string) => ReturnType<typeof sql>) =>
      sql<boolean>`(${col('customer')} like ${like} escape '\\' or ${col('assigned_to_name')} like ${like} escape '\\')`;
    if (h.dialect === 'postgres') {
      qb = qb.where(inEither((c) => sql`lower(${sql.ref(c)})`));
    } else if ([...q].length >= 3) {
      // The trigram table answers a phrase query by substring, case-insensitively.
      const phrase = `"${q.replace(/"/g, '""')}"`;
      qb = qb.where(sql<boolean>`leads.id in (select rowid from leads_fts where leads_fts match ${phrase})`);
    } else {
      // Fewer than three characters: no trigram to look up, so a scan. SQLite's LIKE folds
      // ASCII letters itself; any other letter needs fold() on every row, which costs more.
      qb = qb.where(/^[\x20-\x7e]*$/.test(q) ? inEither((c) => sql.ref(c)) : inEither((c) => sql`fold(${sql.ref(c)})`));
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
  const now = Date.now();
  return {
    leads: page.map((l) => toLead(l, now)),
    nextCursor: rows.length > limit && last ? `${last.assigned_at}.${last.id}` : null,
  };
}

export const findLead = (db: Db, id: number) => db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst();

/** Gives a lead its customer's name; the placeholder flag goes (the repeat rule still compares the name as sent). */
export const setCustomerName = (db: Db, id: number, customer: string) =>
  db.updateTable('leads').set({ customer, name_missing: 0 }).where('id', '=', id).execute();

/** Closes or reopens; a lead already so is left as it is (the first closer and time stay). True when it changed. */
export async function setClosed(db: Db, id: number, closed: boolean, by: { id: string; name: string }) {
  const now = Date.now();
  const r = await db
    .updateTable('leads')
    .set(
      closed
        ? { closed: 1, status: 'closed', closed_at: now, closed_by_id: by.id, closed_by_name: by.name }
        : {
            closed: 0,
            status: sql<'new' | 'handed'>`case when assigned_to = ${UNASSIGNED} then 'new' else 'handed' end`,
            closed_at: null,
            closed_by_id: null,
            closed_by_name: null,
          },
    )
    .where('id', '=', id)
    .where('closed', '=', closed ? 0 : 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Assigned Today and Total Month, counted from the real leads in the dealership's time zone. */
export async function myCounts(db: Db, userId: string, tz: string, now = new Date()) {
  const today = zonedStartOfDay(dayKey(now, tz), tz).getTime();
  const month = startOfMonth(now, tz).getTime();
  const row = await db
    .selectFrom('leads')
    .select([sql<number>`sum(case when assigned_at >= ${today} then 1 else 0 end)`.as('today'), sql<number>`count(*)`.as('month')])
    .where('assigned_to', '=', userId)
    .where('assigned_at', '>=', month)
    .where('assigned_at', '<=', now.getTime())
    .executeTakeFirst();
  return { assignedToday: Number(row?.today ?? 0), assignedMonth: Number(row?.month ?? 0) };
}
