import { skipReasons } from './kpis';
import { formatSeconds, percentile } from './speed';
import { toCsv } from './csv';
import { formatDay } from './format';

/** What happened on the floor in one day, as the database holds it. */
export interface FloorDay {
  day: string;
  /** The salesmen to list (the team), beside anyone the day's log names. */
  team: { id: string; name: string }[];
  /** The day's rotation log: ups (assign), be-backs and skips with their reasons. */
  log: { type: string; targetId: string; targetName: string; reason: string | null }[];
  /** Leads he let pass (not accepted in time). */
  handoffs: { missedId: string }[];
  /** Leads accepted or first contacted in the day: times in ms, from when he got the lead. */
  speed: { holderId: string; offeredAt: number; acceptedAt: number | null; firstContactAt: number | null }[];
  /** Leads closed in the day, by whom they were with, and whether sold (else lost). */
  closed: { holderId: string; sold: boolean }[];
  /** Appointments set in the day, by whom. */
  appointments: { holderId: string }[];
  /** The day's span [from, to) in ms. */
  from: number;
  to: number;
}

export interface FloorRow {
  ups: number;
  beBacks: number;
  skips: number;
  skipReasons: { reason: string; count: number }[];
  handoffs: number;
  /** Median seconds; null when nothing to measure. */
  acceptMedian: number | null;
  contactMedian: number | null;
  closed: number;
  appointments: number;
  sold: number;
}
export interface FloorReport {
  day: string;
  associates: ({ id: string; name: string } & FloorRow)[];
  team: FloorRow;
}

const within = (t: number | null, d: FloorDay): t is number => t !== null && t >= d.from && t < d.to;
const median = (ms: number[]) =>
  percentile(
    ms.map((v) => Math.round(v / 1000)),
    50,
  );

/** The floor report: per salesman his ups, be-backs, skips and their reasons, hand-offs, medians, closes, appointments set and sales; the team's totals. */
export function floorReport(d: FloorDay): FloorReport {
  const row = (keep: (id: string) => boolean): FloorRow => {
    const log = d.log.filter((e) => keep(e.targetId));
    const skips = log.filter((e) => e.type === 'skip');
    const speed = d.speed.filter((l) => keep(l.holderId));
    return {
      ups: log.filter((e) => e.type === 'assign').length,
      beBacks: log.filter((e) => e.type === 'beback').length,
      skips: skips.length,
      skipReasons: skipReasons(skips),
      handoffs: d.handoffs.filter((h) => keep(h.missedId)).length,
      acceptMedian: median(speed.flatMap((l) => (within(l.acceptedAt, d) ? [l.acceptedAt - l.offeredAt] : []))),
      contactMedian: median(speed.flatMap((l) => (within(l.firstContactAt, d) ? [l.firstContactAt - l.offeredAt] : []))),
      closed: d.closed.filter((c) => keep(c.holderId)).length,
      appointments: d.appointments.filter((a) => keep(a.holderId)).length,
      sold: d.closed.filter((c) => c.sold && keep(c.holderId)).length,
    };
  };
  const people = new Map(d.team.map((m) => [m.id, m.name]));
  for (const e of d.log) if (e.targetId && !people.has(e.targetId)) people.set(e.targetId, e.targetName);
  const associates = [...people]
    .map(([id, name]) => ({ id, name, ...row((x) => x === id) }))
    .sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  return { day: d.day, associates, team: row((id) => people.has(id)) };
}

const reasonsText = (r: FloorRow) => r.skipReasons.map((s) => `${s.reason} (${s.count})`).join('; ');

export const REPORT_CSV_HEADER = [
  'Store',
  'Salesman',
  'Ups',
  'Be-backs',
  'Skips',
  'Skip reasons',
  'Hand-offs',
  'Median time to accept (s)',
  'Median time to first contact (s)',
  'Leads closed',
  'Appointments set',
  'Sold',
];

/** The report as a spreadsheet, the store's code on every row (a group's reports pasted together stay apart). */
export function reportCsv(r: FloorReport, store: string): string {
  const line = (name: string, x: FloorRow) => [
    store,
    name,
    x.ups,
    x.beBacks,
    x.skips,
    reasonsText(x),
    x.handoffs,
    x.acceptMedian,
    x.contactMedian,
    x.closed,
    x.appointments,
    x.sold,
  ];
  return toCsv([REPORT_CSV_HEADER, ...r.associates.map((a) => line(a.name, a)), line('Team', r.team)]);
}

/** "BDC Portal: Northside Honda floor report for Nov 25, 2026": a group manager gets one from each store. */
export const reportSubject = (appName: string, store: string, day: string) => `${appName}: ${store} floor report for ${formatDay(day)}`;

/** The report as the mail's plain text: one block per salesman, then the team. */
export function reportText(r: FloorReport): string {
  const block = (name: string, x: FloorRow) =>
    [
      name,
      `  Ups: ${x.ups}   Be-backs: ${x.beBacks}   Skips: ${x.skips}   Hand-offs: ${x.handoffs}   Leads closed: ${x.closed}   Appointments set: ${x.appointments}   Sold: ${x.sold}`,
      `  Median time to accept: ${formatSeconds(x.acceptMedian)}   Median time to first contact: ${formatSeconds(x.contactMedian)}`,
      ...(x.skipReasons.length ? [`  Skip reasons: ${reasonsText(x)}`] : []),
    ].join('\n');
  return [`The floor on ${formatDay(r.day)}`, '', ...r.associates.map((a) => block(a.name, a)), '', block('Team', r.team)].join('\n');
}
