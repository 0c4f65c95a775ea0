import { forbidden, ApiError, notFound } from '../http/errors';
import type { UserRow } from '../users/repo';
import type { Selectable } from 'kysely';
import { holds as isTrue } from '../../domain/conditions';
import { LEFT, PENDING_ACCEPT } from '../../domain/rotation';
import { leadFacts } from '../rotation/sql';
import type { LeadsTable } from '../db/schema';
import { markShownRefusal, move, stageOf, type Move } from '../../domain/stages';

type Me = Pick<UserRow, 'id' | 'role'>;
type LeadRow = Pick<LeadsTable, 'assigned_to' | 'closed_by_id'>;

/** A lead's name is filled in by its salesman or a manager. */
export function checkName(me: Me, lead: Pick<LeadRow, 'assigned_to'>): void {
  if (me.role !== 'manager' && lead.assigned_to !== me.id) throw forbidden('You can only name your own leads.');
}

/** Whose KPIs a person sees: a manager everyone's, a salesman his own. */
export const seesKpisOf = (me: Me, userId: string | null): boolean => me.role === 'manager' || userId === me.id;

/** A lead's timeline is for managers and the salesman who holds it. */
export function checkTimeline(me: Me, lead: Pick<LeadRow, 'assigned_to'>): void {
  if (me.role !== 'manager' && (!lead.assigned_to || lead.assigned_to !== me.id)) throw forbidden('You can only see the timeline of your own leads.');
}

/**
 * Accept and contacts are the holder's alone: why someone else cannot (null: he may). The answer
 * never names the holder: anyone could otherwise map lead ids to salesmen by trying them.
 */
export function holderRefusal(lead: Pick<LeadsTable, 'assigned_to' | 'closed'> | undefined, me: { id: string | null }, what: string): ApiError | null {
  if (!lead) return notFound('Lead not found');
  if (lead.assigned_to !== me.id) return forbidden(lead.assigned_to ? `Only the salesman who holds this lead can ${what}.` : 'No one holds this lead yet.');
  if (lead.closed) return new ApiError(409, 'This lead is closed.');
  return null;
}

const HOLDER_ONLY: Record<'contact' | 'appoint' | 'sell', string> = { contact: 'log a contact', appoint: 'set an appointment', sell: 'sell it' };

/**
 * Who may make a move in a lead's life (where it may go is domain/stages.ts): contacts,
 * appointments and the sale are its holder's alone; marking shown or no-show and losing a lead
 * are his or a manager's; reopening is a manager's, or the salesman's who lost it.
 */
export function checkMove(me: Me, lead: Pick<LeadsTable, 'assigned_to' | 'closed_by_id'>, m: Move): void {
  if (m === 'contact' || m === 'appoint' || m === 'sell') {
    // Whether it is still open is the state machine's to say.
    const refusal = holderRefusal({ assigned_to: lead.assigned_to, closed: 0 }, me, HOLDER_ONLY[m]);
    if (refusal) throw refusal;
    return;
  }
  if (me.role === 'manager') return;
  if (m === 'reopen') {
    if (lead.assigned_to !== me.id || lead.closed_by_id !== me.id) throw forbidden('Only a manager can reopen a lead someone else closed.');
  } else if (lead.assigned_to !== me.id) throw forbidden('You can only change your own leads.');
}

/** Whether a check lets `me` through: the same rule, asked instead of enforced. */
const allows = (check: () => void) => {
  try {
    check();
    return true;
  } catch {
    return false;
  }
};

/** A lead row's stage (domain/stages.ts): what every screen and every move reads. */
export const stageOfLead = (l: Pick<Selectable<LeadsTable>, 'stage' | 'assigned_to' | 'accepted_at' | 'closed'>) =>
  stageOf({ stage: l.stage, assignedTo: l.assigned_to, accepted: l.accepted_at !== null, closed: !!Number(l.closed) });

/**
 * What `me` may do to a lead now: the rules above, each asked once, so screens offer only what
 * the server allows. Naming is a permission (the screen offers it while the name is missing).
 */
export function leadCan(me: Me, lead: Selectable<LeadsTable>, now: Date, tz: string) {
  const holds = holderRefusal(lead, me, '') === null;
  const manager = me.role === 'manager';
  const stage = stageOfLead(lead);
  const may = (m: Move) => !('refused' in move(stage, m)) && allows(() => checkMove(me, lead, m));
  return {
    lose: may('lose'),
    sell: may('sell'),
    appoint: may('appoint'),
    markShown: may('show') && markShownRefusal(lead.appointment_at, now, tz) === null,
    reopen: may('reopen'),
    name: allows(() => checkName(me, lead)),
    accept: holds && lead.accepted_at === null,
    contact: may('contact'),
    // Unassigned, or still waiting for its salesman's Accept (then to someone a manager names); never a walk-in who left.
    handOut: manager && !lead.closed && !isTrue(LEFT, leadFacts(lead), now) && (!lead.assigned_to || isTrue(PENDING_ACCEPT, leadFacts(lead), now)),
    timeline: allows(() => checkTimeline(me, lead)),
    document: manager && lead.document_id !== null,
  };
}
