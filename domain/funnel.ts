import { z } from 'zod';
import { eq, holds, not, isNull, type Cond } from './conditions';
import { toCsv, type Cell } from './csv';
import { addDays } from './hours';
import { isValidDayKey } from './time';

/**
 * The lead funnel (issue #29): of the leads a store received in a period, how many were
 * contacted, got an appointment, showed and bought, per salesman or per lead source, with the
 * median time to the first contact. Each step is defined here once, as a rule over a lead's facts;
 * the server compiles the same rules to SQL (server/leads/funnel.ts), and a differential test
 * (server/leads/funnel.test.ts) counts the same rows by hand.
 */

/**
 * What the funnel knows about one lead received in the period: when each step first happened
 * (epoch ms; null: not yet), as the lead keeps it beside its timeline (lead_events: the first
 * 'contacted', 'appointment_set' and 'shown' step), and its kept stage.
 */
export interface FunnelLead {
  firstContactAt: number | null;
  appointmentSetAt: number | null;
  shownAt: number | null;
  /** Its kept stage (domain/stages.ts); null before the first contact. Sold stores the sale with the lead in one transaction. */
  stage: string | null;
}

export const FUNNEL_STEPS = ['contacted', 'appointment', 'shown', 'sold'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/** Whether a lead reached a step: once reached, a step stays reached (a lost lead that showed was shown). */
export const REACHED: Record<FunnelStep, Cond<FunnelLead>> = {
  contacted: not(isNull('firstContactAt')),
  appointment: not(isNull('appointmentSetAt')),
  shown: not(isNull('shownAt')),
  sold: eq('stage', 'sold'),
};

/** Whether the lead reached the step (the rules read facts only, never "now"). */
export const reached = (step: FunnelStep, lead: FunnelLead): boolean => holds(REACHED[step], lead, new Date(0));

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** One row's counts: leads received, how many reached each step, and the median first contact in ms. */
export interface FunnelCounts {
  key: string;
  name: string;
  leads: number;
  contacted: number;
  appointment: number;
  shown: number;
  sold: number;
  medianFirstContactMs: number | null;
}

/** A percentage of the leads received, to one decimal; 0 when none were received. */
export const pctOf = (n: number, leads: number): number => (leads ? Math.round((n * 1000) / leads) / 10 : 0);

/** A step's share as read: "33.3%"; "<0.1%" when a few of very many round to 0.0% (some, not none). */
export const shareText = (pct: number, n: number): string => `${pct === 0 && n > 0 ? '<0.1' : pct}%`;

/** A count as read: "200,000". */
export const countText = (n: number): string => n.toLocaleString('en-US');

/** A step of the funnel as drawn: its name and how many reached it (the first step: the leads received). */
export interface FunnelStepValue {
  name: string;
  value: number;
}

/** The narrowest bar of a step any lead reached, in % of the widest: a few of many still show. */
export const MIN_BAR_PCT = 2;

/**
 * Each step as a bar of the funnel: its width its share of the first step's (at least MIN_BAR_PCT
 * when any lead reached it, none when none did) and its figure: the count, and after the first
 * step its % of the first ("1 · 33.3%"; 0% when the first is 0, never NaN or Infinity; "<0.1%" for a few of very many).
 */
export function funnelBars(steps: FunnelStepValue[]): (FunnelStepValue & { widthPct: number; figure: string })[] {
  const base = steps[0]?.value ?? 0;
  return steps.map((s, i) => {
    const pct = pctOf(s.value, base);
    return {
      ...s,
      widthPct: s.value > 0 && base > 0 ? Math.min(100, Math.max(MIN_BAR_PCT, pct)) : 0,
      figure: i === 0 ? countText(s.value) : `${countText(s.value)} · ${shareText(pct, s.value)}`,
    };
  });
}

const funnelRow = z.object({
  key: z.string(),
  name: z.string(),
  leads: z.number().int(),
  contacted: z.number().int(),
  appointment: z.number().int(),
  shown: z.number().int(),
  sold: z.number().int(),
  contactedPct: z.number(),
  appointmentPct: z.number(),
  shownPct: z.number(),
  /** Sold of leads received: the closing ratio. */
  soldPct: z.number(),
  /** Whole seconds from receiving a lead to its first contact, the median over those contacted; null when none has a time. */
  medianFirstContactSeconds: z.number().int().nullable(),
});
export type FunnelRow = z.infer<typeof funnelRow>;
/** A row's figures without its name: a store's in the group report. */
export const funnelFigures = funnelRow.omit({ key: true, name: true });
export type FunnelFigures = z.infer<typeof funnelFigures>;

export function toFunnelRow(c: FunnelCounts): FunnelRow {
  return {
    key: c.key,
    name: c.name,
    leads: c.leads,
    contacted: c.contacted,
    appointment: c.appointment,
    shown: c.shown,
    sold: c.sold,
    contactedPct: pctOf(c.contacted, c.leads),
    appointmentPct: pctOf(c.appointment, c.leads),
    shownPct: pctOf(c.shown, c.leads),
    soldPct: pctOf(c.sold, c.leads),
    medianFirstContactSeconds: c.medianFirstContactMs === null ? null : Math.round(c.medianFirstContactMs / 1000),
  };
}

/** Leads received by an unassigned row ('' holder) read as this. */
export const UNASSIGNED = 'Unassigned';

/**
 * The funnel of a list of leads, grouped by `key`: what the database computes, written plainly
 * (the domain's tests, and the reference the SQL is held to). Rows by most leads, then name.
 */
export function funnelOf(leads: (FunnelLead & { key: string; name: string; assignedAt: number })[]): { rows: FunnelRow[]; total: FunnelRow } {
  const count = (ls: typeof leads, key: string, name: string): FunnelCounts => ({
    key,
    name,
    leads: ls.length,
    contacted: ls.filter((l) => reached('contacted', l)).length,
    appointment: ls.filter((l) => reached('appointment', l)).length,
    shown: ls.filter((l) => reached('shown', l)).length,
    sold: ls.filter((l) => reached('sold', l)).length,
    medianFirstContactMs: median(ls.flatMap((l) => (l.firstContactAt === null ? [] : [l.firstContactAt - l.assignedAt]))),
  });
  const groups = new Map<string, typeof leads>();
  for (const l of leads) groups.set(l.key, [...(groups.get(l.key) ?? []), l]);
  const rows = [...groups].map(([key, ls]) => toFunnelRow(count(ls, key, ls[0].name)));
  return { rows: sortRows(rows), total: toFunnelRow(count(leads, '', 'Total')) };
}

/** Most leads first, then by name. */
export const sortRows = (rows: FunnelRow[]): FunnelRow[] => [...rows].sort((a, b) => b.leads - a.leads || a.name.localeCompare(b.name));

const FUNNEL_BY = ['salesman', 'source'] as const;
export type FunnelBy = (typeof FUNNEL_BY)[number];

/** The longest period one funnel covers, in days (a leap year). */
const MAX_FUNNEL_DAYS = 366;

const INVALID_DATE = 'Enter a real date (YYYY-MM-DD)';
const day = z.string({ error: INVALID_DATE }).trim().refine(isValidDayKey, { error: INVALID_DATE }).optional();

/** ?from=&to= (days on the store's clock, inclusive; this month so far when absent) &by=salesman|source. */
export const funnelQuery = z.strictObject({
  from: day,
  to: day,
  by: z.enum(FUNNEL_BY, { error: 'By is salesman or source' }).default('salesman'),
});

/** Days between two keys (to − from). */
const span = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/**
 * The period asked for, with its defaults: from the first of this month and to today; either
 * alone runs to/from the other's default. An error names what is wrong.
 */
export function funnelRange(q: { from?: string; to?: string }, today: string): { from: string; to: string } | { error: string } {
  const to = q.to ?? (q.from && q.from > today ? q.from : today);
  const from = q.from ?? (to < today ? `${to.slice(0, 8)}01` : `${today.slice(0, 8)}01`);
  if (from > to) return { error: 'From must be on or before To' };
  if (span(from, to) + 1 > MAX_FUNNEL_DAYS) return { error: `The period can be at most ${MAX_FUNNEL_DAYS} days` };
  return { from, to };
}

/** The day after the period: its end, exclusive. */
export const dayAfter = (to: string) => addDays(to, 1);

export const funnelAnswer = z.object({
  from: z.string(),
  to: z.string(),
  by: z.enum(FUNNEL_BY),
  rows: z.array(funnelRow),
  total: funnelRow,
});
export type FunnelAnswer = z.infer<typeof funnelAnswer>;

/** The median first contact in minutes, to one decimal, as the spreadsheets show it. */
const minutes = (s: number | null): Cell => (s === null ? null : Math.round(s / 6) / 10);

/** A funnel's columns in CSV, after its row's name (the group report's CSV has them too). */
export const FUNNEL_CSV_COLUMNS = [
  'Leads',
  'Contacted',
  'Contacted %',
  'Appointment set',
  'Appointment set %',
  'Shown',
  'Shown %',
  'Sold',
  'Closing ratio %',
  'Median first contact (min)',
];

/** A funnel's figures as FUNNEL_CSV_COLUMNS lists them. */
export const funnelCells = (r: FunnelFigures): Cell[] => [
  r.leads,
  r.contacted,
  r.contactedPct,
  r.appointment,
  r.appointmentPct,
  r.shown,
  r.shownPct,
  r.sold,
  r.soldPct,
  minutes(r.medianFirstContactSeconds),
];

/** The funnel as a spreadsheet: a row per salesman or source, then the total. */
export function funnelCsv(f: FunnelAnswer): string {
  const row = (r: FunnelRow): Cell[] => [r.name, ...funnelCells(r)];
  return toCsv([[f.by === 'salesman' ? 'Salesman' : 'Source', ...FUNNEL_CSV_COLUMNS], ...f.rows.map(row), row(f.total)]);
}
