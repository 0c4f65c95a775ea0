import { z } from 'zod';
import { checkIn } from './floor';
import { compare } from './conditions';
import { isEligible, NEXT_UP, pickNext, type Member } from './rotation';
import { wall } from './time';
import { FLOOR, LANGUAGE_WORDS } from './routing-terms';
import { isOneLine, notOneLineText } from './text';

/**
 * Smarter routing: a store's ordered routing rules send each new lead to a team's line (or to the
 * whole floor's); weights spread a person's extra ups over a turn of the line; a person served in
 * one line goes to the back of his others. Pure rules; the server applies them in the rotation
 * transaction (server/rotation/assign.ts).
 */

const MAX_ROUTING_RULES = 50;
const TEAM_NAME_MSG = 'A team name must be 1 to 40 characters';
export const teamNameSchema = z
  .string({ error: TEAM_NAME_MSG })
  .trim()
  .min(1, { error: TEAM_NAME_MSG })
  .max(40, { error: TEAM_NAME_MSG, abort: true })
  .refine(isOneLine, { error: notOneLineText('A team name') });

/** Where a lead goes: a team's line, or the whole floor's (the store's own line). */
const targetSchema = z.union([z.strictObject({ team: z.number().int().positive() }), z.strictObject({ floor: z.literal(true) })], {
  error: 'Send it to a team or to the whole floor',
});
export type Target = z.infer<typeof targetSchema>;

const text = (label: string, max = 100) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .min(1, { error: `${label} must not be empty` })
    .max(max, { error: `${label} must be at most ${max} characters`, abort: true })
    .refine(isOneLine, { error: notOneLineText(label) })
    .optional();
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const clock = (label: string) => z.string({ error: `${label} must be a time like 09:00` }).regex(CLOCK, { error: `${label} must be a time like 09:00` });

/** What a rule asks of a lead; every condition given must hold (none given: every lead). */
const matchSchema = z.strictObject(
  {
    /** The lead's source as stored ("Internet", "Walk-in", the ADF provider's name). */
    source: text('Source'),
    /** The intake key's name the lead came through. */
    key: text('Key'),
    /** The address the lead was mailed to (leads by e-mail). */
    mailbox: text('Mail address', 254),
    condition: z.enum(['new', 'used'], { error: 'Vehicle must be new or used' }).optional(),
    make: text('Make', 40),
    /** A language code ("es"): the ADF's lang, or one of the language's words in the comments. */
    language: z
      .string({ error: 'Language must be a code like es' })
      .regex(/^[a-z]{2}$/, { error: 'Language must be a two-letter code like es' })
      .optional(),
    /** A word or phrase in the comments, case and accents aside. */
    keyword: text('Keyword', 60),
    /** Arrived between these times on the store's clock (from before to: across midnight). */
    from: clock('From').optional(),
    to: clock('To').optional(),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown condition: ${iss.keys.join(', ')}` : 'Invalid conditions') },
);
export type Match = z.infer<typeof matchSchema>;

/** Up for grabs: instead of (after 0) or after N hand-ons, the lead waits in a claim pool for the team; unclaimed after M minutes it goes to `then`, then to the managers. */
const grabSchema = z.strictObject({
  after: z.number({ error: 'Hand-ons before the pool must be 0 to 3' }).int().min(0).max(3, { error: 'Hand-ons before the pool must be 0 to 3' }),
  minutes: z.number({ error: 'Minutes in the pool must be 1 to 120' }).int().min(1).max(120, { error: 'Minutes in the pool must be 1 to 120' }),
  then: targetSchema.nullable(),
});
export type Grab = z.infer<typeof grabSchema>;

export const routingRuleSchema = z.strictObject({
  name: z
    .string({ error: 'A rule name must be 1 to 60 characters' })
    .trim()
    .min(1, { error: 'A rule name must be 1 to 60 characters' })
    .max(60, { error: 'A rule name must be 1 to 60 characters', abort: true })
    .refine(isOneLine, { error: notOneLineText('A rule name') }),
  when: matchSchema,
  to: targetSchema,
  grab: grabSchema.nullable().default(null),
});
export type RoutingRule = z.infer<typeof routingRuleSchema>;

/** A store's routing, kept with its rules (domain/rules.ts), so an assign sees a change under the rotation lock. */
export const routingSchema = z.strictObject({
  rules: z.array(routingRuleSchema).max(MAX_ROUTING_RULES, { error: `Keep at most ${MAX_ROUTING_RULES} routing rules` }),
  /** Where a lead that matches no rule goes. */
  fallback: targetSchema,
  /** Serving a person in one line moves him to the back of every other line he stands in. */
  backOfEveryLine: z.boolean({ error: 'Back of every line must be on or off' }),
});
export type Routing = z.infer<typeof routingSchema>;
export const DEFAULT_ROUTING: Routing = { rules: [], fallback: FLOOR, backOfEveryLine: true };

/** What routing rules read of a new lead; missing parts are ''. */
export interface LeadTraits {
  source: string;
  key: string;
  mailbox: string;
  condition: '' | 'new' | 'used';
  make: string;
  /** The language the sender named (ADF lang), '' when none. */
  language: string;
  comments: string;
}
export const NO_TRAITS: LeadTraits = { source: '', key: '', mailbox: '', condition: '', make: '', language: '', comments: '' };

/** Folded for comparison: case, accents and runs of spaces do not count. */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

const words = (s: string) => ` ${fold(s).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;

/** A lead's language: the one the sender named, else the first whose words its comments use; '' when none. */
export function languageOf(t: Pick<LeadTraits, 'language' | 'comments'>): string {
  const named = fold(t.language).slice(0, 2);
  if (/^[a-z]{2}$/.test(named)) return named;
  const said = words(t.comments);
  for (const [code, ws] of LANGUAGE_PHRASES) if (ws.some((w) => said.includes(w))) return code;
  return '';
}

/** Each language's words as a rule's keyword is looked for, folded once. */
const LANGUAGE_PHRASES = Object.entries(LANGUAGE_WORDS).map(([code, ws]) => [code, ws.map(words)] as const);

/** A vehicle's condition from the words a sender used ("new", "used", "pre-owned", "certified"). */
export function conditionOf(status: string): '' | 'new' | 'used' {
  const s = fold(status);
  if (s === 'new') return 'new';
  if (['used', 'pre-owned', 'preowned', 'certified', 'cpo'].includes(s)) return 'used';
  return '';
}

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

/** `read` of an object, worked out once however often it is asked (a lead meets every rule; rules are remembered). */
function once<K extends object, V>(read: (k: K) => V): (k: K) => V {
  const seen = new WeakMap<K, V>();
  return (k) => {
    if (!seen.has(k)) seen.set(k, read(k));
    return seen.get(k) as V;
  };
}
const foldOf = (s: string | undefined) => (s === undefined ? undefined : fold(s));
const ruleFolded = once((m: Match) => ({ source: foldOf(m.source), key: foldOf(m.key), mailbox: foldOf(m.mailbox), make: foldOf(m.make) }));
const keywordOf = once((m: Match) => (m.keyword === undefined ? undefined : words(m.keyword)));
const leadFolded = once((t: LeadTraits) => ({ source: fold(t.source), key: fold(t.key), mailbox: fold(t.mailbox), make: fold(t.make) }));
const saidIn = once((t: LeadTraits) => words(t.comments));
const languageOnce = once(languageOf);
const same = (rule: string | undefined, lead: string) => rule === undefined || rule === lead;

/** Whether a lead that arrived at `now` (on the store's clock `tz`) meets a rule's conditions. */
export function matches(m: Match, t: LeadTraits, now: Date, tz: string): boolean {
  const [r, l] = [ruleFolded(m), leadFolded(t)];
  if (!same(r.source, l.source) || !same(r.key, l.key) || !same(r.mailbox, l.mailbox) || !same(r.make, l.make)) return false;
  if (m.condition !== undefined && m.condition !== t.condition) return false;
  if (m.language !== undefined && languageOnce(t) !== m.language) return false;
  const keyword = keywordOf(m);
  if (keyword !== undefined && !saidIn(t).includes(keyword)) return false;
  if (m.from !== undefined || m.to !== undefined) {
    const w = wall(now, tz);
    const at = w.hour * 60 + w.minute;
    const [from, to] = [minuteOf(m.from ?? '00:00'), m.to === undefined ? 24 * 60 : minuteOf(m.to)];
    const inside = from <= to ? at >= from && at < to : at >= from || at < to;
    if (!inside) return false;
  }
  return true;
}

/** The first rule a lead meets (its index), else the store's fallback (index null). */
export function route(r: Routing, t: LeadTraits, now: Date, tz: string): { index: number | null; rule: RoutingRule | null; to: Target } {
  const index = r.rules.findIndex((rule) => matches(rule.when, t, now, tz));
  return index < 0 ? { index: null, rule: null, to: r.fallback } : { index, rule: r.rules[index], to: r.rules[index].to };
}

/** The rule with up-for-grabs that sends leads to a line (a team's, or null: the whole floor's): its pool's settings. */
export const poolRule = (r: Routing, team: number | null): RoutingRule | undefined =>
  r.rules.find((rule) => rule.grab && (team === null ? 'floor' in rule.to : 'team' in rule.to && rule.to.team === team));

/** Why someone Next Up on the whole floor was passed over: a rule sent the lead to a team he is not in. */
export const ruleSentText = (rule: string, team: string) => `Rule "${rule}" sent it to the ${team} team`;

/** The line a target names, given the store's teams: a team that no longer exists sends its leads to the whole floor. */
export const lineOfTarget = (to: Target, teams: readonly number[]): number | null => ('team' in to && teams.includes(to.team) ? to.team : null);

/** Whether weights are at play in a line: someone in it with a weight above 1. */
const weighted = (eligible: readonly Member[]) => eligible.some((m) => (m.weight ?? 1) > 1);

/**
 * Next Up among the eligible. With everyone at weight 1 it is the round robin it always was
 * (pickNext). With weights, the line is served by smooth weighted round robin: each up, every
 * eligible person earns his weight in credit (`owed`) and the one with the most is served (ties
 * in the line's order from the pointer), then pays the sum of all weights; whoever had the
 * store's last up (`last`) waits one up while others are eligible (unless his weight outweighs
 * theirs together), so his ups are spread, never back to back, in this line or across his
 * teams. Over any stretch each person's share stays within one up of his weight's share.
 */
export function pickWeighted(eligible: readonly Member[], pointer: number, last?: string | null): Member | null {
  if (!weighted(eligible)) return pickNext([...eligible], pointer);
  // Back to back is unavoidable only when his weight outweighs everyone else's together.
  const rest = eligible.filter((m) => m.id !== last);
  const him = eligible.find((m) => m.id === last);
  if (him && (him.weight ?? 1) > rest.reduce((sum, m) => sum + (m.weight ?? 1), 0)) rest.push(him);
  let best: Member | null = null;
  for (const m of [...rest].sort(compare(NEXT_UP, { pointer }))) if (!best || credit(m) > credit(best)) best = m;
  return best;
}
const credit = (m: Member) => (m.owed ?? 0) + (m.weight ?? 1);

/** After a person is served in a line: the pointer stops at his place and, with weights at play, each eligible person's credit moves (pickWeighted). */
export function afterServe(line: readonly Member[], served: Member, now: Date): { pointer: number; owed: { id: string; owed: number }[] } {
  const eligible = line.filter((m) => isEligible(m, now) || m.id === served.id);
  if (!weighted(eligible)) return { pointer: served.position, owed: [] };
  const total = eligible.reduce((sum, m) => sum + (m.weight ?? 1), 0);
  return { pointer: served.position, owed: eligible.map((m) => ({ id: m.id, owed: credit(m) - (m.id === served.id ? total : 0) })) };
}

/**
 * Places left free between people when a line is renumbered, so a later move to the back is one
 * write. With 64, a team served in turn used up its free places on the floor's line every 63 ups;
 * PostgreSQL's one-call assign hands such an up to the stepwise path, and so did the assigns already
 * waiting behind it: 1 up in 19 in the routing bench, each holding the rotation lock for several
 * round trips; with 1,024, about 1 in 1,000. A renumbering lifts the highest place by a gap per
 * person, and where the whole floor and teams both serve one can come every few ups whatever the
 * gap: 12 people, half the ups on the floor, half back-moves, renumbered once in 29 ups and climbed
 * about 390 places an up (a 32-bit place lasts some 5 million ups). A gap of 65,536 climbed 64
 * times as fast, past 2^31 within 90,000 ups, so the gap stays small.
 */
const GAP = 1024;

/**
 * Serving him in one line puts him at the back of another he stands in. When the place just after
 * the pointer is free (or his), he takes it and the pointer moves onto it: he is served last and
 * everyone else keeps his turn, in one write. Otherwise the line is renumbered in serving order
 * with him last (check-in order's move), leaving free places between people for the next time.
 */
export function toBack(
  line: Pick<Member, 'id' | 'position'>[],
  id: string,
  pointer: number,
  top: number,
): { places: { id: string; position: number }[]; pointer: number } {
  const after = pointer + 1;
  if (!line.some((m) => m.position === after && m.id !== id)) return { places: [{ id, position: after }], pointer: after };
  const r = checkIn(line as Member[], id, pointer, top);
  return { places: r.places.map((p, i) => ({ id: p.id, position: top + GAP * (i + 1) })), pointer: top };
}
