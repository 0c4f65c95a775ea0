import { z } from 'zod';
import { STAGES } from '../stages';
import { businessHoursSchema } from '../rules';
import { routingSchema } from '../routing';
import { choicesSchema } from '../notices';
import { funnelFigures } from '../funnel';

/**
 * What the API answers, one schema per shape. The server's mappers must produce these (the test
 * build checks every answer against them) and the web takes its types from them.
 */

const iso = z.iso.datetime({ offset: true });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const role = z.enum(['manager', 'staff']);

export const ok = z.object({ ok: z.literal(true) });

/** Every answer that is not 2xx. */
export const refusal = z.object({
  error: z.string().meta({ description: 'What went wrong, for a person to read.' }),
  code: z.string().optional().meta({ description: 'A stable name for the error where a client acts on it, e.g. invalid-action-code.' }),
  field: z.string().optional().meta({ description: 'The input field the error is about (its path, dot-joined), e.g. email.' }),
});

export const profile = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role,
  active: z.boolean(),
  onDuty: z.boolean(),
  snoozeUntil: iso.nullable(),
  disabled: z.boolean(),
  deletedAt: iso.nullable(),
  greeting: z.string().nullable(),
  signedInAt: iso.nullable(),
  createdAt: iso,
  updatedAt: iso,
});

/** A rooftop of the group (domain/stores.ts). */
export const store = z.object({ id: z.number().int(), code: z.string(), name: z.string(), timezone: z.string() });

/** The specification's in-app session user, with the stores he may open and the one he chose last. */
export const sessionUser = z.object({
  uid: z.string(),
  email: z.string(),
  name: z.string(),
  claimRole: role.nullable(),
  profileRole: role,
  role,
  isManager: z.boolean(),
  /** A group manager: every store, and the group's screens. */
  groupManager: z.boolean(),
  stores: z.array(store),
  /** The code of the store his screens open in: the one he chose last, else his first. */
  store: z.string().nullable(),
  profile,
});
export const session = z.object({ user: sessionUser });

export const storeList = z.object({ stores: z.array(store), can: z.object({ add: z.boolean() }) });
export const oneStore = z.object({ store });

/** A store's floor at a glance, for a group manager's group screen. */
export const storeGlance = z.object({
  store,
  nextUp: z.object({ id: z.string(), name: z.string() }).nullable(),
  inLine: z.number().int(),
  waiting: z.number().int(),
  pending: z.number().int(),
  upsToday: z.number().int(),
});
export const groupView = z.object({ stores: z.array(storeGlance), unassigned: z.number().int() });

/** A dealer mapped to a store: a group key's leads naming it go there. */
export const dealerMapping = z.object({ id: z.number().int(), dealer: z.string(), store: store.pick({ code: true, name: true }) });
export const dealerMappings = z.object({ dealers: z.array(dealerMapping) });
/** moved: the leads that were waiting under that dealer and went to the store with it. */
export const dealerMapped = z.object({ moved: z.number().int() });
/** A lead of a group key that waits for a store: no mapping claims its dealer (named, '' when it sent none). */
export const storeless = z.object({
  id: z.number().int(),
  customer: z.string(),
  vehicle: z.string(),
  source: z.string(),
  dealer: z.string(),
  /** What to map to send this dealer's leads to a store: its id, else its name ('' when it sent neither). */
  mapAs: z.string(),
  receivedAt: z.string(),
});
export const storelessList = z.object({ leads: z.array(storeless) });

/** A person as a manager sees him; configured: a manager by MANAGER_EMAILS; pendingEmail: a new address waiting for its owner's confirmation. */
export const managedUser = profile.extend({
  configured: z.boolean(),
  groupManager: z.boolean(),
  /** The codes of the stores he belongs to (a group manager has them all). */
  stores: z.array(z.string()),
  pendingEmail: z.string().nullable(),
  /** Where the link that makes the pending address his went: the new address, or his current one. */
  pendingLinkTo: z.string().nullable(),
  /** Whose link a new address would need (domain/users.ts confirmedBy). */
  emailConfirmedBy: z.enum(['new', 'old']),
  /** What the reading manager may do to him now (server/users/present.ts personCan). */
  can: z.object({
    edit: z.boolean(),
    changeName: z.boolean(),
    changeEmail: z.boolean(),
    changeRole: z.boolean(),
    disable: z.boolean(),
    enable: z.boolean(),
    delete: z.boolean(),
    restore: z.boolean(),
    signOut: z.boolean(),
  }),
});
export const emailConfirmed = z.object({ email: z.string() });
/** Settings → Signed-in devices: each of his sessions; `current` is the one asking. */
export const signedInDevices = z.object({
  sessions: z.array(
    z.object({
      sid: z.string(),
      device: z.string(),
      how: z.string(),
      place: z.string(),
      lastSeenAt: iso.nullable(),
      signedInAt: iso,
      current: z.boolean(),
    }),
  ),
});
/** How many sessions a sign-out ended. */
export const signedOut = z.object({ ended: z.number().int() });
export const userList = z.object({ users: z.array(managedUser) });
export const oneUser = z.object({ user: managedUser });
/** What a change did, field by field, as an audit entry stores it. */
export const fieldChanges = z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }));
export const auditList = z.object({
  entries: z.array(
    z.object({
      id: z.number().int(),
      action: z.string(),
      actorName: z.string(),
      actorEmail: z.string().nullable(),
      changes: fieldChanges,
      at: iso,
    }),
  ),
});

export const logEntry = z.object({
  id: z.number().int(),
  type: z.enum(['assign', 'skip', 'beback', 'closed', 'reorder']),
  customer: z.string().nullable(),
  targetId: z.string(),
  targetName: z.string(),
  /** A skip's reason; an assign's only when a manager named the salesman (an override): why; a reorder's move ("moved from #3 to #2"). */
  reason: z.string().nullable(),
  managerName: z.string(),
  pointerPosAfter: z.number().int(),
  createdAt: iso,
  /** A manager marked the up "No customer" (domain/grabs.ts): it does not count, and the salesman kept his turn. */
  noCustomer: z.boolean().optional(),
});

export const rotationView = z.object({
  pointerPos: z.number().int(),
  nextUp: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The eligible salesmen in the order they will be served; place 1 is Next Up. */
  queue: z.array(z.object({ id: z.string(), name: z.string(), place: z.number().int().positive(), active: z.boolean(), onDuty: z.boolean() })),
  /**
   * Everyone on the team: first the line (place 1, Next Up, on), then those not in line, in the
   * circle's order from the pointer; place is null for them, and notInLine says why.
   */
  team: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      active: z.boolean(),
      onDuty: z.boolean(),
      snoozeUntil: iso.nullable(),
      eligible: z.boolean(),
      place: z.number().int().positive().nullable(),
      /** Why he is not in line ("Off duty", "Snoozed", "Held out: 2 past-due follow-ups"); null when he is. */
      notInLine: z.string().nullable(),
      /** How many past-due follow-ups hold him out of the rotation (the hold-out rule); 0 otherwise. */
      pastDueCount: z.number().int().nonnegative(),
      /** Those follow-ups, for a manager and for the salesman himself; empty for anyone else. */
      pastDue: z.array(z.object({ id: z.number().int(), customer: z.string() })),
      /** Ups per turn of the line (1–5) and his caps (null: none). */
      weight: z.number().int(),
      dailyCap: z.number().int().nullable(),
      openCap: z.number().int().nullable(),
    }),
  ),
  /** Leads waiting for their salesman's Accept on the clock, soonest due first: every one for a manager, a salesman's own for him. */
  pending: z.array(
    z.object({
      leadId: z.number().int(),
      customer: z.string(),
      salesman: z.object({ id: z.string(), name: z.string() }),
      acceptDue: iso,
    }),
  ),
  log: z.array(logEntry),
  /** When a snooze ends and the queue changes by itself. */
  nextChangeAt: iso.nullable(),
});

/** A manager's move in the line, confirmed: whom he moved and his place now (#1 is Next Up). */
export const reordered = z.object({ id: z.string(), name: z.string(), place: z.number().int().positive() });

export const assigned = z.object({
  leadId: z.number().int(),
  customer: z.string(),
  /** null: kept unassigned because no one was eligible. */
  assignedTo: z.object({ id: z.string(), name: z.string() }).nullable(),
  pointerPos: z.number().int(),
  duplicate: z.boolean(),
});
export const skipped = z.object({ snoozeUntil: iso, pointerPos: z.number().int() });
export const duty = z.object({ ok: z.literal(true), onDuty: z.boolean() });

export const lead = z.object({
  id: z.number().int(),
  customer: z.string(),
  /** null: no one was eligible; the lead waits in the Unassigned view. */
  assignedTo: z.string().nullable(),
  assignedToName: z.string(),
  assignedByName: z.string(),
  assignedAt: iso,
  status: z.enum(['new', 'handed', 'closed']),
  /** Where it is in its life (domain/stages.ts STAGE_LABELS names it). */
  stage: z.enum(STAGES),
  /** Why it was lost (null unless Lost). */
  lostReason: z.string().nullable(),
  /** Its appointment, on the dealership's clock when shown; null: none set (or it was a no-show). */
  appointmentAt: iso.nullable(),
  followUpDue: iso,
  overdue: z.boolean(),
  closed: z.boolean(),
  source: z.string(),
  closedAt: iso.nullable(),
  closedById: z.string().nullable(),
  closedByName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  vehicle: z.string().nullable(),
  vin: z.string().nullable(),
  comments: z.string().nullable(),
  /** The vehicle the customer trades in (ADF interest="trade-in"). */
  tradeIn: z.object({ year: z.string(), make: z.string(), model: z.string(), odometer: z.string() }).nullable(),
  /** The sender gave no name: the customer is a placeholder for the salesman to fill in. */
  nameMissing: z.boolean(),
  /** It came in as an ADF document, which a manager may read. */
  hasDocument: z.boolean(),
  /** Its salesman has not accepted it yet (leads from before Accept existed never wait). */
  waiting: z.boolean(),
  /** When it is handed on if he does not accept it; null when the response window is off. */
  acceptDue: iso.nullable(),
  /** Up for grabs (a routing rule's claim pool, domain/grabs.ts): until when salesmen may claim it; null otherwise. */
  grabUntil: iso.nullable(),
  acceptedAt: iso.nullable(),
  firstContactAt: iso.nullable(),
  handoffs: z.number().int(),
  /** Handed on too often: it waits in Unassigned for a manager to hand it out. */
  parked: z.boolean(),
  /** A returning customer asked for this salesman. */
  beBack: z.boolean(),
  /** What the reader may do to it now, as the server's policy says (server/leads/policy.ts leadCan). */
  can: z.object({
    lose: z.boolean(),
    sell: z.boolean(),
    appoint: z.boolean(),
    markShown: z.boolean(),
    reopen: z.boolean(),
    name: z.boolean(),
    accept: z.boolean(),
    contact: z.boolean(),
    handOut: z.boolean(),
    timeline: z.boolean(),
    document: z.boolean(),
  }),
});
export const leadPage = z.object({ leads: z.array(lead), nextCursor: z.string().nullable() });
export const oneLead = z.object({ lead });
/** Today's appointments on the store's clock, soonest first. */
export const leadList = z.object({ leads: z.array(lead) });
/** The ADF document a lead came in, as the sender sent it (decoded text). */
export const leadDocument = z.object({ document: z.string() });
export const timelineEntry = z.object({
  /** `notice`: a push, text or mail to a salesman (server/notices), its delivery in `note` ("Push sent 9:02:03"), to `targetName`. */
  type: z.enum([
    'assigned',
    'accepted',
    'handed_on',
    'parked',
    'contacted',
    'closed',
    'reopened',
    'appointment_set',
    'shown',
    'no_show',
    'sold',
    'lost',
    'notice',
  ]),
  /** Who did it (the manager or "Rotation" for an assign; the salesman otherwise). */
  actorName: z.string(),
  /** For an assign: who got it. */
  targetName: z.string().nullable(),
  channel: z.string().nullable(),
  /** A contact's outcome. */
  outcome: z.string().nullable(),
  /** Why a lead was lost. */
  reason: z.string().nullable(),
  /** The time an appointment was set for. */
  appointmentAt: iso.nullable(),
  note: z.string().nullable(),
  at: iso,
});
export const timeline = z.object({ entries: z.array(timelineEntry) });

const spread = z.object({ count: z.number().int(), median: z.number().nullable(), p90: z.number().nullable() });
const speedRow = { accept: spread, contact: spread, handoffs: z.number().int() };
const speedPeriod = z.object({ team: z.object(speedRow), associates: z.array(z.object({ id: z.string(), name: z.string(), ...speedRow })) });
/** Time to accept and to first contact (seconds) and hand-offs, today and month to date in APP_TIMEZONE. */
export const speed = z.object({ today: speedPeriod, month: speedPeriod });

export const rules = z.object({
  responseWindowMinutes: z.number().int(),
  followUpHours: z.number().int(),
  skipSnoozeMinutes: z.number().int(),
  checkInOrder: z.boolean(),
  holdOut: z.boolean(),
  businessHours: businessHoursSchema,
  nextFollowUpHours: z.number().int(),
  saleCheckAbove: z.number().int(),
  lostReasons: z.array(z.string()),
  notify: choicesSchema,
  routing: routingSchema,
});
export const rulesAnswer = z.object({
  rules,
  /** Whether the reader may change them (a manager). */
  can: z.object({ change: z.boolean() }),
  /** The latest changes, newest first; managers only (empty for salesmen). */
  history: z.array(z.object({ actorName: z.string(), at: iso, changes: fieldChanges })),
});

/** A store's teams, each with its line's people in order, and each salesman's weight and caps (Manager → Routing rules). */
export const routingAdmin = z.object({
  teams: z.array(z.object({ id: z.number().int(), name: z.string(), members: z.array(z.object({ id: z.string(), name: z.string() })) })),
  people: z.array(
    z.object({ id: z.string(), name: z.string(), weight: z.number().int(), dailyCap: z.number().int().nullable(), openCap: z.number().int().nullable() }),
  ),
  routing: routingSchema,
  /** Whether the reader may change them (a manager). */
  can: z.object({ change: z.boolean() }),
});
export type RoutingAdmin = z.infer<typeof routingAdmin>;

/** Where a sample lead would go now, nothing assigned: the rule it meets (index from 0), its line, that line's Next Up, in words. */
export const routingTried = z.object({
  rule: z.object({ index: z.number().int(), name: z.string() }).nullable(),
  line: z.union([z.object({ team: z.object({ id: z.number().int(), name: z.string() }) }), z.literal('floor')]),
  wouldGet: z.object({ id: z.string(), name: z.string() }).nullable(),
  why: z.string(),
});
export type RoutingTried = z.infer<typeof routingTried>;

/** A person's availability in a store (Availability card): his own hours, his time off not yet over, why he is out now. */
export const availability = z.object({
  person: z.object({ id: z.string(), name: z.string() }),
  /** Seven days, Sunday first; null: whenever the store is open. */
  hours: businessHoursSchema,
  /** `everywhere`: it holds in every store he works in (his own, a group manager's); else in this store alone (its manager's). */
  timeOff: z.array(z.object({ id: z.number(), fromDay: day, toDay: day, note: z.string().nullable(), text: z.string(), everywhere: z.boolean() })),
  /** Why he is out of every line now ("Off Nov 28–30", "Off schedule"); null: he is available. */
  away: z.string().nullable(),
  /** Today on the store's clock. */
  today: day,
});
export type Availability = z.infer<typeof availability>;

export const myCounts = z.object({
  assignedToday: z.number().int(),
  assignedMonth: z.number().int(),
  /** The same weekday last week up to this time, and last month up to the same point: for comparison. */
  sameDayLastWeek: z.number().int(),
  lastMonthSoFar: z.number().int(),
});

const kpiCounts = { received: z.number(), closed: z.number(), skips: z.number(), beBacks: z.number(), closePct: z.number().nullable() };
export const associateKpi = z.object({ id: z.string(), name: z.string(), ...kpiCounts });
export const kpis = z.object({
  days: z.number().int(),
  associates: z.array(associateKpi),
  average: z.object(kpiCounts),
  skipReasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  speed,
  /** Time from assign to the first notice that reached the salesman, the store's leads of these days (domain/kpis.ts firstNotice). */
  firstNotice: z.object({ count: z.number().int(), medianMs: z.number().nullable(), p90Ms: z.number().nullable() }),
});

const floorRow = {
  ups: z.number().int(),
  beBacks: z.number().int(),
  skips: z.number().int(),
  skipReasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  handoffs: z.number().int(),
  /** Median seconds; null when nothing to measure. */
  acceptMedian: z.number().nullable(),
  contactMedian: z.number().nullable(),
  closed: z.number().int(),
  appointments: z.number().int(),
  sold: z.number().int(),
};
/** One day's floor report (domain/report.ts) and when the floor closed that day (null: not by the clock). */
export const floorReportAnswer = z.object({
  report: z.object({ day, associates: z.array(z.object({ id: z.string(), name: z.string(), ...floorRow })), team: z.object(floorRow) }),
  closedAt: iso.nullable(),
});
export const reportSent = z.object({ day, sent: z.number().int() });

const kpiSum = z.object({
  received: z.number().int(),
  closed: z.number().int(),
  skips: z.number().int(),
  beBacks: z.number().int(),
  closePct: z.number().nullable(),
});
const floorSum = z.object({ ups: z.number().int(), beBacks: z.number().int(), skips: z.number().int(), handoffs: z.number().int(), closed: z.number().int() });
const salesSum = z.object({ units: z.number().int(), grossCents: z.number().int(), commissionCents: z.number().int() });
/** The group report (domain/group-report.ts): each chosen store's lead KPIs, floor day and month of sales, the group's total, and the salesmen's month across those stores. */
export const groupReport = z.object({
  days: z.number().int(),
  stores: z.array(
    z.object({
      store: z.object({ code: z.string(), name: z.string() }),
      kpis: kpiSum,
      /** The floor's day on the store's own clock. */
      floor: floorSum.extend({ day }),
      /** This month (YYYY-MM) on the store's own clock. */
      sales: salesSum.extend({ month: z.string() }),
      /** The funnel of this month's leads so far (from..to) on the store's own clock. */
      funnel: funnelFigures.extend({ from: day, to: day }),
    }),
  ),
  /** The funnel's total: the stores' counts summed, the % from the sums, the median of all their leads' times. */
  total: z.object({ kpis: kpiSum, floor: floorSum, sales: salesSum, funnel: funnelFigures }),
  salesmen: z.array(salesSum.extend({ id: z.string(), name: z.string(), stores: z.array(z.string()) })),
});

const plan = z.object({ type: z.enum(['flat', 'percent']), percent: z.number().nullable(), flat: z.number().nullable(), split: z.number() });
export const sale = z.object({
  id: z.number().int(),
  date: day,
  vehicleType: z.enum(['new', 'used']),
  frontGrossCents: z.number().int(),
  split: z.enum(['full', 'half']),
  plan,
  planLabel: z.string(),
  commissionCents: z.number().int(),
  repName: z.string(),
  /** The customer who bought (null for a sale logged before sales named them). */
  customer: z.string().nullable(),
  /** The lead it closed; null: a walk-in sold on the spot, or logged before sales had leads. */
  leadId: z.number().int().nullable(),
  createdAt: iso,
  /** What the reader may do to it: his own sales only (server/sales/policy.ts saleCan). */
  can: z.object({ edit: z.boolean(), delete: z.boolean() }),
});
/** Sold: the lead, now Sold, and the sale stored with it. */
export const soldLead = z.object({ lead, sale });
const totals = z.object({ units: z.number().int(), grossCents: z.number().int(), commissionCents: z.number().int() });
export const tracker = z.object({
  today: day,
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  readOnly: z.boolean(),
  sales: z.array(sale),
  figures: z.object({ mtd: totals, ytd: totals, monthProjectionCents: z.number().int(), yearProjectionCents: z.number().int() }),
  daily: z.array(z.object({ day, commission: z.number() })),
  monthly: z.array(z.object({ month: z.string(), gross: z.number() })),
  salesmen: z.array(z.object({ id: z.string(), name: z.string(), email: z.string() })).optional(),
});

/** The team sales board (domain/board.ts): a row per salesman of the store, the team's total, its figures and charts; managers only. */
const closing = z.object({ sold: z.number().int(), received: z.number().int(), pct: z.number().int().nullable() });
const boardLine = z.object({
  mtd: totals,
  ytd: totals,
  /** Units (until sales name their lead) over leads assigned in the period. */
  closing: z.object({ mtd: closing, ytd: closing }),
  /** Units by the month's last day at this month's rate, to a tenth. */
  pace: z.number(),
  lastSale: day.nullable(),
  daysSinceLastSale: z.number().int().nullable(),
});
export const salesBoard = z.object({
  today: day,
  rows: z.array(boardLine.extend({ id: z.string(), name: z.string() })),
  team: boardLine,
  figures: tracker.shape.figures,
  /** The team's month and year so far a month and a year before (the figures' comparison). */
  before: z.object({ lastMonth: totals, lastYear: totals }),
  daily: tracker.shape.daily,
  monthly: tracker.shape.monthly,
});

/** A salesman's tracker over every store of his, read-only: each sale names its store. */
export const allMySales = tracker.omit({ salesmen: true }).extend({ sales: z.array(sale.extend({ store: z.string() })), stores: z.array(store) });

export const notes = z.object({ notes: z.string() });
export const weather = z.object({ temperatureF: z.number(), code: z.number().int(), label: z.string() });

export const apiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  createdAt: iso,
  lastUsedAt: iso.nullable(),
  revokedAt: iso.nullable(),
});
export const keyList = z.object({ keys: z.array(apiKey) });
/** The key itself is shown once, here, and never again. */
export const createdKey = z.object({ key: z.string(), apiKey });
export const revokedKey = z.object({ apiKey });

/** What POST /v1/leads answers: one entry per lead (JSON) or per prospect (ADF), in the order sent. */
export const intakeResult = z.object({
  leads: z.array(
    z.object({
      id: z.number().int().nullable().meta({ description: 'null for a refused prospect.' }),
      customer: z.string(),
      status: z.enum(['assigned', 'unassigned', 'duplicate', 'refused']).meta({
        description:
          'unassigned: no one is eligible now; the lead waits and is handed out first when someone is. refused: this prospect was not stored (see error).',
      }),
      error: z.string().optional().meta({ description: 'Why this prospect was refused.' }),
      assignedTo: z.string().nullable().meta({ description: 'The salesman the lead went to.' }),
    }),
  ),
});

export type Profile = z.infer<typeof profile>;
export type SessionUser = z.infer<typeof sessionUser>;
export type ManagedUser = z.infer<typeof managedUser>;
export type RotationView = z.infer<typeof rotationView>;
export type LogEntry = z.infer<typeof logEntry>;
export type Lead = z.infer<typeof lead>;
export type Sale = z.infer<typeof sale>;
export type Tracker = z.infer<typeof tracker>;
export type SalesBoardAnswer = z.infer<typeof salesBoard>;
export type TimelineEntry = z.infer<typeof timelineEntry>;
export type Speed = z.infer<typeof speed>;
export type RulesAnswer = z.infer<typeof rulesAnswer>;
export type AssociateKpi = z.infer<typeof associateKpi>;
export type FloorReportAnswer = z.infer<typeof floorReportAnswer>;
export type GroupReport = z.infer<typeof groupReport>;
export type ApiKeyInfo = z.infer<typeof apiKey>;

/** A lead address (Manager → Integrations) and what came in today; `configured`: set in INBOUND_ADDRESSES, removed only there. */
export const leadAddress = z.object({
  id: z.number().int(),
  address: z.string(),
  group: z.boolean(),
  configured: z.boolean(),
  lastMessageAt: iso.nullable(),
  today: z.number().int(),
  errors: z.number().int(),
});
export const leadAddresses = z.object({
  addresses: z.array(leadAddress),
  /** The SMTP receiver, when INBOUND_SMTP_PORT is set; the IMAP mailbox, when IMAP_URL is. */
  receiver: z.object({ port: z.number().int() }).nullable(),
  imap: z.object({ mailbox: z.string(), error: z.string().nullable() }).nullable(),
});
export const addedAddress = z.object({ address: leadAddress });

const madeLead = z.object({
  id: z.number().int().nullable(),
  customer: z.string(),
  status: z.enum(['assigned', 'unassigned', 'duplicate', 'refused']),
  assignedTo: z.string().nullable(),
  error: z.string().optional(),
});
/** A lead mail as listed for 30 days, with what became of it. */
export const mailMessage = z.object({
  id: z.number().int(),
  address: z.string(),
  from: z.string(),
  subject: z.string(),
  receivedAt: iso,
  state: z.enum(['received', 'taken', 'review', 'dismissed', 'failed', 'test']),
  leads: z.array(madeLead),
  /** Dismissed: the manager's reason; failed: what went wrong. */
  reason: z.string().nullable(),
  handledBy: z.string().nullable(),
});
export const mailList = z.object({ messages: z.array(mailMessage), toReview: z.number().int() });
/** One mail opened: the text a person reads, why nothing was taken, and the form's start. */
export const mailOpened = z.object({
  message: mailMessage.extend({
    fromName: z.string(),
    text: z.string(),
    problems: z.array(z.string()),
    prefill: z.object({ customer: z.string(), phone: z.string(), email: z.string(), vehicle: z.string(), comments: z.string() }),
  }),
});
export const mailHandled = z.object({ message: mailMessage });
