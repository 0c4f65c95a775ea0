import type { Selectable, Updateable } from 'kysely';
import { withRotationLock, type Db, type StoreDb } from '../db';
import type { StoreCtx } from '../context';
import type { LeadsTable } from '../db/schema';
import { storeManagers, type UserRow } from '../users/repo';
import { ApiError, badRequest, forbidden, notFound, parse } from '../http/errors';
import { handOut } from '../rotation/handout';
import { UNASSIGNED } from '../rotation/queries';
import { addDays } from '../../domain/hours';
import { dayKey, zonedStartOfDay } from '../../domain/time';
import { reportDaySchemaOn } from '../../domain/schemas';
import { stageOfLead } from '../leads/policy';
import { WALK_IN, type DeskLog, type DeskPatch, type DeskRow, type DeskUp } from '../../domain/desk';

type Me = Pick<UserRow, 'id' | 'name' | 'role'>;
type Lead = Selectable<LeadsTable>;
/** A walk-in's lead and his time in (epoch milliseconds; PostgreSQL answers a bigint as text). */
type Up = Lead & { time_in: number | string };

const iso = (t: number | string) => new Date(Number(t)).toISOString();

/** An up as the desk log shows it to `me`. */
function present(l: Up, me: Me): DeskRow {
  const held = l.assigned_to !== UNASSIGNED;
  return {
    id: Number(l.id),
    customer: l.customer,
    timeIn: iso(l.time_in),
    salesman: held ? { id: l.assigned_to, name: l.assigned_to_name } : null,
    beBack: !!Number(l.be_back),
    vehicle: l.vehicle,
    tradeIn: !!Number(l.trade_in_flag),
    worksheet: !!Number(l.worksheet),
    toManager: l.to_manager_id ? { id: l.to_manager_id, name: l.to_manager_name ?? '' } : null,
    timeOut: l.time_out === null ? null : iso(l.time_out),
    stage: stageOfLead(l),
    mine: me.role === 'manager' || (held && l.assigned_to === me.id),
  };
}

/** The rotation log's lines that hand a lead to someone: an assign (Next Up, a hand-on, a manager's hand-out, a claim) or a be-back. */
const HAND_OUTS = ['assign', 'beback'] as const;

/**
 * A store's walk-ins with their time in (domain/desk.ts): his first hand-out in the rotation log,
 * which no hand-on or later hand-out moves (they rewrite the lead's assigned_at, when his present
 * salesman got him); an up with no hand-out logged (straight up for grabs) came in at its
 * assigned_at. One of them, or those that may have come in between `since` and `until`: every
 * hand-out of a lead is at or before its assigned_at, so one last handed out before `since` came in
 * before it; and a first hand-out before `until` is among the lines before it (one with none came
 * in after, or went straight up for grabs then). Each lead's lines are found by the lead (index
 * rotation_log_lead), never by a walk through the store's log.
 */
function walkIns(db: Db, store: number, which: { id: number } | { since: number; until: number }) {
  const until = 'until' in which ? which.until : null;
  const ups = db
    .selectFrom('leads')
    .where('leads.store_id', '=', store)
    .where('leads.source', '=', WALK_IN)
    .$if('id' in which, (q) => q.where('leads.id', '=', 'id' in which ? which.id : 0))
    .$if('since' in which, (q) => q.where('leads.assigned_at', '>=', 'since' in which ? which.since : 0))
    .selectAll('leads')
    .select((eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom('rotation_log as r')
            .select((e) => e.fn.min<number>('r.created_at').as('first_at'))
            .whereRef('r.lead_id', '=', 'leads.id')
            .where('r.type', 'in', HAND_OUTS)
            .$if(until !== null, (q) => q.where('r.created_at', '<', until ?? 0)),
          'leads.assigned_at',
        )
        .as('time_in'),
    );
  return db.selectFrom(ups.as('up')).selectAll('up');
}

const walkIn = (db: Db, h: StoreDb, id: number) =>
  db.selectFrom('leads').selectAll().where('id', '=', id).where('store_id', '=', h.store).where('source', '=', WALK_IN);

/** One up as the desk shows it, with his time in. */
async function oneUp(h: StoreDb, id: number, me: Me): Promise<DeskRow> {
  const row = await walkIns(h.db, h.store, { id }).executeTakeFirst();
  if (!row) throw notFound('Up not found');
  return present(row, me);
}

/**
 * A manager logs a walk-in up: it goes out through the rotation exactly as his Assign does
 * (Next Up, or a be-back to the salesman asked for), as a lead of source 'Walk-in'; then the
 * desk's own facts are written on it. A repeated action id answers the same up.
 */
export async function logUp(ctx: StoreCtx, me: Me, up: DeskUp): Promise<DeskRow> {
  const [made] = await handOut(
    ctx,
    [{ customer: up.customer, vehicle: up.vehicle || null, source: WALK_IN }],
    { id: me.id, name: me.name },
    {
      actionId: up.actionId,
      askedFor: up.askedFor,
    },
  );
  const h = ctx.dbh;
  await h.db
    .updateTable('leads')
    .set({ trade_in_flag: up.tradeIn ? 1 : 0 })
    .where('id', '=', made.leadId)
    .where('store_id', '=', h.store)
    .execute();
  ctx.bus.publish({ topic: 'leads' });
  return oneUp(h, made.leadId, me);
}

/**
 * Every walk-in up of a day on the store's clock (today when not named, never a day after it), as
 * they came in: by time in, which stays the first hand-out's whatever befell the lead after.
 */
export async function deskLog(ctx: StoreCtx, me: Me, day?: string): Promise<DeskLog> {
  const tz = ctx.config.APP_TIMEZONE;
  const today = dayKey(new Date(), tz);
  const shown = parse(reportDaySchemaOn(today), { day: day ?? today }).day;
  const since = zonedStartOfDay(shown, tz).getTime();
  const until = zonedStartOfDay(addDays(shown, 1), tz).getTime();
  const { db, store } = ctx.dbh;
  const [ups, managers] = await Promise.all([
    walkIns(db, store, { since, until }).where('up.time_in', '>=', since).where('up.time_in', '<', until).orderBy('up.time_in').orderBy('up.id').execute(),
    storeManagers(db, store).orderBy('name').orderBy('id').execute(),
  ]);
  return { day: shown, today, ups: ups.map((l) => present(l, me)), managers: managers.map(({ id, name }) => ({ id, name })) };
}

/**
 * The desk writes on an up: a worksheet, the manager it was turned over to (one of this store's),
 * that the customer left (once). Its holder or a manager may; in the rotation transaction, with
 * the lead's row locked, so two desks never half-write it and the sweep sees an Out whole. Out ends
 * the Accept window, as an Accept or a contact does: the up stays with his salesman, accepted or
 * not, and the rotation hands a customer who left to no one (domain/rotation.ts LEFT).
 */
export async function changeUp(ctx: StoreCtx, me: Me, id: number, p: DeskPatch, now = new Date()): Promise<DeskRow> {
  const h = ctx.dbh;
  await withRotationLock(h, async (trx) => {
    const lead = await walkIn(trx, h, id)
      .$if(h.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!lead) throw notFound('Up not found');
    if (me.role !== 'manager' && lead.assigned_to !== me.id) throw forbidden('You can only change your own ups.');
    const set: Updateable<LeadsTable> = {};
    if (p.worksheet !== undefined) set.worksheet = p.worksheet ? 1 : 0;
    if (p.toManager === null) Object.assign(set, { to_manager_id: null, to_manager_name: null });
    else if (p.toManager !== undefined) {
      const manager = await storeManagers(trx, h.store).where('id', '=', p.toManager).executeTakeFirst();
      if (!manager) throw badRequest('Turn the customer over to a manager of this store.', 'toManager');
      Object.assign(set, { to_manager_id: manager.id, to_manager_name: manager.name });
    }
    if (p.out) {
      if (lead.time_out !== null) throw new ApiError(409, 'This customer is already out.');
      set.time_out = now.getTime();
      set.accept_due = null;
    }
    await trx.updateTable('leads').set(set).where('id', '=', lead.id).execute();
  });
  ctx.bus.publish({ topic: 'leads' });
  // An Out takes the up off the rotation's list of leads waiting for an Accept.
  if (p.out) ctx.bus.publish({ topic: 'rotation' });
  return oneUp(h, id, me);
}
