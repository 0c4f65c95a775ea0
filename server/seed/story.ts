import type { ContactChannel } from '../../domain/speed';
import type { ContactOutcome } from '../../domain/stages';
import { WALK_IN } from '../../domain/desk';
import { LEAD_SOURCE } from '../../domain/leads';
import { DAY, HOUR, MIN, type Clock } from './clock';
import type { SaleFacts, Step, Who } from './play';

const SEC = 1000;

/**
 * An up's own source of draws (mulberry32), seeded by one draw of the demo's: its life takes as
 * many as it needs and never shifts another's.
 */
function ownDraws(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One up of a store: a lead from the web (or a phone-up) or a customer on the lot, and everything that became of it. */
export interface Arrival {
  /** Days ago, on the store's clock. */
  d: number;
  at: number;
  kind: 'web' | 'walkIn';
  /** A returning customer who asked for his salesman: no one's turn. */
  beBack: boolean;
  /** Came in minutes ago: its salesman has not accepted it yet. */
  fresh: boolean;
  rep: Who;
  /** Who handed it out (the desk). */
  by: Who;
  customer: string;
  vehicle: string;
  source: string;
  /** Its own draws for its life, and (drawn first) how the present reads it. */
  life: () => number;
  later: number[];
  steps: Step[];
  /** What the desk log keeps of a walk-in. */
  desk: { tradeIn: boolean; worksheet: boolean; toManager: Who | null; timeOut: number | null } | null;
}

/** What a store's year is made of. */
export interface StoreYear {
  clock: Clock;
  /** On the floor, in line order: the ups go round them. */
  onFloor: Who[];
  /** Who hands out and may close leads. */
  desk: Who[];
  lostReasons: readonly string[];
  nextFollowUpHours: number;
  /** New web leads a day: the first number, plus up to the second less one. */
  leadsPerDay: [number, number];
  /** Walk-ins a day on the desk log's days, the same way. */
  walkInsPerDay: [number, number];
  vehicles: string[];
}

/** The days back the demo has leads for, and (the last few) walk-ins on the desk log. */
export const DAYS = 365;
const DESK_DAYS = 14;

const FIRST = [
  'James',
  'Maria',
  'Robert',
  'Linda',
  'Michael',
  'Sarah',
  'David',
  'Karen',
  'Chris',
  'Angela',
  'Kevin',
  'Ashley',
  'Brian',
  'Megan',
  'Jason',
  'Rosa',
  'Anthony',
  'Denise',
  'Tyrone',
  'Heather',
  'Victor',
  'Lauren',
  'Raj',
  'Monica',
  'Wei',
  'Tasha',
  'Diego',
  'Erin',
  'Samuel',
  'Yolanda',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Wilson',
  'Moore',
  'Taylor',
  'Thomas',
  'Jackson',
  'White',
  'Harris',
  'Martinez',
  'Clark',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'Wright',
  'Scott',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Baker',
];
/** Where web leads come from, and how often: a phone-up typed in by the desk is the portal's own source. */
const SOURCES: [number, string][] = [
  [0.3, 'Dealer website'],
  [0.2, 'Cars.com'],
  [0.15, 'AutoTrader'],
  [0.15, 'CarGurus'],
  [0.08, 'Facebook'],
  [0.12, LEAD_SOURCE],
];
const CALL_NOTES = [
  'Wants the out-the-door price before coming in.',
  'Has a trade-in; asked what it is worth.',
  'Prefers texts after 5 pm.',
  'Comparing with another dealer.',
  'Waiting on a credit union pre-approval.',
  'Asked about lease specials.',
  'Needs to talk it over at home.',
  'Asked whether it is still on the lot.',
];
const LOST_NOTES = ['Went with a cheaper one across town.', 'Payment too high for now.', 'Decided to keep the old car another year.'];

/** A pick by weights (each a share; the last takes what is left). */
function weighted<T>(xs: [number, T][], u: number): T {
  let sum = 0;
  for (const [w, x] of xs) {
    sum += w;
    if (u < sum) return x;
  }
  return xs[xs.length - 1][1];
}
const pick = <T>(xs: readonly T[], u: number): T => xs[Math.min(xs.length - 1, Math.floor(u * xs.length))];

/** The store's own spelling of a reason it lists; another of its reasons when it does not list that one. */
const reasonOf = (reasons: readonly string[], wanted: string, u: number) => reasons.find((r) => r.toLowerCase() === wanted.toLowerCase()) ?? pick(reasons, u);

/**
 * A lead from the web, as such leads go: most are accepted in minutes and called soon after;
 * about 85 % are contacted, 45 % get an appointment, two thirds of those show (a no-show may set
 * another), and a little under half of those shown buy. The rest are lost, with the store's
 * reasons, or still worked. Times are as planned: `cut` makes them the present.
 */
function webLife(a: Arrival, y: StoreYear): Step[] {
  const u = a.life;
  const { rep } = a;
  const boss = pick(y.desk, u());
  const steps: Step[] = [];
  let t = a.at;
  const wait = (ms: number) => (t += ms);
  const contact = (channel: ContactChannel, outcome: ContactOutcome | null, note?: string): Step => ({
    move: 'contact',
    at: t,
    by: rep,
    channel,
    outcome,
    note,
  });
  const talk = () => contact('Call', 'Talked', u() < 0.3 ? pick(CALL_NOTES, u()) : undefined);
  const attempt = () => {
    const c = u();
    return c < 0.6 ? contact('Call', c < 0.3 ? 'No answer' : 'Left message') : contact(c < 0.85 ? 'Text' : 'E-mail', null);
  };
  // Lost by its salesman mostly, now and then by a manager going through the open leads.
  const closer = u() < 0.2 ? boss : rep;
  const lose = (reasons: [number, string][]) =>
    steps.push({
      move: 'lose',
      at: t,
      by: closer,
      reason: reasonOf(y.lostReasons, weighted(reasons, u()), u()),
      note: u() < 0.15 ? pick(LOST_NOTES, u()) : undefined,
    });
  /** One more try now and then, then lost after a while, or still worked. */
  const loseOrKeep = (pLost: number, fromDays: number, toDays: number, reasons: [number, string][]) => {
    if (u() < 0.5) {
      wait((1 + u() * 3) * DAY);
      steps.push(u() < 0.5 ? talk() : attempt());
    }
    if (u() >= pLost) return;
    wait((fromDays + u() * (toDays - fromDays)) * DAY);
    lose(reasons);
  };
  const appoint = () => {
    wait((1 + u() * 4) * MIN);
    const when = y.clock.at(y.clock.daysAgo(t) - 1 - Math.floor(u() * 5), 9 * 60 + 30 + Math.floor(u() * 37) * 15);
    steps.push({ move: 'appoint', at: t, by: rep, when });
    t = when;
  };
  const markedBy = () => (u() < 0.75 ? rep : boss);
  const noShow = () => {
    wait((40 + u() * 50) * MIN);
    steps.push({ move: 'noShow', at: t, by: markedBy() });
  };
  const shown = () => {
    wait(u() * 10 * MIN);
    steps.push({ move: 'show', at: t, by: markedBy() });
    if (u() < 0.45) {
      if (u() < 0.7) wait((30 + u() * 150) * MIN);
      else {
        wait((18 + u() * 30) * HOUR);
        steps.push(talk());
        wait((1 + u() * 3) * DAY);
      }
      steps.push({ move: 'sell', at: t, by: rep, sale: saleFacts(u) });
    } else
      loseOrKeep(0.85, 2, 20, [
        [0.4, 'Bought elsewhere'],
        [0.3, 'Credit'],
        [0.3, 'Not in market'],
      ]);
  };

  wait((20 + u() * 570) * SEC);
  steps.push({ move: 'accept', at: t, by: rep });
  if (u() >= 0.85) {
    // Never reached by any logged contact: a duplicate the desk closes, or no answer to anything.
    if (u() < 0.25) {
      wait((1 + u() * 5) * HOUR);
      steps.push({ move: 'lose', at: t, by: boss, reason: reasonOf(y.lostReasons, 'Duplicate', u()) });
    } else {
      wait((3 + u() * 7) * DAY);
      lose([[1, 'No response']]);
    }
    return steps;
  }
  wait(u() < 0.85 ? (1 + u() * 40) * MIN : (12 + u() * 10) * HOUR);
  const reached = u() < 0.9;
  const tries = reached
    ? weighted(
        [
          [0.55, 0],
          [0.3, 1],
          [0.15, 2],
        ],
        u(),
      )
    : 1 + Math.floor(u() * 3);
  for (let i = 0; i < tries; i++) {
    steps.push(attempt());
    wait((2 + u() * 22) * HOUR);
  }
  if (!reached) {
    loseOrKeep(0.92, 5, 15, [[1, 'No response']]);
    return steps;
  }
  steps.push(talk());
  if (u() >= 0.588) {
    loseOrKeep(0.9, 3, 30, [
      [0.45, 'Not in market'],
      [0.35, 'Bought elsewhere'],
      [0.2, 'No response'],
    ]);
    return steps;
  }
  if (u() < 0.4) {
    // Set on a later call.
    wait((20 + u() * 28) * HOUR);
    steps.push(talk());
  }
  appoint();
  if (u() < 0.66) {
    shown();
    return steps;
  }
  noShow();
  if (u() < 0.35) {
    wait((18 + u() * 30) * HOUR);
    steps.push(talk());
    appoint();
    if (u() < 0.6) shown();
    else {
      noShow();
      loseOrKeep(0.9, 3, 15, [
        [0.6, 'No response'],
        [0.4, 'Not in market'],
      ]);
    }
    return steps;
  }
  loseOrKeep(0.88, 3, 20, [
    [0.4, 'No response'],
    [0.3, 'Bought elsewhere'],
    [0.3, 'Not in market'],
  ]);
  return steps;
}

/** A customer on the lot: met in person at once; about a third buy that visit, some are lost later, the rest still worked. */
function walkInLife(a: Arrival, y: StoreYear): Step[] {
  const u = a.life;
  const { rep } = a;
  const boss = pick(y.desk, u());
  const steps: Step[] = [];
  let t = a.at + (10 + u() * 50) * SEC;
  steps.push({ move: 'accept', at: t, by: rep });
  t += (1 + u() * 2) * MIN;
  steps.push({ move: 'contact', at: t, by: rep, channel: 'In person', outcome: 'Talked', note: u() < 0.3 ? pick(CALL_NOTES, u()) : undefined });
  const tradeIn = u() < 0.4;
  const x = u();
  if (x < 0.3) {
    t += (40 + u() * 110) * MIN;
    steps.push({ move: 'sell', at: t, by: rep, sale: saleFacts(u) });
    a.desk = { tradeIn, worksheet: true, toManager: boss, timeOut: t + (10 + u() * 30) * MIN };
    return steps;
  }
  a.desk = { tradeIn, worksheet: u() < 0.5, toManager: u() < 0.4 ? boss : null, timeOut: a.at + (25 + u() * 95) * MIN };
  if (x < 0.6) {
    t += (2 + u() * 8) * DAY;
    const reason = weighted(
      [
        [0.4, 'Not in market'],
        [0.3, 'Credit'],
        [0.3, 'Bought elsewhere'],
      ],
      u(),
    );
    steps.push({ move: 'lose', at: t, by: rep, reason: reasonOf(y.lostReasons, reason, u()) });
  }
  return steps;
}

function saleFacts(u: () => number): SaleFacts {
  return {
    vehicleType: u() < 0.55 ? 'new' : 'used',
    frontGrossCents: Math.round((300 + u() * 4200) * 100),
    split: u() < 0.2 ? 'half' : 'full',
  };
}

/** How the present reads an up: draws its life never touches. */
const later = (a: Arrival, k: number) => a.later[k];

/**
 * The part of a life that has happened: the steps planned before its age, decided by the day it
 * came in (not the hour the demo is made), so the funnel reads the same whenever it is seeded.
 * A step planned after now happened just before it; a showing moved so, its appointment too.
 */
function cut(a: Arrival, steps: Step[], now: number): Step[] {
  if (a.fresh) return [];
  const age = a.d === 0 ? 2 * HOUR : a.d * DAY - 2.5 * HOUR;
  const kept = steps.filter((s) => s.at - a.at < age);
  let limit = now - 30 * SEC;
  for (let i = kept.length - 1; i >= 0; i--) {
    if (kept[i].at > limit) kept[i].at = limit;
    limit = kept[i].at - 15 * SEC;
  }
  kept.forEach((s, i) => {
    if (s.move !== 'show' && s.move !== 'noShow') return;
    const j = kept.findLastIndex((p, k) => k < i && p.move === 'appoint');
    const set = kept[j];
    if (set?.move === 'appoint' && set.when > s.at) set.when = s.at - Math.min(10 * MIN, (s.at - set.at) / 2);
  });
  return kept;
}

const isClosed = (steps: Step[]) => steps.some((s) => s.move === 'sell' || s.move === 'lose');

/** How busy a salesman's present is: overdue follow-ups (0–3), follow-ups due later today, appointments moved to today. */
interface Present {
  overdue: number;
  dueToday: number;
  appointmentsToday: number;
}

/**
 * A salesman's open leads as a believable present: the newest leads no one tried stay overdue
 * (the rest were tried once: decided by age, not by the hour); a showing or a no-show is
 * followed up by a call; an old lead still worked had a touch lately; then a few follow-ups are
 * overdue, a few due later today, a couple of appointments today, the others due in the days
 * ahead (the next follow-up picked on the last contact, as the contact form does).
 */
function presentOf(mine: Arrival[], y: StoreYear, p: Present) {
  const { clock } = y;
  const { now } = clock;
  const open = mine.filter((a) => !a.fresh && !isClosed(a.steps));
  const untried = open.filter((a) => a.d >= 1 && !a.steps.some((s) => s.move === 'contact')).sort((a, b) => b.at - a.at);
  const untriedKept = Math.min(untried.length, p.overdue, 2);
  for (const a of untried.slice(untriedKept)) {
    const at = Math.min(a.at + (1 + later(a, 0) * 4) * HOUR, now - MIN);
    a.steps.push({ move: 'contact', at, by: a.rep, channel: 'Call', outcome: later(a, 1) < 0.5 ? 'No answer' : 'Left message' });
  }
  const touch = (a: Arrival, at: number) => {
    const c = later(a, 2);
    a.steps.push({
      move: 'contact',
      at,
      by: a.rep,
      ...(c < 0.5 ? ({ channel: 'Call', outcome: 'Talked' } as const) : ({ channel: 'Text', outcome: null } as const)),
    });
  };
  for (const a of open) {
    const last = a.steps.at(-1);
    if (!last) continue;
    if (last.move === 'appoint') {
      if (last.when < now + 15 * MIN) last.when = clock.at(-1, 10 * 60 + Math.floor(later(a, 3) * 28) * 15);
    } else if (last.move !== 'accept' && last.at < now - 14 * DAY) touch(a, now - (1 + later(a, 3) * 9) * DAY);
    else if ((last.move === 'show' || last.move === 'noShow') && last.at + y.nextFollowUpHours * HOUR < now + 2 * HOUR)
      touch(a, last.at + (now - last.at) * (0.3 + 0.5 * later(a, 3)));
  }

  const lastOf = (a: Arrival) => a.steps[a.steps.length - 1];
  const endOfToday = clock.start(-1);
  const appointed = open.filter((a) => lastOf(a).move === 'appoint').sort((a, b) => a.at - b.at);
  let slot = Math.max(now + 45 * MIN, clock.at(0, 9 * 60 + 30));
  slot = Math.ceil(slot / (15 * MIN)) * 15 * MIN;
  for (const a of appointed.slice(0, p.appointmentsToday)) {
    const s = lastOf(a);
    if (s.move !== 'appoint' || slot > clock.at(0, 20 * 60) || slot >= endOfToday) break;
    s.when = slot;
    slot += 75 * MIN;
  }

  // The rest of the open leads' follow-ups are the salesman's to pick, on his last contact.
  const pickable = open.filter((a) => lastOf(a).move === 'contact').sort((a, b) => later(a, 4) - later(b, 4));
  const stale = pickable.filter((a) => lastOf(a).at <= now - DAY);
  const missed = new Set(stale.slice(0, Math.max(0, p.overdue - untriedKept)));
  const rest = pickable.filter((a) => !missed.has(a));
  const today = new Set(rest.slice(0, p.dueToday));
  const lo = now + Math.min(10 * MIN, (endOfToday - now) / 2);
  const hi = Math.max(lo, Math.min(endOfToday - SEC, Math.max(clock.at(0, 19 * 60 + 30), lo + HOUR)));
  for (const a of pickable) {
    const s = lastOf(a);
    if (s.move !== 'contact') continue;
    const c = later(a, 5);
    if (missed.has(a)) s.nextFollowUp = Math.round(s.at + (now - s.at) * (0.5 + 0.4 * c));
    else if (today.has(a)) s.nextFollowUp = Math.round(lo + (hi - lo) * c);
    else s.nextFollowUp = clock.at(-1 - Math.floor(c * 10), 9 * 60 + Math.floor(later(a, 7) * 40) * 15);
  }
}

/**
 * A store's year of ups, day by day: the web leads (and on the desk log's days its walk-ins) of
 * each day in the order they came, round the salesmen working that day (each has a day off a
 * week, never today), be-backs to the salesman asked for. Then each one's life to now, and each
 * salesman's present. `random`: the demo's one source of draws; each up seeds its own from it.
 */
export function storeYear(y: StoreYear, random: () => number): Arrival[] {
  const { clock, onFloor, desk } = y;
  const { now } = clock;
  const shiftStart = Math.min(clock.at(0, 8 * 60), now - 2 * HOUR);
  const all: Arrival[] = [];
  let turn = 0;
  for (let d = DAYS; d >= 0; d--) {
    const working = onFloor.filter((_, i) => d === 0 || (d + i) % 7 !== 0);
    const web = y.leadsPerDay[0] + Math.floor(random() * y.leadsPerDay[1]);
    const walkIns = d < DESK_DAYS ? y.walkInsPerDay[0] + Math.floor(random() * y.walkInsPerDay[1]) : 0;
    const day: Arrival[] = [];
    for (let i = 0; i < web + walkIns; i++) {
      const own = ownDraws(Math.floor(random() * 4294967296));
      const r = Array.from({ length: 8 }, own);
      const kind = i < web ? 'web' : 'walkIn';
      const fresh = d === 0 && kind === 'web' && i >= web - 2;
      const at =
        d > 0
          ? kind === 'web'
            ? clock.at(d, 8 * 60 + 45 + r[0] * 11.5 * 60)
            : clock.at(d, 10 * 60 + r[0] * 9 * 60)
          : fresh
            ? now - (i === web - 1 ? 3 : 7) * MIN
            : shiftStart + 15 * MIN + r[0] * Math.max(0, now - 10 * MIN - (shiftStart + 15 * MIN));
      day.push({
        d,
        at,
        kind,
        beBack: kind === 'walkIn' && r[5] < 0.15,
        fresh,
        rep: onFloor[0],
        by: pick(desk, r[7]),
        customer: `${pick(FIRST, r[1])} ${pick(LAST, r[2])}`,
        vehicle: pick(y.vehicles, r[3]),
        source: kind === 'web' ? weighted(SOURCES, r[4]) : WALK_IN,
        later: Array.from({ length: 8 }, own),
        life: own,
        steps: [],
        desk: null,
      });
    }
    day.sort((a, b) => a.at - b.at);
    for (const a of day) a.rep = a.beBack ? pick(working, a.later[6]) : working[turn++ % working.length];
    all.push(...day);
  }
  for (const a of all) a.steps = cut(a, a.kind === 'web' ? webLife(a, y) : walkInLife(a, y), now);
  for (const rep of onFloor) {
    const p = {
      overdue: weighted(
        [
          [0.3, 0],
          [0.35, 1],
          [0.25, 2],
          [0.1, 3],
        ],
        random(),
      ),
      dueToday: 2 + Math.floor(random() * 4),
      appointmentsToday: Math.floor(random() * 3),
    };
    presentOf(
      all.filter((a) => a.rep.id === rep.id),
      y,
      p,
    );
  }
  // Planned on the wall clock; kept as the moments they were.
  const at = clock.instant;
  for (const a of all) {
    a.at = at(a.at);
    for (const s of a.steps) {
      s.at = at(s.at);
      if (s.move === 'appoint') s.when = at(s.when);
      if (s.move === 'contact' && s.nextFollowUp !== undefined) s.nextFollowUp = at(s.nextFollowUp);
    }
    if (a.desk?.timeOut) a.desk.timeOut = at(a.desk.timeOut);
  }
  return all;
}

/**
 * Everyone on the floor clocking in and out, as the app records it (the audit log's 'on duty' and
 * 'off duty'): a month and a bit back, each working day from about 8 to about 9 at night, today
 * since the morning (or two hours ago, seeded before the day began), mostly by himself, now and
 * then by his manager. Days off as the ups had them.
 */
export function clockIns(y: StoreYear, random: () => number, days = 35) {
  const { clock, onFloor, desk } = y;
  const { now } = clock;
  const shiftStart = Math.min(clock.at(0, 8 * 60), now - 2 * HOUR);
  const rows: { user: Who; by: Who; on: boolean; at: number }[] = [];
  for (let d = days; d >= 0; d--) {
    onFloor.forEach((rep, i) => {
      const [a, b, c] = [random(), random(), random()];
      if (d > 0 && (d + i) % 7 === 0) return;
      const by = c < 0.15 ? desk[desk.length - 1] : rep;
      if (d === 0) rows.push({ user: rep, by, on: true, at: clock.instant(shiftStart - a * 10 * MIN) });
      else {
        rows.push({ user: rep, by, on: true, at: clock.instant(clock.at(d, 8 * 60 + a * 40)) });
        rows.push({ user: rep, by: rep, on: false, at: clock.instant(clock.at(d, 20 * 60 + 30 + b * 45)) });
      }
    });
  }
  return rows;
}

/**
 * Sales no lead led to: customers who bought on the spot before the desk logged them, and the year
 * before the demo's leads (sales logged before the portal had leads), at about the pace of the
 * year since, so "vs last year" compares like with like. `rates`: such sales a salesman on the
 * floor makes a day, in the leads' year and the year before; `share`: his part of that here.
 */
export function salesWithoutLeads(
  y: Pick<StoreYear, 'clock'>,
  sellers: { rep: Who; share: number }[],
  rates: { now: number; before: number },
  random: () => number,
) {
  const out: { rep: Who; at: number; date: string; customer: string; sale: SaleFacts }[] = [];
  for (const { rep, share } of sellers) {
    const own = ownDraws(Math.floor(random() * 4294967296));
    for (let d = 2 * DAYS; d >= 0; d--) {
      if (own() >= share * (d > DAYS ? rates.before : rates.now)) continue;
      const r = Array.from({ length: 6 }, own);
      const at = y.clock.instant(Math.min(y.clock.at(d, 10 * 60 + r[0] * 9 * 60), y.clock.now - MIN));
      let i = 3;
      out.push({ rep, at, date: y.clock.key(d), customer: `${pick(FIRST, r[1])} ${pick(LAST, r[2])}`, sale: saleFacts(() => r[i++]) });
    }
  }
  return out;
}
