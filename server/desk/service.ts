import type { Selectable } from 'kysely';
import type { Db, StoreDb } from '../db';
import type { StoreCtx } from '../context';
import type { LeadsTable } from '../db/schema';
import { storeManagers, type UserRow } from '../users/repo';
import { ApiError, badRequest, forbidden, notFound } from '../http/errors';
import { handOut } from '../rotation/handout';
import { UNASSIGNED } from '../rotation/queries';
import { addDays } from '../../domain/hours';
import { dayKey, zonedStartOfDay } from '../../domain/time';
import { stageOfLead } from '../leads/policy';
import { WALK_IN, type DeskLog, type DeskPatch, type DeskRow, type DeskUp } from '../../domain/desk';

type Me = Pick<UserRow, 'id' | 'name' | 'role'>;
type Lead = Selectable<LeadsTable>;

const iso = (t: number | string) => new Date(Number(t)).toISOString();

/** An up as the desk log shows it to `me`. */
function present(l: Lead, me: Me): DeskRow {
  const held = l.assigned_to !== UNASSIGNED;
  return {
    id: Number(l.id),
    customer: l.customer,
    timeIn: iso(l.assigned_at),
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

const walkIn = (db: Db, h: StoreDb, id: number) =>
  db.selectFrom('leads').selectAll().where('id', '=', id).where('store_id', '=', h.store).where('source', '=', WALK_IN);

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
  const row = await walkIn(h.db, h, made.leadId).executeTakeFirst();
  if (!row) throw notFound('Up not found');
  return present(row, me);
}

/** Every walk-in up of a day on the store's clock (today when not named), as they came in. */
export async function deskLog(ctx: StoreCtx, me: Me, day?: string): Promise<DeskLog> {
  const tz = ctx.config.APP_TIMEZONE;
  const today = dayKey(new Date(), tz);
  const shown = day ?? today;
  const from = zonedStartOfDay(shown, tz).getTime();
  const to = zonedStartOfDay(addDays(shown, 1), tz).getTime();
  const { db, store } = ctx.dbh;
  const [ups, managers] = await Promise.all([
    db
      .selectFrom('leads')
      .selectAll()
      .where('store_id', '=', store)
      .where('source', '=', WALK_IN)
      .where('assigned_at', '>=', from)
      .where('assigned_at', '<', to)
      .orderBy('assigned_at')
      .orderBy('id')
      .execute(),
    storeManagers(db, store).orderBy('name').orderBy('id').execute(),
  ]);
  return { day: shown, today, ups: ups.map((l) => present(l, me)), managers: managers.map(({ id, name }) => ({ id, name })) };
}

/**
 * The desk writes on an up: a worksheet, the manager it was turned over to (one of this store's),
 * that the customer left (once). Its holder or a manager may; one transaction with the lead's row
 * locked, so two desks never half-write it.
 */
export async function changeUp(ctx: StoreCtx, me: Me, id: number, p: DeskPatch, now = new Date()): Promise<DeskRow> {
  const h = ctx.dbh;
  const row = await h.db.transaction().execute(async (trx) => {
    const lead = await walkIn(trx, h, id)
      .$if(h.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!lead) throw notFound('Up not found');
    if (me.role !== 'manager' && lead.assigned_to !== me.id) throw forbidden('You can only change your own ups.');
    const set: Partial<Record<'worksheet', number> & Record<'to_manager_id' | 'to_manager_name', string | null> & Record<'time_out', number>> = {};
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
    }
    await trx.updateTable('leads').set(set).where('id', '=', lead.id).execute();
    return { ...lead, ...set };
  });
  ctx.bus.publish({ topic: 'leads' });
  return present(row, me);
}
