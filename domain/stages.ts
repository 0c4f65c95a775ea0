import { dayKey, wall } from './time';

/**
 * A lead's life, one state machine: New → Waiting for accept → Accepted → Contacted →
 * Appointment set → Shown → Sold, or Lost (with a reason). The first three follow the hand-out
 * (who holds the lead and whether he accepted it); from the first contact on the stage is kept.
 * A lead closed before stages were kept has no outcome to show: it is Closed (before stages).
 */
export const STAGES = ['new', 'waiting', 'accepted', 'contacted', 'appointment', 'shown', 'sold', 'lost', 'closed'] as const;
export type Stage = (typeof STAGES)[number];

/** A stage as every screen names it. */
export const STAGE_LABELS: Record<Stage, string> = {
  new: 'New',
  waiting: 'Waiting for accept',
  accepted: 'Accepted',
  contacted: 'Contacted',
  appointment: 'Appointment set',
  shown: 'Shown',
  sold: 'Sold',
  lost: 'Lost',
  closed: 'Closed (before stages)',
};

/** The stages kept on the lead (the ones before follow from its hand-out). */
export type KeptStage = 'contacted' | 'appointment' | 'shown' | 'sold' | 'lost' | 'closed';

/** A lead's facts that say its stage. */
export interface StageFacts {
  /** The kept stage; null before the first contact. */
  stage: KeptStage | null;
  /** '' while it waits in Unassigned. */
  assignedTo: string;
  accepted: boolean;
  /** Closed: a lead closed with no stage kept is Closed (before stages), whatever its hand-out says. */
  closed: boolean;
}

export function stageOf(f: StageFacts): Stage {
  if (f.stage) return f.stage;
  if (f.closed) return 'closed';
  if (!f.assignedTo) return 'new';
  return f.accepted ? 'accepted' : 'waiting';
}

/** What happens to a lead. A contact by its holder accepts it if he had not. */
export type Move = 'contact' | 'appoint' | 'show' | 'noShow' | 'sell' | 'lose' | 'reopen';

const OPEN: readonly Stage[] = ['new', 'waiting', 'accepted', 'contacted', 'appointment', 'shown'];
export const isOpen = (s: Stage) => OPEN.includes(s);

/** Why a move is refused in a stage, in words for the person who tried. */
const REFUSED: Record<'sold' | 'lost' | 'closed' | 'new', string> = {
  sold: 'This lead is sold.',
  lost: 'This lead is lost. Reopen it first.',
  closed: 'This lead was closed before stages were kept. Reopen it first.',
  new: 'No one holds this lead yet.',
};

/**
 * The stage a move leads to, or why it cannot be made. A contact never moves a lead back (an
 * appointment or a showing stays); a no-show returns it to Contacted; Reopen returns a Lost or
 * Closed lead to Contacted. A lead no one holds can only be lost (a duplicate, say).
 */
export function move(from: Stage, m: Move): { to: Stage } | { refused: string } {
  if (m === 'reopen')
    return from === 'lost' || from === 'closed'
      ? { to: 'contacted' }
      : { refused: from === 'sold' ? REFUSED.sold : 'Only a lost or closed lead can be reopened.' };
  if (from === 'sold' || from === 'lost' || from === 'closed') return { refused: REFUSED[from] };
  if (m === 'lose') return { to: 'lost' };
  if (from === 'new') return { refused: REFUSED.new };
  switch (m) {
    case 'contact':
      return { to: from === 'appointment' || from === 'shown' ? from : 'contacted' };
    case 'appoint':
      return { to: 'appointment' };
    case 'show':
    case 'noShow':
      return from === 'appointment' ? { to: m === 'show' ? 'shown' : 'contacted' } : { refused: 'This lead has no appointment to mark.' };
    case 'sell':
      return { to: 'sold' };
  }
}

/**
 * Shown and No-show are marked from the appointment's day on, on the store's clock: the customer
 * cannot have come (or not) before. Why not, or null when they may be marked.
 */
export function markShownRefusal(appointmentAt: number | null, now: Date, tz: string): string | null {
  if (appointmentAt === null) return 'This lead has no appointment to mark.';
  return dayKey(now, tz) < dayKey(new Date(appointmentAt), tz) ? 'Mark Shown or No-show on the day of the appointment.' : null;
}

/** How a logged contact went. */
export const CONTACT_OUTCOMES = ['Talked', 'Left message', 'No answer', 'Wrong number'] as const;
export type ContactOutcome = (typeof CONTACT_OUTCOMES)[number];

/** A time a person picks on the dealership's clock: "2026-11-26T15:30". */
export const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)$/;

/** How far ahead an appointment or a follow-up may be set. */
const MAX_AHEAD_DAYS = 365;

/**
 * What is wrong with a picked time (an appointment, a next follow-up), given when it is now;
 * null when fine. A minute's grace covers the time it took to pick "now".
 */
export function pickedTimeError(label: string, at: Date, now: Date): string | null {
  if (at.getTime() < now.getTime() - 60_000) return `${label} cannot be in the past.`;
  if (at.getTime() > now.getTime() + MAX_AHEAD_DAYS * 86_400_000) return `${label} must be within a year.`;
  return null;
}

/** An instant as a date-time field shows it on the dealership's clock: "2026-11-26T15:30". */
export function localTimeOf(d: Date, tz: string): string {
  const w = wall(d, tz);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}
