import { z } from 'zod';
import { CLAIMED } from './grabs';
import { addDays } from './hours';
import { passText, type PassKind } from './rotation';
import { dayKey, startOfMonth, weekdayOf, zonedStartOfDay } from './time';

/**
 * The fairness ledger (issue #32): for each salesman, today, this week (since Sunday) and this
 * month on the store's clock, the ups the rotation gave him against the team's average per person
 * on the floor for the hours he was on it, and every time he was passed over and why. A manager's
 * hand-outs to a named salesman, be-backs and ups marked "No customer" are counted apart.
 */

export const PERIODS = ['today', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_NAMES: Record<Period, string> = { today: 'Today', week: 'This week', month: 'This month' };

export interface Span {
  from: number;
  to: number;
}

/** Today, this week (Sunday first) and this month so far, on the store's clock. */
export function periodsOf(now: Date, tz: string): Record<Period, Span> {
  const today = dayKey(now, tz);
  const to = now.getTime();
  return {
    today: { from: zonedStartOfDay(today, tz).getTime(), to },
    week: { from: zonedStartOfDay(addDays(today, -weekdayOf(today)), tz).getTime(), to },
    month: { from: startOfMonth(now, tz).getTime(), to },
  };
}

/** One line of the rotation's log as the ledger reads it. */
export interface LogRow {
  type: 'assign' | 'skip' | 'beback' | 'closed' | 'reorder';
  at: number;
  targetId: string;
  reason: string | null;
  noCustomer: boolean;
}

/** How an up counts: the rotation's own, a manager's hand-out to a named salesman, a lead he claimed up for grabs, a be-back, or "No customer". */
export type UpKind = 'rotation' | 'override' | 'claim' | 'beback' | 'noCustomer';

export function upKind(r: LogRow): UpKind | null {
  if (r.type !== 'assign' && r.type !== 'beback') return null;
  if (r.noCustomer) return 'noCustomer';
  if (r.type === 'beback') return 'beback';
  if (r.reason === CLAIMED) return 'claim';
  return r.reason === null ? 'rotation' : 'override';
}

/** A salesman's on/off duty as the app recorded it (the audit log's 'on duty' / 'off duty'), oldest first. */
export interface DutyChange {
  at: number;
  on: boolean;
}

/**
 * The spans he was on the floor within `period`, from his on/off duty changes. Before his first
 * recorded change he was the opposite of it; with no change at all he was as he is now. Nothing
 * counts before `since` (when he joined the store).
 */
export function floorSpans(changes: DutyChange[], onNow: boolean, period: Span, since = 0): Span[] {
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  const start = Math.max(period.from, since);
  if (start >= period.to) return [];
  const before = sorted.filter((c) => c.at <= start).at(-1);
  let on = before ? before.on : sorted.length ? !sorted[0].on : onNow;
  let opened = start;
  const spans: Span[] = [];
  for (const c of sorted) {
    if (c.at <= start) continue;
    if (c.at >= period.to) break;
    if (on && !c.on) spans.push({ from: opened, to: c.at });
    if (!on && c.on) opened = c.at;
    on = c.on;
  }
  if (on) spans.push({ from: opened, to: period.to });
  return spans.filter((s) => s.to > s.from);
}

const spanMs = (spans: Span[]) => spans.reduce((n, s) => n + (s.to - s.from), 0);
const within = (spans: Span[], at: number) => spans.some((s) => at >= s.from && at < s.to);

/**
 * The team's average per person on the floor for the hours he was on it: each rotation up while he
 * was on the floor, shared among everyone on the floor then (himself included).
 */
export function fairShare(upsAt: number[], mine: Span[], everyone: Span[][]): number {
  let share = 0;
  for (const at of upsAt) {
    if (!within(mine, at)) continue;
    const n = everyone.filter((s) => within(s, at)).length;
    share += 1 / Math.max(1, n);
  }
  return Math.round(share * 10) / 10;
}

export interface Figures {
  /** Ms on the floor in the period. */
  floorMs: number;
  ups: number;
  teamAverage: number;
  overrides: number;
  claims: number;
  beBacks: number;
  noCustomer: number;
  passes: number;
  skips: number;
}

/** One person's figures for a period, from the store's log and everyone's spans on the floor in it. */
export function figures(id: string, log: LogRow[], passesAt: number[], spans: Map<string, Span[]>, period: Span): Figures {
  const inPeriod = log.filter((r) => r.at >= period.from && r.at < period.to);
  const kinds = inPeriod.filter((r) => r.targetId === id).map(upKind);
  const count = (k: UpKind) => kinds.filter((x) => x === k).length;
  const clip = (s: Span[]) => s.map((x) => ({ from: Math.max(x.from, period.from), to: Math.min(x.to, period.to) })).filter((x) => x.to > x.from);
  const mine = clip(spans.get(id) ?? []);
  const rotationUps = inPeriod.filter((r) => upKind(r) === 'rotation').map((r) => r.at);
  return {
    floorMs: spanMs(mine),
    ups: count('rotation'),
    teamAverage: fairShare(rotationUps, mine, [...spans.values()].map(clip)),
    overrides: count('override'),
    claims: count('claim'),
    beBacks: count('beback'),
    noCustomer: count('noCustomer'),
    passes: passesAt.filter((at) => at >= period.from && at < period.to).length,
    skips: inPeriod.filter((r) => r.type === 'skip' && r.targetId === id).length,
  };
}

/** A skip of him (who skipped him and why), to say why a snooze kept him out. */
export interface SkipRow {
  at: number;
  reason: string | null;
  by: string;
}

/** The latest skip of him at or before `at`: the one a snooze came from. */
export function skipBehind(skips: SkipRow[], at: number): SkipRow | null {
  return skips.filter((s) => s.at <= at).reduce<SkipRow | null>((a, s) => (!a || s.at >= a.at ? s : a), null);
}

/** A pass as the ledger says it: "Snoozed — skipped by Manny Manager: At lunch". */
export function passWords(kind: PassKind, detail: string, skip: SkipRow | null): string {
  if (kind === 'rule') return detail || 'A routing rule sent it to another team';
  const text = passText(kind, detail);
  if (kind !== 'snooze' || !skip) return text;
  return `${text}: skipped by ${skip.by}${skip.reason ? ` (${skip.reason})` : ''}`;
}

/** "6 h 5 min", "45 min", "0 min". */
export function floorText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`;
}

const figuresSchema = z.object({
  floorMs: z.number().int().nonnegative(),
  ups: z.number().int(),
  teamAverage: z.number(),
  overrides: z.number().int(),
  claims: z.number().int(),
  beBacks: z.number().int(),
  noCustomer: z.number().int(),
  passes: z.number().int(),
  skips: z.number().int(),
});
const periodFigures = z.object({ today: figuresSchema, week: figuresSchema, month: figuresSchema });

const ledgerEvent = z.object({
  at: z.string(),
  kind: z.enum(['pass', 'skip']),
  /** In words: why he was passed over, or the skip's reason. */
  text: z.string(),
  /** Who got the up he was passed over for, or the manager who skipped him. */
  by: z.string(),
});
export type LedgerEvent = z.infer<typeof ledgerEvent>;

export const personLedger = z.object({
  id: z.string(),
  name: z.string(),
  periods: periodFigures,
  /** This month's passes and skips, newest first (at most LEDGER_EVENTS). */
  events: z.array(ledgerEvent),
});
export type PersonLedger = z.infer<typeof personLedger>;

export const teamLedger = z.object({
  people: z.array(z.object({ id: z.string(), name: z.string(), periods: periodFigures })),
});
export type TeamLedger = z.infer<typeof teamLedger>;

export const LEDGER_EVENTS = 200;
