import { all, any, below, compare, due, eq, holds, isNull, ne, not, type Cond, type OrderKey } from './conditions';

export const SNOOZE_MINUTES = 30;
export const OVERVIEW_LOG_SIZE = 10;
export const ROUTING_LOG_SIZE = 12;
/** Skip names someone in the queue: not a manager, not someone off duty or already snoozed. */
export const SKIP_WHOM = 'Select a user to skip';

export type Member = {
  id: string;
  name: string;
  role: string;
  position: number;
  active: boolean;
  onDuty: boolean;
  snoozeUntil: Date | null;
  disabled: boolean;
  deletedAt: Date | null;
  /** Open leads past their follow-up time without a contact, counted when the hold-out rule is on. */
  pastDue?: number;
};

/** After this many people let a lead pass, it waits in Unassigned for a manager. */
export const MAX_HANDOFFS = 3;

/** What the rotation's rules read of a lead, as stored ('' in assignedTo: it waits in Unassigned). */
export interface LeadFacts {
  assignedTo: string;
  closed: boolean;
  firstContactAt: Date | null;
  followUpDue: Date | null;
  handoffs: number;
  acceptedAt: Date | null;
  acceptDue: Date | null;
}

// The rule book. Each rule is one value: the domain evaluates it (holds, compare) and the server
// compiles the same value to SQL (server/rotation/sql.ts), for SQLite and for PostgreSQL's
// one-call assign alike.

/** A follow-up past due: an open lead with someone, not contacted, its follow-up time passed (the hold-out rule counts them). */
export const PAST_DUE: Cond<LeadFacts> = all(ne('assignedTo', ''), eq('closed', false), isNull('firstContactAt'), due('followUpDue'));

/** A lead waiting in Unassigned for someone eligible; one handed on too often (parked) waits for a manager instead. */
export const WAITING: Cond<LeadFacts> = all(eq('assignedTo', ''), eq('closed', false), below('handoffs', MAX_HANDOFFS));

/** A lead handed on by MAX_HANDOFFS people: it waits in Unassigned for a manager to hand it out. */
export const PARKED: Cond<LeadFacts> = all(eq('assignedTo', ''), eq('closed', false), not(below('handoffs', MAX_HANDOFFS)));

/** A lead its salesman did not accept in time: the sweep hands it on. */
export const OVERDUE: Cond<LeadFacts> = all(ne('assignedTo', ''), eq('closed', false), isNull('acceptedAt'), due('acceptDue'));

/**
 * Eligible for the next lead: an active salesman on the floor, not disabled or deleted, not
 * snoozed, and (under the hold-out rule, which counts them into pastDue) no past-due follow-up.
 */
export const ELIGIBLE: Cond<Member> = all(
  eq('role', 'staff'),
  eq('active', true),
  eq('onDuty', true),
  eq('disabled', false),
  isNull('deletedAt'),
  any(isNull('snoozeUntil'), due('snoozeUntil')),
  eq('pastDue', 0),
);

/** Next Up: the first eligible after the pointer, else the first eligible (a place is unique; the id only breaks a tie). */
export const NEXT_UP: OrderKey<Member>[] = [{ above: 'position', ref: 'pointer' }, { field: 'position' }, { field: 'id' }];

/** The line's order, by place. */
const BY_PLACE: OrderKey<Member>[] = [{ field: 'position' }, { field: 'id' }];

export const isEligible = (m: Member, now: Date) => holds(ELIGIBLE, { ...m, pastDue: m.pastDue ?? 0 }, now);

export function eligibleQueue(members: Member[], now: Date): Member[] {
  return members.filter((m) => isEligible(m, now)).sort(compare(BY_PLACE, { pointer: 0 }));
}

/** Next Up among the eligible. */
export function pickNext(eligible: Member[], pointerPos: number): Member | null {
  return [...eligible].sort(compare(NEXT_UP, { pointer: pointerPos }))[0] ?? null;
}

/** Why someone is not in line, in a manager's words ("off duty", "held out: 2 past-due follow-ups"); null when he is. */
function notInLine(m: Member, now: Date): string | null {
  if (isEligible(m, now)) return null;
  if (m.role !== 'staff' || m.disabled || m.deletedAt) return 'not on the team';
  if (!m.active) return 'inactive';
  if (!m.onDuty) return 'off duty';
  if (m.snoozeUntil && m.snoozeUntil.getTime() > now.getTime()) return 'snoozed';
  return `held out: ${m.pastDue ?? 0} past-due follow-up${m.pastDue === 1 ? '' : 's'}`;
}

/** A skip refused: only someone in line can be skipped. */
export const skipRefusal = (m: Member, now: Date) => `${m.name} is not in line (${notInLine(m, now) ?? 'in line'}). Only someone in line can be skipped.`;

/**
 * The pointer after a skip. `before` is the eligible queue before the skip (skipped included).
 * Skipping Next Up counts as their turn: the first eligible after them becomes Next Up (else the
 * first eligible, else 0). Skipping anyone else leaves everyone else's turn where it was; moving
 * the pointer past a salesman further down the queue would make the people before them lose
 * their turns (see README, departures from the specification).
 */
export function pointerAfterSkip(before: Member[], skipped: Member, pointerPos: number): number {
  if (pickNext(before, pointerPos)?.id !== skipped.id) return pointerPos;
  const rest = before.filter((m) => m.id !== skipped.id);
  return rest.length ? skipped.position : 0;
}

/** The eligible members in the order they will be served, Next Up first. */
export function servingOrder(eligible: Member[], pointerPos: number): Member[] {
  const next = pickNext(eligible, pointerPos);
  if (!next) return [];
  const i = eligible.indexOf(next);
  return [...eligible.slice(i), ...eligible.slice(0, i)];
}

export function snoozeEnd(now: Date, minutes = SNOOZE_MINUTES): Date {
  return new Date(now.getTime() + minutes * 60_000);
}

export function swapTarget(queue: Member[], id: string, dir: 'up' | 'down'): Member | null {
  const i = queue.findIndex((m) => m.id === id);
  if (i < 0) return null;
  return queue[dir === 'up' ? i - 1 : i + 1] ?? null;
}
