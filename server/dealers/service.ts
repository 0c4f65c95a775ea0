import { withGroupLock, withRotationLock, atStore, type Db } from '../db';
import { inStore, type Ctx } from '../context';
import { notFound } from '../http/errors';
import { GROUP_ONLY } from '../events/bus';
import { allStores } from '../stores/service';
import { insertLead, type Assigned, type NewLead } from '../rotation/assign';
import { UNASSIGNED } from '../rotation/queries';
import { handOutWaitingLeads } from '../rotation/handout';
import { loadRules } from '../rules/service';
import { dealerKey, dealerLabel, storeOfDealer } from '../../domain/dealers';
import { followUpDue } from '../../domain/leads';
import { DEFAULT_RULES } from '../../domain/rules';
import type { Actor } from '../../domain/users';
import type { Store } from '../../domain/stores';

/** The group's dealer mappings: a dealer's folded name or id → the store its leads go to. */
export async function dealerMap(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('dealer_stores').select(['dealer_key', 'store_id']).execute();
  return new Map(rows.map((r) => [r.dealer_key, Number(r.store_id)]));
}

/** The store a group key's lead goes to by its dealer; null: it waits for a group manager. */
export const storeFor = (mapped: Map<string, number>, l: NewLead) => (l.dealer ? storeOfDealer(mapped, l.dealer) : null);

/**
 * Leads of a group key whose dealer no mapping claims: each waits, in no store, for a group
 * manager (or a mapping) to give it one. A repeat of a lead already in is answered as one.
 */
export async function park(ctx: Ctx, leads: NewLead[], by: Actor, now = new Date()): Promise<Assigned[]> {
  const parked = await withGroupLock(ctx.dbh, async (trx) => {
    const out: Assigned[] = [];
    for (const l of leads) {
      const seen = await l.findRepeat?.(trx);
      if (seen) {
        const to = seen.assigned_to === UNASSIGNED ? null : { id: seen.assigned_to, name: seen.assigned_to_name };
        out.push({ leadId: Number(seen.id), customer: seen.customer, assignedTo: to, pointerPos: 0, duplicate: true });
        continue;
      }
      const { id } = await insertLead(trx, ctx.dbh.dialect, null, l, null, by, now, DEFAULT_RULES);
      out.push({ leadId: id, customer: l.customer, assignedTo: null, pointerPos: 0, duplicate: false });
    }
    return out;
  });
  if (parked.some((p) => !p.duplicate)) ctx.bus.publish({ topic: 'leads', storeId: GROUP_ONLY });
  return parked;
}

export async function listMappings(db: Db) {
  const [rows, stores] = await Promise.all([
    db.selectFrom('dealer_stores').select(['id', 'dealer', 'store_id']).orderBy('dealer_key').execute(),
    allStores(db),
  ]);
  const byId = new Map(stores.map((s) => [s.id, s]));
  return rows.flatMap((r) => {
    const store = byId.get(Number(r.store_id));
    return store ? [{ id: Number(r.id), dealer: r.dealer, store: { code: store.code, name: store.name } }] : [];
  });
}

/** The leads waiting for a store, oldest first, each with the dealer it named. */
export async function waitingForStore(db: Db) {
  const rows = await db
    .selectFrom('leads')
    .select(['id', 'customer', 'vehicle', 'source', 'dealer', 'dealer_ref', 'assigned_at'])
    .where('store_id', 'is', null)
    .where('closed', '=', 0)
    .orderBy('assigned_at')
    .orderBy('id')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    customer: r.customer,
    vehicle: r.vehicle ?? '',
    source: r.source,
    dealer: dealerLabel({ name: r.dealer ?? '', id: r.dealer_ref ?? '' }),
    mapAs: r.dealer_ref || r.dealer || '',
    receivedAt: new Date(Number(r.assigned_at)).toISOString(),
  }));
}

/**
 * Gives leads that wait for a store to one: each keeps the time it came in (so it waits in its
 * turn there) and gets that store's follow-up clock; then the store hands out what waits.
 * Returns how many moved; a lead another request moved first is not counted.
 */
async function moveTo(ctx: Ctx, store: Store, ids: number[], now = new Date()) {
  if (!ids.length) return 0;
  const rules = await loadRules(ctx.dbh.db, store.id);
  const moved = await withRotationLock(atStore(ctx.dbh, store.id), async (trx) =>
    Number(
      (
        await trx
          .updateTable('leads')
          .set({ store_id: store.id, follow_up_due: followUpDue(now, rules.followUpHours).getTime() })
          .where('id', 'in', ids)
          .where('store_id', 'is', null)
          .executeTakeFirst()
      ).numUpdatedRows,
    ),
  );
  if (moved) {
    const here = inStore(ctx, store);
    await handOutWaitingLeads(here, now, rules);
    here.bus.publish({ topic: 'leads' });
  }
  return moved;
}

/** One waiting lead to a store a group manager chose. */
export async function sendToStore(ctx: Ctx, leadId: number, store: Store) {
  const moved = await moveTo(ctx, store, [leadId]);
  if (!moved) throw notFound('This lead is not waiting for a store any more: someone gave it one already.');
}

/**
 * Maps a dealer (a name or id as senders write it) to a store, or moves its mapping to another;
 * the leads already waiting under that dealer go there at once.
 */
export async function mapDealer(ctx: Ctx, dealer: string, store: Store, by: string) {
  const { db } = ctx.dbh;
  const key = dealerKey(dealer);
  await db
    .insertInto('dealer_stores')
    .values({ dealer_key: key, dealer, store_id: store.id, created_by: by, created_at: Date.now() })
    .onConflict((oc) => oc.column('dealer_key').doUpdateSet({ dealer, store_id: store.id, created_by: by, created_at: Date.now() }))
    .execute();
  const waiting = await db.selectFrom('leads').select(['id', 'dealer', 'dealer_ref']).where('store_id', 'is', null).where('closed', '=', 0).execute();
  const mine = new Map([[key, store.id]]);
  const ids = waiting.filter((l) => storeOfDealer(mine, { name: l.dealer ?? '', id: l.dealer_ref ?? '' }) !== null).map((l) => Number(l.id));
  return { moved: await moveTo(ctx, store, ids) };
}

export async function unmapDealer(db: Db, id: number) {
  const r = await db.deleteFrom('dealer_stores').where('id', '=', id).executeTakeFirst();
  if (!Number(r.numDeletedRows)) throw notFound('Dealer mapping not found');
}
