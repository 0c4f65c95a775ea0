import type { Member } from './rotation';

/** Why a salesman gets no leads under the hold-out rule: "Held out: 2 past-due follow-ups". */
export const heldOutText = (count: number) => `Held out: ${count} past-due follow-up${count === 1 ? '' : 's'}`;

export const ASKED_FOR_UNKNOWN = 'The salesman the customer asks for is not on the team.';
export const ASKED_FOR_INACTIVE = 'The salesman the customer asks for is inactive. Activate him first, or assign the lead by the rotation.';

/**
 * A be-back: a returning customer asks for a salesman by name. He gets the lead whether he is
 * on the floor or not (snoozed, off duty), if he is an active salesman; no one loses a turn, so
 * the pointer (and Next Up) stays where it was.
 */
export function beBack(team: Member[], askedFor: string, pointer: number): { to: Member; pointer: number } | { refusal: string } {
  const to = team.find((m) => m.id === askedFor && m.role === 'staff' && !m.disabled && m.deletedAt === null);
  if (!to) return { refusal: ASKED_FOR_UNKNOWN };
  if (!to.active) return { refusal: ASKED_FOR_INACTIVE };
  return { to, pointer };
}
