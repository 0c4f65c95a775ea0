import { holds } from './conditions';
import { eligibleQueue, MAX_HANDOFFS, OVERDUE, pickNext, pointerAfterSkip, type LeadFacts, type Member } from './rotation';

export { MAX_HANDOFFS };
export const CONTACT_CHANNELS = ['Call', 'Text', 'E-mail', 'In person'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

/** When a lead offered now must be accepted by; null when the window is off (0). */
export function acceptDue(offeredAt: Date, windowMinutes: number): Date | null {
  return windowMinutes > 0 ? new Date(offeredAt.getTime() + windowMinutes * 60_000) : null;
}

export const missReason = (windowMinutes: number) => `No response in ${windowMinutes} min`;

/** Taken back once the window has passed without an Accept (the rule book's OVERDUE). */
export const isOverdue = (lead: LeadFacts, now: Date) => holds(OVERDUE, lead, now);

export type HandOn =
  /** To the next eligible salesman, as his turn. */
  | { kind: 'next'; to: Member; pointer: number; handoffs: number }
  /** No one else can take it now: it waits in Unassigned and goes out when someone can. */
  | { kind: 'wait'; pointer: number; handoffs: number }
  /** Handed on too often: it waits in Unassigned for a manager, who is told. */
  | { kind: 'park'; pointer: number; handoffs: number };

/** Who may take a lead: the eligible queue (in position order) without those who let it pass before. */
export const takers = (eligible: Member[], passed: Iterable<string>) => {
  const out = new Set(passed);
  return eligible.filter((m) => !out.has(m.id));
};

/**
 * What happens to an overdue lead. The one who missed it is skipped (counted as his turn when he
 * was Next Up, as a manager's skip is) and snoozed. The lead never goes back to anyone who let it
 * pass (`passedBefore`: who let it pass earlier), and it is parked once MAX_HANDOFFS people (not
 * passes) have. `members` are the candidates as stored, before the snooze.
 */
export function handOn(members: Member[], missedId: string, pointer: number, passedBefore: readonly string[], now: Date): HandOn {
  const before = eligibleQueue(members, now);
  const missed = before.find((m) => m.id === missedId);
  const after = missed ? pointerAfterSkip(before, missed, pointer) : pointer;
  const passed = new Set([...passedBefore, missedId]);
  const count = passed.size;
  if (count >= MAX_HANDOFFS) return { kind: 'park', pointer: after, handoffs: count };
  const to = pickNext(takers(before, passed), after);
  return to ? { kind: 'next', to, pointer: to.position, handoffs: count } : { kind: 'wait', pointer: after, handoffs: count };
}

/** The value at a percentile (nearest rank) of a list; null when the list is empty. */
export function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface Spread {
  count: number;
  /** Seconds; null when there is nothing to measure. */
  median: number | null;
  p90: number | null;
}

const spread = (ms: number[]): Spread => {
  const s = ms.map((v) => Math.round(v / 1000));
  return { count: s.length, median: percentile(s, 50), p90: percentile(s, 90) };
};

/** A duration for a person: "45 s", "7 min", "1 h 5 min"; "—" for nothing. */
export function formatSeconds(s: number | null): string {
  if (s === null) return '—';
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}

/** The time left to accept, as a clock reads: "7:42", "0:05"; "0:00" once it has passed. */
export function timeLeft(due: Date, now: Date): string {
  const s = Math.max(0, Math.ceil((due.getTime() - now.getTime()) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export interface SpeedLead {
  holderId: string;
  offeredAt: number;
  acceptedAt: number | null;
  firstContactAt: number | null;
}
export interface SpeedRow {
  accept: Spread;
  contact: Spread;
  handoffs: number;
}

/**
 * Time to accept and to first contact, from when the salesman got the lead, and hand-offs (a
 * lead he let pass), for the team and each salesman, over what happened since `from`.
 */
export function speedFigures(
  leads: SpeedLead[],
  handoffs: { missedId: string; at: number }[],
  team: { id: string; name: string }[],
  from: number,
): { team: SpeedRow; associates: ({ id: string; name: string } & SpeedRow)[] } {
  const after = (t: number | null): t is number => t !== null && t >= from;
  const passed = handoffs.filter((h) => h.at >= from);
  const row = (keep: (id: string) => boolean): SpeedRow => ({
    accept: spread(leads.flatMap((l) => (keep(l.holderId) && after(l.acceptedAt) ? [l.acceptedAt - l.offeredAt] : []))),
    contact: spread(leads.flatMap((l) => (keep(l.holderId) && after(l.firstContactAt) ? [l.firstContactAt - l.offeredAt] : []))),
    handoffs: passed.filter((h) => keep(h.missedId)).length,
  });
  return { team: row(() => true), associates: team.map((u) => ({ id: u.id, name: u.name, ...row((id) => id === u.id) })) };
}
