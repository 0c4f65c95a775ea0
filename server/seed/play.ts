import type { Insertable } from 'kysely';
import type { LeadEventsTable, LeadsTable, SalesTable } from '../db/schema';
import { checkMove } from '../leads/policy';
import { saleColumns } from '../sales/service';
import { DEFAULT_PAY_PLAN } from '../../domain/payplan';
import { move, stageOf, type ContactOutcome, type KeptStage } from '../../domain/stages';
import type { ContactChannel } from '../../domain/speed';
import { HOUR } from './clock';

/** Someone who acts on a lead: its salesman or a manager. */
export interface Who {
  id: string;
  name: string;
  role: 'staff' | 'manager';
}

/** What the sale of a lead carries besides its customer, date and salesman (they come from the lead and the moment). */
export interface SaleFacts {
  vehicleType: 'new' | 'used';
  frontGrossCents: number;
  split: 'full' | 'half';
}

/** One step of a lead's life as the portal takes it: an Accept, or a move of domain/stages.ts with what it carries (server/leads/life.ts Detail). */
export type Step = { at: number; by: Who } & (
  | { move: 'accept' }
  | { move: 'contact'; channel: ContactChannel; outcome: ContactOutcome | null; note?: string; nextFollowUp?: number }
  | { move: 'appoint'; when: number }
  | { move: 'show' | 'noShow' }
  | { move: 'sell'; sale: SaleFacts }
  | { move: 'lose'; reason: string; note?: string }
);

/** A lead's row as it is handed out (server/rotation/assign.ts insertLead), before any step. */
export type LeadRow = Insertable<LeadsTable> & {
  assigned_to: string;
  assigned_at: number;
  accepted_at: number | null;
  accept_due: number | null;
  first_contact_at: number | null;
  stage: KeptStage | null;
  appointment_at: number | null;
  appointment_reminded_at: number | null;
  appointment_set_at: number | null;
  shown_at: number | null;
  follow_up_due: number;
};
export type EventRow = Omit<Insertable<LeadEventsTable>, 'lead_id'>;
export type SaleRow = Omit<Insertable<SalesTable>, 'lead_id'>;

/** The reminder goes an hour before an appointment (server/leads/notify.ts). */
const REMIND_BEFORE = HOUR;

/**
 * Plays a lead's steps on its row as the portal writes them (server/leads/service.ts acceptLead,
 * server/leads/life.ts live): the same columns set, the same timeline rows, the sale of Sold with
 * its customer and salesman, each move checked by the portal's own policy and state machine.
 * `dayOf`: a sale's date, the day of the move on the store's clock. Changes `lead` in place.
 */
export function play(lead: LeadRow, steps: Step[], nextFollowUpHours: number, dayOf: (t: number) => string, now: number) {
  const events: EventRow[] = [];
  let sale: SaleRow | null = null;
  const event = (type: EventRow['type'], s: Step, e: Partial<Pick<EventRow, 'channel' | 'outcome' | 'reason' | 'note' | 'appointment_at'>> = {}) =>
    events.push({
      type,
      actor_id: s.by.id,
      actor_name: s.by.name,
      channel: e.channel ?? null,
      outcome: e.outcome ?? null,
      reason: e.reason ?? null,
      note: e.note?.trim() || null,
      appointment_at: e.appointment_at ?? null,
      created_at: s.at,
    });
  // The sweep's reminder, an hour before an appointment still set (at once when it was set closer than that).
  let appointed = 0;
  const remindBy = (t: number) => {
    if (lead.stage !== 'appointment' || lead.appointment_at === null || lead.appointment_reminded_at !== null) return;
    const due = Math.max(lead.appointment_at - REMIND_BEFORE, appointed);
    if (due <= t && lead.appointment_at > due) lead.appointment_reminded_at = due;
  };
  let last = lead.assigned_at;
  for (const s of steps) {
    if (s.at < last) throw new Error(`The demo's steps of ${lead.customer} go back in time.`);
    last = s.at;
    remindBy(s.at);
    if (s.move === 'accept') {
      if (lead.accepted_at !== null || lead.closed) throw new Error(`The demo accepts ${lead.customer} twice.`);
      lead.accepted_at = s.at;
      lead.accept_due = null;
      event('accepted', s);
      continue;
    }
    checkMove(s.by, { assigned_to: lead.assigned_to, closed_by_id: lead.closed_by_id ?? null }, s.move);
    // The lead's facts as the portal reads them (closed too: a lead closed with no stage reads apart).
    const facts = { stage: lead.stage, assignedTo: lead.assigned_to, accepted: lead.accepted_at !== null, closed: !!lead.closed };
    const r = move(stageOf(facts), s.move);
    if ('refused' in r) throw new Error(`The demo's ${s.move} of ${lead.customer}: ${r.refused}`);
    // Shown and No-show from the appointment's day on (domain/stages.ts markShownRefusal), on the store's clock.
    if ((s.move === 'show' || s.move === 'noShow') && (lead.appointment_at === null || dayOf(s.at) < dayOf(lead.appointment_at)))
      throw new Error(`The demo marks ${lead.customer}'s appointment before its day.`);
    const to = r.to as KeptStage;
    if (lead.accepted_at === null && lead.assigned_to === s.by.id && s.move !== 'lose') {
      lead.accepted_at = s.at;
      event('accepted', s);
    }
    lead.stage = to;
    const nextFollowUp = s.at + nextFollowUpHours * HOUR;
    if (to === 'sold' || to === 'lost') {
      Object.assign(lead, { closed: 1, status: 'closed', closed_at: s.at, closed_by_id: s.by.id, closed_by_name: s.by.name, accept_due: null });
    }
    switch (s.move) {
      case 'contact':
        if (s.nextFollowUp !== undefined && s.nextFollowUp < s.at - 60_000) throw new Error(`The demo's next follow-up of ${lead.customer} is in the past.`);
        lead.first_contact_at ??= s.at;
        lead.follow_up_due = s.nextFollowUp ?? nextFollowUp;
        lead.accept_due = null;
        event('contacted', s, { channel: s.channel, outcome: s.outcome, note: s.note });
        break;
      case 'appoint':
        if (s.when < s.at - 60_000) throw new Error(`The demo sets ${lead.customer}'s appointment in the past.`);
        lead.appointment_at = s.when;
        lead.appointment_set_at ??= s.at;
        lead.appointment_reminded_at = null;
        appointed = s.at;
        lead.follow_up_due = s.when;
        lead.accept_due = null;
        event('appointment_set', s, { appointment_at: s.when });
        break;
      case 'show':
        lead.follow_up_due = nextFollowUp;
        lead.shown_at ??= s.at;
        event('shown', s);
        break;
      case 'noShow':
        lead.appointment_at = null;
        lead.follow_up_due = nextFollowUp;
        event('no_show', s);
        break;
      case 'sell':
        sale = {
          ...saleColumns({ date: dayOf(s.at), ...s.sale }, DEFAULT_PAY_PLAN),
          store_id: Number(lead.store_id),
          user_id: s.by.id,
          rep_name: s.by.name,
          created_at: s.at,
          created_by: s.by.id,
          customer: lead.customer,
        };
        event('sold', s);
        break;
      case 'lose':
        lead.lost_reason = s.reason;
        event('lost', s, { reason: s.reason, note: s.note });
        break;
    }
  }
  remindBy(now);
  return { events, sale };
}
