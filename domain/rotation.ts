import { all, any, below, compare, due, eq, holds, isNull, lt, ne, not, type Cond, type OrderKey } from './conditions';

export const SNOOZE_MINUTES = 30;

/** Why a salesman gets no leads under the hold-out rule: "Held out: 2 past-due follow-ups". */
export const heldOutText = (count: number) => `Held out: ${count} past-due follow-up${count === 1 ? '' : 's'}`;
export const OVERVIEW_LOG_SIZE = 10;
export const ROUTING_LOG_SIZE = 12;
/** Skip names someone in the queue: not a manager, not someone off duty or already snoozed. */
export const SKIP_WHOM = 'Select a user to skip';
export const HAND_OUT_WHOM = 'Choose the salesman to hand it to';

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
  /** Ups per turn of the line (1–5; domain/routing.ts afterServe spreads them). */
  weight?: number;
  /** Ups still owed to him in this turn of the line (a weight above 1). */
  owed?: number;
  /** The most ups he takes in a day, and how many he took today; null: no cap. */
  dailyCap?: number | null;
  upsToday?: number;
  /** The most open leads he holds before he is skipped, and how many he holds; null: no cap. */
  openCap?: number | null;
  openLeads?: number;
  /** Why his own hours keep him out of every line ("Off schedule", "Off Nov 28–30"); null: he is available. */
  away?: string | null;
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
  /** Up for grabs: in a claim pool until then (null: not in one). */
  grabUntil?: Date | null;
  /** A walk-in's time out on the desk log, when he left the store (null: he has not, or no walk-in). */
  timeOut?: Date | null;
}

// The rule book. Each rule is one value: the domain evaluates it (holds, compare) and the server
// compiles the same value to SQL (server/rotation/sql.ts), for SQLite and for PostgreSQL's
// one-call assign alike.

/** A follow-up past due: an open lead with someone, not contacted, its follow-up time passed (the hold-out rule counts them). */
export const PAST_DUE: Cond<LeadFacts> = all(ne('assignedTo', ''), eq('closed', false), isNull('firstContactAt'), due('followUpDue'));

/** A customer still in the store: no time out on the desk log (every lead but a walk-in who left). */
const HERE: Cond<LeadFacts> = isNull('timeOut');

/** A walk-in who left the store (Out on the desk log): no one is handed him any more, by the rotation or by a manager. */
export const LEFT: Cond<LeadFacts> = not(HERE);
export const LEFT_TEXT = 'This customer has left (Out on the desk log): he is not handed to anyone.';

/**
 * A lead waiting in Unassigned for someone eligible; one handed on too often (parked) waits for a
 * manager instead, one up for grabs for a claim, and a walk-in who left for no one.
 */
export const WAITING: Cond<LeadFacts> = all(eq('assignedTo', ''), eq('closed', false), below('handoffs', MAX_HANDOFFS), isNull('grabUntil'), HERE);

/** A lead up for grabs: unassigned, open, in a claim pool. */
export const UP_FOR_GRABS: Cond<LeadFacts> = all(eq('assignedTo', ''), eq('closed', false), not(isNull('grabUntil')));

/** A lead handed on by MAX_HANDOFFS people: it waits in Unassigned for a manager to hand it out. */
export const PARKED: Cond<LeadFacts> = all(eq('assignedTo', ''), eq('closed', false), not(below('handoffs', MAX_HANDOFFS)));

/** A lead its salesman did not accept in time: the sweep hands it on. */
export const OVERDUE: Cond<LeadFacts> = all(ne('assignedTo', ''), eq('closed', false), isNull('acceptedAt'), due('acceptDue'));

/** A lead its salesman has not accepted yet, on the clock of the response window (OVERDUE ones too, until the sweep hands them on). */
export const PENDING_ACCEPT: Cond<LeadFacts> = all(ne('assignedTo', ''), eq('closed', false), isNull('acceptedAt'), not(isNull('acceptDue')));

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
  isNull('away'),
  any(isNull('dailyCap'), lt('upsToday', 'dailyCap')),
  any(isNull('openCap'), lt('openLeads', 'openCap')),
);

/** Next Up: the first eligible after the pointer, else the first eligible (a place is unique; the id only breaks a tie). */
export const NEXT_UP: OrderKey<Member>[] = [{ above: 'position', ref: 'pointer' }, { field: 'position' }, { field: 'id' }];

/** The line's order, by place. */
const BY_PLACE: OrderKey<Member>[] = [{ field: 'position' }, { field: 'id' }];

export const isEligible = (m: Member, now: Date) =>
  holds(ELIGIBLE, { ...m, pastDue: m.pastDue ?? 0, upsToday: m.upsToday ?? 0, openLeads: m.openLeads ?? 0 }, now);

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
  if (m.away) return m.away[0].toLowerCase() + m.away.slice(1);
  if ((m.pastDue ?? 0) > 0) return heldOutText(m.pastDue ?? 0).replace('Held', 'held');
  if (m.dailyCap != null && (m.upsToday ?? 0) >= m.dailyCap) return 'at daily cap';
  return `${m.openLeads ?? 0} open lead${m.openLeads === 1 ? '' : 's'}`;
}

/** Why someone in a line was passed over at an up, as the fairness ledger keeps it; 'rule': a routing rule sent the lead to another line. */
export type PassKind = 'off' | 'snooze' | 'away' | 'hold' | 'cap' | 'open' | 'rule';

/**
 * Why someone in the rotation (an active salesman) was out at an up: the first of these that
 * holds. One definition: the domain reads it (passKind) and the one-call assign compiles it.
 */
export const PASS_KINDS: { kind: Exclude<PassKind, 'rule'>; when: Cond<Member> }[] = [
  { kind: 'off', when: eq('onDuty', false) },
  { kind: 'snooze', when: not(any(isNull('snoozeUntil'), due('snoozeUntil'))) },
  { kind: 'away', when: not(isNull('away')) },
  { kind: 'hold', when: not(eq('pastDue', 0)) },
  { kind: 'cap', when: not(any(isNull('dailyCap'), lt('upsToday', 'dailyCap'))) },
  { kind: 'open', when: not(any(isNull('openCap'), lt('openLeads', 'openCap'))) },
];

/** In the rotation at all: an active salesman on the team (whether on the floor or not). */
export const IN_ROTATION: Cond<Member> = all(eq('role', 'staff'), eq('active', true), eq('disabled', false), isNull('deletedAt'));

const counts = (m: Member) => ({ ...m, pastDue: m.pastDue ?? 0, upsToday: m.upsToday ?? 0, openLeads: m.openLeads ?? 0 });

function passKind(m: Member, now: Date): PassKind | null {
  if (isEligible(m, now) || !holds(IN_ROTATION, counts(m), now)) return null;
  return PASS_KINDS.find((k) => holds(k.when, counts(m), now))?.kind ?? null;
}

/** What the ledger keeps beside a kind, to say it in words later (passText): the count or the away text. */
export const PASS_DETAIL: Partial<Record<PassKind, 'away' | 'pastDue' | 'openLeads'>> = { away: 'away', hold: 'pastDue', open: 'openLeads' };
function passDetail(m: Member, kind: PassKind): string {
  const field = PASS_DETAIL[kind];
  return field ? String(counts(m)[field] ?? '') : '';
}

/** A pass in a manager's words: "Off duty", "Held out: 2 past-due follow-ups", "12 open leads", "At daily cap". */
export function passText(kind: PassKind, detail: string): string {
  if (kind === 'off') return 'Off duty';
  if (kind === 'snooze') return 'Snoozed';
  if (kind === 'away') return detail || 'Off schedule';
  if (kind === 'hold') return heldOutText(Number(detail));
  if (kind === 'cap') return 'At daily cap';
  if (kind === 'open') return `${detail} open lead${detail === '1' ? '' : 's'}`;
  return detail;
}

export function passedOver(team: Member[], pointer: number, served: Member, now: Date): { member: Member; kind: PassKind; detail: string }[] {
  const sorted = [...team].sort(compare(BY_PLACE, { pointer: 0 }));
  const from = sorted.findIndex((m) => m.position > pointer);
  const circle = from < 0 ? sorted : [...sorted.slice(from), ...sorted.slice(0, from)];
  const upTo = circle.findIndex((m) => m.id === served.id);
  return circle.slice(0, Math.max(0, upTo)).flatMap((m) => {
    const kind = passKind(m, now);
    return kind ? [{ member: m, kind, detail: passDetail(m, kind) }] : [];
  });
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

/** The line as it is served and shown: everyone in line (eligible), Next Up first. */
export const lineOf = (team: Member[], pointer: number, now: Date): Member[] => servingOrder(eligibleQueue(team, now), pointer);

/**
 * The rest of the team, not in line (off duty, snoozed, held out, inactive), in the order of the
 * circle from the pointer: where each would stand among the others when he is back.
 */
export function outOfLine(team: Member[], pointer: number, now: Date): Member[] {
  const rest = team.filter((m) => !isEligible(m, now)).sort(compare(BY_PLACE, { pointer: 0 }));
  const from = rest.findIndex((m) => m.position > pointer);
  return from < 0 ? rest : [...rest.slice(from), ...rest.slice(0, from)];
}

/** Why someone is not in line, for a screen: "Off duty", "Snoozed", "Held out: 2 past-due follow-ups"; null when he is in line. */
export function whyNotInLine(m: Member, now: Date): string | null {
  const why = notInLine(m, now);
  return why && why[0].toUpperCase() + why.slice(1);
}

/** The ids of a line with one person moved to another place (0 is Next Up); null when he is not in it or the place is outside it. */
export function moveInLine(ids: readonly string[], id: string, to: number): string[] | null {
  const from = ids.indexOf(id);
  if (from < 0 || to < 0 || to >= ids.length) return null;
  const out = ids.filter((x) => x !== id);
  out.splice(to, 0, id);
  return out;
}

export const LINE_CHANGED =
  'The line changed since your screen was drawn (someone moved, assigned or skipped). Look at the line again and make your move once more.';
export const REORDER_SAME_PEOPLE = 'The new order must list the people in line, each once.';
export const REORDER_WHOM = 'Say whom you moved: someone in line.';
export const REORDER_NOTHING = 'Nothing moved: the new order is the line as it is.';

/** What a manager's move is confirmed with: "Luis is now #2". */
export const nowAtText = (name: string, place: number) => `${name} is now #${place}`;
/** How Recent actions tells a move: "moved from #3 to #2". */
export const movedText = (from: number, to: number) => `moved from #${from} to #${to}`;

export type ReorderPlan =
  | { refusal: { status: 400 | 409; error: string } }
  /** The new places of those whose place changes (nobody else's, and never the pointer), who was moved, and his place in line before and after (#1 is Next Up). */
  | { places: { id: string; position: number }[]; moved: Member; from: number; to: number };

/**
 * A manager reorders the line. `line` is the line now (lineOf), `shown` the line his screen
 * showed, `order` the same people in the order he wants them served, `movedId` whom he moved.
 * A screen drawn before the line changed is refused (409), so two managers moving at once
 * cannot scramble it. The people in line keep the places they hold between them: the n-th of
 * the new order takes the place of whoever is served n-th now. So the line served is exactly the
 * order asked for, with the pointer where it was; nobody out of line moves, and a swap of two
 * neighbours changes those two places only.
 */
export function reorderLine(line: readonly Member[], shown: readonly string[], order: readonly string[], movedId: string): ReorderPlan {
  const now = line.map((m) => m.id);
  if (shown.length !== now.length || shown.some((id, i) => id !== now[i])) return { refusal: { status: 409, error: LINE_CHANGED } };
  const asked = new Set(order);
  if (order.length !== now.length || asked.size !== order.length || now.some((id) => !asked.has(id))) {
    return { refusal: { status: 400, error: REORDER_SAME_PEOPLE } };
  }
  const from = now.indexOf(movedId);
  if (from < 0) return { refusal: { status: 400, error: REORDER_WHOM } };
  const placeOf = new Map(line.map((m) => [m.id, m.position]));
  const places = order.map((id, i) => ({ id, position: line[i].position })).filter((p) => placeOf.get(p.id) !== p.position);
  if (!places.length) return { refusal: { status: 400, error: REORDER_NOTHING } };
  return { places, moved: line[from], from: from + 1, to: order.indexOf(movedId) + 1 };
}
