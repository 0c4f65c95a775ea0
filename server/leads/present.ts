import { lead as leadSchema, type Lead } from '../../domain/contract/answers';
import { holds } from '../../domain/conditions';
import { PARKED } from '../../domain/rotation';
import { leadFacts } from '../rotation/sql';
import type { UserRow } from '../users/repo';
import { leadCan, stageOfLead } from './policy';
import type { LeadRow } from './service';

const tradeInSchema = leadSchema.shape.tradeIn;
const tradeIn = (json: string | null): Lead['tradeIn'] => {
  if (!json) return null;
  try {
    const parsed = tradeInSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/** An unassigned lead has no salesman yet: assignedTo is null, and it cannot be overdue. */
const toLead = (l: LeadRow, now: number): Omit<Lead, 'can'> => ({
  id: Number(l.id),
  customer: l.customer,
  assignedTo: l.assigned_to || null,
  assignedToName: l.assigned_to_name,
  assignedByName: l.assigned_by_name,
  assignedAt: new Date(l.assigned_at).toISOString(),
  status: l.status,
  stage: stageOfLead(l),
  lostReason: l.lost_reason,
  appointmentAt: iso(l.appointment_at),
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
  waiting: isWaiting(l),
  acceptDue: iso(l.accept_due),
  grabUntil: l.assigned_to ? null : iso(l.grab_until),
  acceptedAt: iso(l.accepted_at),
  firstContactAt: iso(l.first_contact_at),
  handoffs: l.handoffs,
  parked: holds(PARKED, leadFacts(l), new Date(now)),
  beBack: !!l.be_back,
});

const iso = (t: number | null) => (t === null ? null : new Date(Number(t)).toISOString());
const isWaiting = (l: LeadRow) => !l.closed && !!l.assigned_to && l.offered_at !== null && l.accepted_at === null;

/** A lead as `me` sees it, with what he may do to it now (`tz`: the store's clock). */
export const presentLead = (l: LeadRow, me: Pick<UserRow, 'id' | 'role'>, tz: string, now = Date.now()): Lead => ({
  ...toLead(l, now),
  can: leadCan(me, l, new Date(now), tz),
});
