import { sql } from 'kysely';
import type { Db, StoreDb } from '../db';
import { ApiError, notFound } from '../http/errors';
import { once } from '../rotation/replay';
import { UNASSIGNED } from '../rotation/queries';
import { saleColumns, type SaleInput } from '../sales/service';
import { planFor } from '../sales/payplans';
import { markShownRefusal, move, type KeptStage } from '../../domain/stages';
import type { ContactChannel } from '../../domain/speed';
import type { Rules } from '../../domain/rules';
import type { Actor } from '../../domain/users';
import type { UserRow } from '../users/repo';
import { checkMove, stageOfLead } from './policy';

/** What a move carries: a contact's channel, outcome, note and next follow-up; an appointment's time; why a lead was lost; the sale that sold it. */
export type Detail =
  | { move: 'contact'; channel: ContactChannel; outcome?: string; note?: string; nextFollowUp?: Date }
  | { move: 'appoint'; at: Date }
  | { move: 'show' | 'noShow' | 'reopen' }
  | { move: 'lose'; reason: string; note?: string }
  | { move: 'sell'; sale: SaleInput; actionId: string };

const HOUR = 3_600_000;

/** The lead, locked for this transaction on PostgreSQL (SQLite runs one writer at a time). */
const lockLead = (trx: Db, h: StoreDb, id: number) =>
  trx
    .selectFrom('leads')
    .selectAll()
    .where('id', '=', id)
    .where('store_id', '=', h.store)
    .$if(h.dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();

/** A step on the lead's timeline: who, when, and what it carried. */
export const logEvent = (
  trx: Db,
  leadId: number,
  type: 'accepted' | 'contacted' | 'appointment_set' | 'shown' | 'no_show' | 'sold' | 'lost' | 'reopened',
  by: Actor,
  at: number,
  e: Partial<Record<'channel' | 'outcome' | 'note' | 'reason', string | null>> & { appointmentAt?: number } = {},
) =>
  trx
    .insertInto('lead_events')
    .values({
      lead_id: leadId,
      type,
      actor_id: by.id,
      actor_name: by.name,
      channel: e.channel ?? null,
      outcome: e.outcome ?? null,
      reason: e.reason ?? null,
      note: e.note?.trim() || null,
      appointment_at: e.appointmentAt ?? null,
      created_at: at,
    })
    .execute();

const EVENT = { contact: 'contacted', appoint: 'appointment_set', show: 'shown', noShow: 'no_show', sell: 'sold', lose: 'lost', reopen: 'reopened' } as const;

/**
 * One step of a lead's life (domain/stages.ts), in one transaction with the lead locked: the
 * policy says who may, the state machine where it goes, and the timeline gets who and when. A
 * holder's move on a lead he had not accepted accepts it. Sold stores the sale with its lead, once
 * per action id (a double-click gets the first answer). Answers the sale's id for Sold.
 */
export async function live(h: StoreDb, id: number, me: UserRow, d: Detail, rules: Rules, now = new Date()): Promise<{ saleId: number | null }> {
  const at = now.getTime();
  const by: Actor = { id: me.id, name: me.name };
  return h.db.transaction().execute(async (trx) => {
    const lead = await lockLead(trx, h, id);
    if (!lead) throw notFound('Lead not found');
    const run = async () => {
      checkMove(me, lead, d.move);
      const from = stageOfLead(lead);
      const r = move(from, d.move);
      if ('refused' in r) throw new ApiError(409, r.refused);
      const early = d.move === 'show' || d.move === 'noShow' ? markShownRefusal(lead.appointment_at, now, h.tz ?? 'UTC') : null;
      if (early) throw new ApiError(409, early);
      const to = r.to as KeptStage;
      const accepting = lead.accepted_at === null && lead.assigned_to === me.id && d.move !== 'lose';
      if (accepting) await logEvent(trx, id, 'accepted', by, at);
      const closing = to === 'sold' || to === 'lost';
      const nextFollowUp = at + rules.nextFollowUpHours * HOUR;
      await trx
        .updateTable('leads')
        .set({
          stage: to,
          ...(accepting ? { accepted_at: at } : {}),
          ...(closing ? { closed: 1, status: 'closed', closed_at: at, closed_by_id: me.id, closed_by_name: me.name, accept_due: null } : {}),
          ...(d.move === 'reopen'
            ? {
                closed: 0,
                status: lead.assigned_to === UNASSIGNED ? 'new' : 'handed',
                closed_at: null,
                closed_by_id: null,
                closed_by_name: null,
                lost_reason: null,
                follow_up_due: nextFollowUp,
              }
            : {}),
          ...(d.move === 'contact'
            ? { first_contact_at: sql<number>`coalesce(first_contact_at, ${at})`, follow_up_due: d.nextFollowUp?.getTime() ?? nextFollowUp, accept_due: null }
            : {}),
          ...(d.move === 'appoint'
            ? {
                appointment_at: d.at.getTime(),
                appointment_set_at: sql<number>`coalesce(appointment_set_at, ${at})`,
                appointment_reminded_at: null,
                follow_up_due: d.at.getTime(),
                accept_due: null,
              }
            : {}),
          ...(d.move === 'show' ? { follow_up_due: nextFollowUp, shown_at: sql<number>`coalesce(shown_at, ${at})` } : {}),
          ...(d.move === 'noShow' ? { appointment_at: null, follow_up_due: nextFollowUp } : {}),
          ...(d.move === 'lose' ? { lost_reason: d.reason } : {}),
        })
        .where('id', '=', id)
        .execute();
      let saleId: number | null = null;
      if (d.move === 'sell') {
        const sale = await trx
          .insertInto('sales')
          .values({
            ...saleColumns(d.sale, await planFor(trx, h.store, d.sale.date)),
            store_id: h.store,
            user_id: me.id,
            rep_name: me.name,
            created_at: at,
            created_by: me.id,
            lead_id: id,
            customer: lead.customer,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        saleId = Number(sale.id);
      }
      await logEvent(trx, id, EVENT[d.move], by, at, {
        ...(d.move === 'contact' ? { channel: d.channel, outcome: d.outcome ?? null, note: d.note } : {}),
        ...(d.move === 'lose' ? { reason: d.reason, note: d.note } : {}),
        ...(d.move === 'appoint' ? { appointmentAt: d.at.getTime() } : {}),
      });
      return { saleId };
    };
    return d.move === 'sell' ? once(trx, d.actionId, { sell: id, sale: d.sale }, run) : run();
  });
}
