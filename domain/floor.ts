import { pickNext, type Member } from './rotation';

export { heldOutText } from './rotation';

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

/**
 * Serve in check-in order: whoever clocks in goes to the end of the line, after everyone now
 * waiting. The whole team is renumbered in serving order from the pointer (off-duty salesmen
 * keep their turn among the rest), the one clocking in last, on places after `top` (the highest
 * place anyone holds, so no place is shared on the way); the pointer goes just before the first.
 */
export function checkIn(team: Member[], id: string, pointer: number, top: number): { places: { id: string; position: number }[]; pointer: number } {
  const sorted = [...team].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  const from = sorted.findIndex((m) => m.position > pointer);
  const circle = from < 0 ? sorted : [...sorted.slice(from), ...sorted.slice(0, from)];
  const order = [...circle.filter((m) => m.id !== id), ...circle.filter((m) => m.id === id)];
  return { places: order.map((m, i) => ({ id: m.id, position: top + 1 + i })), pointer: top };
}

/** Whom a manager may name when he hands a lead out himself (an override), or why not. */
function overrideRefusal(m: Member | undefined): string | null {
  if (!m) return 'The salesman you named is not on the team.';
  if (m.role !== 'staff') return `${m.name} is a manager: only salesmen take leads.`;
  if (m.deletedAt) return `${m.name} was deleted. Restore him first, or name someone else.`;
  if (m.disabled) return `${m.name} is disabled. Enable him first, or name someone else.`;
  if (!m.active) return `${m.name} is inactive. Activate him first, or name someone else.`;
  return null;
}

/**
 * A manager hands a lead to a salesman he names (an override): on the floor or not, as long as he
 * is an active salesman. Naming Next Up is his turn, as a hand-out by the rotation would be;
 * naming anyone else leaves the pointer, so no one loses a turn.
 */
export function override(named: Member | undefined, eligible: Member[], pointer: number): { to: Member; pointer: number } | { refusal: string } {
  const refusal = overrideRefusal(named);
  if (refusal !== null || !named) return { refusal: refusal ?? 'The salesman you named is not on the team.' };
  return { to: named, pointer: pickNext(eligible, pointer)?.id === named.id ? named.position : pointer };
}
