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

export function isEligible(m: Member, now: Date): boolean {
  return (
    // Roles are stored normalised; exactly what the SQL asks (proven equal in fairness.test.ts).
    m.role === 'staff' &&
    m.active &&
    m.onDuty &&
    !m.disabled &&
    m.deletedAt === null &&
    (m.snoozeUntil === null || m.snoozeUntil.getTime() <= now.getTime()) &&
    !m.pastDue
  );
}

export function eligibleQueue(members: Member[], now: Date): Member[] {
  return members.filter((m) => isEligible(m, now)).sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** `eligible` must be sorted by position (see eligibleQueue). */
export function pickNext(eligible: Member[], pointerPos: number): Member | null {
  return eligible.find((m) => m.position > pointerPos) ?? eligible[0] ?? null;
}

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
