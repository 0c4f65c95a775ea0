import type { Insertable, Selectable } from 'kysely';
import type { StoreDb, Db, Dialect } from '../db';
import { reused, slot, slotsFor } from '../db/reuse';
import { withRotationLock } from '../db';
import type { LeadsTable } from '../db/schema';
import { ApiError, notFound } from '../http/errors';
import { LEFT, LEFT_TEXT, PENDING_ACCEPT, type Member } from '../../domain/rotation';
import { holds } from '../../domain/conditions';
import { customerFields, followUpDue, LEAD_SOURCE } from '../../domain/leads';
import { DEFAULT_RULES, type Rules } from '../../domain/rules';
import { beBack, override } from '../../domain/floor';
import { acceptDue } from '../../domain/speed';
import type { Actor } from '../../domain/users';
import type { Dealer } from '../../domain/dealers';
import { newLeadMail, type LeadMail } from '../leads/notify';
import type { Announcement } from '../events/bus';
import { assignOnPostgres } from './assign-postgres';
import { leadFacts, type SqlEnv } from './sql';
import { memberById, readState, slotted, sqlEnv, teamStaff, UNASSIGNED, waiting } from './queries';
import { FLOOR_WAY, lineQueue, nextIn, routes, served, wayOf, type Way } from './serve';
import { NO_TRAITS, route, type LeadTraits } from '../../domain/routing';
import { putInPool } from '../grabs/service';
import { GRAB_STAGES } from '../../domain/grabs';
import { logRotation } from './log';
import { once } from './replay';

/** A lead to hand out: a manager's walk-in is just a customer; an integration's has details. */
export interface NewLead {
  customer: string;
  phone?: string | null;
  email?: string | null;
  vehicle?: string | null;
  vin?: string | null;
  comments?: string | null;
  source?: string;
  /** A prospect id and who issued it: the same pair twice is one lead. */
  externalSource?: string | null;
  externalId?: string | null;
  /** Finds the lead this one repeats (inside the rotation transaction); without it the same prospect id is enough. */
  findRepeat?: (trx: Db) => Promise<{ id: number; customer: string; assigned_to: string; assigned_to_name: string } | undefined>;
  /** Intake details kept as they are: the folded customer name, a trade-in (JSON), a missing name, the document. */
  customerKey?: string | null;
  tradeIn?: string | null;
  nameMissing?: boolean;
  documentId?: number | null;
  /** The dealer a group key's lead named (domain/dealers.ts). */
  dealer?: Dealer;
  /** What the store's routing rules read of it beyond source and comments (domain/routing.ts LeadTraits). */
  traits?: Partial<LeadTraits>;
}

/** A new lead as its store's routing rules read it. */
const traitsOf = (l: NewLead): LeadTraits => ({ ...NO_TRAITS, ...l.traits, source: l.source ?? LEAD_SOURCE, comments: l.comments ?? '' });

export interface Assigned {
  leadId: number;
  customer: string;
  /** null: kept unassigned because no one was eligible. */
  assignedTo: { id: string; name: string } | null;
  pointerPos: number;
  /** The lead already existed (same prospect id from the same source). */
  duplicate: boolean;
}

/**
 * An assign's answer and, never part of an answer, what the salesman's mail says and whether the
 * assign already told open screens (`announce`, sent with its commit).
 */
export type Handed = Assigned & { replayed?: true; mail?: LeadMail; told?: true };

/**
 * Why an assign did nothing and asks to be called again: the rules it was given are no longer
 * the stored ones (read them again), or leads wait in Unassigned (hand them out first).
 */
export class AskAgain extends Error {
  constructor(readonly why: 'rules' | 'waiting') {
    super(`assign: ask again (${why})`);
  }
}

/** What an assign checks under the lock before acting (bdc_assign_next does the same on PostgreSQL). */
async function askFirst(trx: Db, dialect: Dialect, store: number, env: SqlEnv, rulesText: string | undefined, waitingFirst: boolean) {
  if (rulesText === undefined && !waitingFirst) return;
  const s = slotted(env);
  const [seen] = await reused(
    trx,
    dialect,
    `rules and waiting leads: ${s.key}`,
    () =>
      trx.selectNoFrom((eb) => [
        eb.selectFrom('stores').select('rules').where('id', '=', slot<number>('store')).as('rules'),
        eb.exists(waiting(trx, slot<number>('store'), s.env).select('id')).as('waiting'),
      ]),
    { store, ...s.values },
  );
  if (rulesText !== undefined && (seen.rules ?? '') !== rulesText) throw new AskAgain('rules');
  if (waitingFirst && seen.waiting) throw new AskAgain('waiting');
}

/**
 * Stores a new lead with its holder (null: it waits in Unassigned; with no store, in the group's
 * until a group manager or a dealer mapping gives it one); a be-back has no Accept window.
 */
export async function insertLead(
  trx: Db,
  dialect: Dialect,
  store: number | null,
  l: NewLead,
  holder: Member | null,
  by: Actor,
  now: Date,
  rules: Rules,
  beBack = false,
  way: Way = FLOOR_WAY,
) {
  const at = now.getTime();
  const ext = !!(l.externalSource && l.externalId);
  const due = {
    follow_up_due: followUpDue(now, rules.followUpHours).getTime(),
    accept_due: holder && !beBack ? (acceptDue(now, rules.responseWindowMinutes)?.getTime() ?? null) : null,
  };
  const row = {
    store_id: store,
    ...customerFields(l),
    assigned_to: holder?.id ?? UNASSIGNED,
    assigned_to_name: holder?.name ?? UNASSIGNED,
    assigned_by: by.id,
    assigned_by_name: by.name,
    assigned_at: at,
    status: holder ? 'handed' : 'new',
    follow_up_due: due.follow_up_due,
    closed: 0,
    closed_at: null,
    closed_by_id: null,
    closed_by_name: null,
    external_source: ext ? l.externalSource : null,
    external_id: ext ? l.externalId : null,
    customer_key: l.customerKey ?? null,
    trade_in: l.tradeIn ?? null,
    name_missing: l.nameMissing ? 1 : 0,
    document_id: l.documentId ?? null,
    offered_at: holder ? at : null,
    accept_due: due.accept_due,
    be_back: beBack ? 1 : 0,
    dealer: l.dealer?.name || null,
    dealer_ref: l.dealer?.id || null,
    team_id: way.team,
  } satisfies Insertable<LeadsTable>;
  // Built once (its 33 columns cost more to build than to store); every column is a value of this lead.
  const [made] = await reused(
    trx,
    dialect,
    `insert lead: ${Object.keys(row).join()}`,
    () => trx.insertInto('leads').values(slotsFor(row)).returning('id'),
    row,
  );
  return { id: Number(made.id), ...due };
}

/**
 * A be-back: the lead goes to the salesman the customer asks for (domain/floor.ts), logged as a
 * be-back; the pointer does not move, so no one loses a turn.
 */
export function assignBeBack(h: StoreDb, l: NewLead, askedFor: string, by: Actor, opts: { now?: Date; actionId?: string; rules?: Rules } = {}) {
  const now = opts.now ?? new Date();
  const { store } = h;
  return withRotationLock(h, (trx) =>
    once(trx, opts.actionId, { beBack: l, askedFor }, async (): Promise<Assigned> => {
      const state = await readState(trx, store);
      const r = beBack(await teamStaff(trx, store), askedFor, state.pointer_pos);
      if ('refusal' in r) throw new ApiError(409, r.refusal);
      const { id: leadId } = await insertLead(trx, h.dialect, store, l, r.to, by, now, opts.rules ?? DEFAULT_RULES, true);
      await logRotation(trx, { store, type: 'beback', customer: l.customer, target: r.to, by, pointer: r.pointer, leadId, at: now.getTime() });
      return { leadId, customer: l.customer, assignedTo: { id: r.to.id, name: r.to.name }, pointerPos: r.pointer, duplicate: false };
    }),
  );
}

/**
 * One transaction: read the pointer and the eligible, create the lead, log it, move the pointer.
 * With `keep`, a lead no one can take is stored unassigned instead of refused; with `wait` too,
 * it is stored unassigned whoever could take it. Given `rulesText` (the rules' stored text) or
 * `waitingFirst`, it first checks under the lock and throws AskAgain when the rules changed or
 * leads wait.
 */
export async function assignNext(
  h: StoreDb,
  lead: string | NewLead,
  by: Actor,
  opts: {
    now?: Date;
    keep?: boolean;
    actionId?: string;
    stepwise?: boolean;
    rules?: Rules;
    rulesText?: string;
    waitingFirst?: boolean;
    wait?: boolean;
    announce?: Announcement | null;
  } = {},
): Promise<Handed> {
  const l: NewLead = typeof lead === 'string' ? { customer: lead } : lead;
  const now = opts.now ?? new Date();
  const rules = opts.rules ?? DEFAULT_RULES;
  // PostgreSQL: the same steps in one round trip (assign-postgres.ts); `stepwise` keeps the
  // statement-by-statement transaction below (the benchmark's baseline).
  // Leads with a prospect id or intake details (the ADF repeat rule, trade-ins, documents) take the
  // stepwise path; the one-call function covers the plain lead a manager assigns.
  const plain = !l.externalId && !l.findRepeat && !l.tradeIn && !l.nameMissing && !l.documentId && !l.customerKey;
  // The routing rule is read here, on the lead alone; its team is looked up under the lock. A lead
  // that goes up for grabs takes the stepwise path, as does an up the one-call assign hands back.
  const hit = routes(rules.routing) ? route(rules.routing, traitsOf(l), now, h.tz ?? 'UTC') : null;
  const pooled = !!hit?.rule?.grab && hit.rule.grab.after === 0;
  const byStep = () => stepwise(h, l, by, { ...opts, now, rules, hit });
  if (h.dialect === 'postgres' && plain && !opts.stepwise && !opts.wait && !pooled) {
    const routed = hit ? { team: 'team' in hit.to ? hit.to.team : null, rule: hit.rule?.name ?? null } : undefined;
    const r = await assignOnPostgres(h, l, by, { ...opts, now, rules, routed }, byStep);
    if ('askAgain' in r) throw new AskAgain(r.askAgain);
    return r;
  }
  return byStep();
}

/** assignNext's transaction statement by statement, on either database. */
async function stepwise(
  h: StoreDb,
  l: NewLead,
  by: Actor,
  opts: Parameters<typeof assignNext>[3] & { now: Date; rules: Rules; hit: ReturnType<typeof route> | null },
): Promise<Handed> {
  const { now, rules, hit } = opts;
  const prospect = l.externalSource && l.externalId ? { source: l.externalSource, id: l.externalId } : null;
  let mail: LeadMail | undefined;
  const env = sqlEnv(now, rules, h.tz);
  const { store } = h;
  const answer = await withRotationLock(h, async (trx) => {
    await askFirst(trx, h.dialect, store, env, opts.rulesText, !!opts.waitingFirst);
    return once(trx, opts.actionId, { assign: l }, async (): Promise<Assigned> => {
      if (prospect) {
        const seen = l.findRepeat
          ? await l.findRepeat(trx)
          : await trx
              .selectFrom('leads')
              .selectAll()
              .where('store_id', '=', store)
              .where('external_source', '=', prospect.source)
              .where('external_id', '=', prospect.id)
              .executeTakeFirst();
        if (seen) {
          const to = seen.assigned_to ? { id: seen.assigned_to, name: seen.assigned_to_name } : null;
          return { leadId: Number(seen.id), customer: seen.customer, assignedTo: to, pointerPos: (await readState(trx, store)).pointer_pos, duplicate: true };
        }
      }
      // Which line: the rule the lead met (rules checked under the lock, askFirst) picks a team's or the whole floor's.
      const way = await wayOf(trx, h.dialect, store, hit);
      // `wait`: the floor is closed, so the lead waits in Unassigned for the morning; up for grabs, it waits for a claim.
      const { pointer, next, email, shape } =
        opts.wait || way.grab
          ? { pointer: (await readState(trx, store)).pointer_pos, next: null, email: '', shape: undefined }
          : await nextIn(trx, store, way.team, env, h.dialect, now, way.line);
      if (!next && !opts.keep && !way.grab) throw new ApiError(409, 'No eligible associates right now.');
      const stored = await insertLead(trx, h.dialect, store, l, next, by, now, rules, false, way);
      const leadId = stored.id;
      if (way.grab) await putInPool(trx, leadId, store, way.team, way.grab.minutes, GRAB_STAGES.first, now);
      if (!next) return { leadId, customer: l.customer, assignedTo: null, pointerPos: pointer, duplicate: false };
      const after = await served(trx, {
        store,
        dialect: h.dialect,
        way,
        next,
        pointer,
        leadId,
        customer: l.customer,
        by,
        now,
        env,
        backOfEveryLine: rules.routing.backOfEveryLine,
        shape,
      });
      mail = newLeadMail(leadId, l, { name: next.name, email }, stored.follow_up_due, stored.accept_due);
      return { leadId, customer: l.customer, assignedTo: { id: next.id, name: next.name }, pointerPos: after, duplicate: false };
    });
  });
  return mail ? { ...answer, mail } : answer;
}

/**
 * Gives a lead that waits in Unassigned to Next Up of its line (`pointer` is that line's), or,
 * `named`, to whom a manager named, and starts its Accept window.
 */
export async function give(
  trx: Db,
  h: Pick<StoreDb, 'dialect' | 'tz'>,
  lead: Selectable<LeadsTable>,
  next: Member,
  pointer: number,
  by: Actor,
  now: Date,
  rules: Rules,
  named?: { reason: string; pointer: number },
): Promise<Assigned> {
  const at = now.getTime();
  await trx
    .updateTable('leads')
    .set({
      assigned_to: next.id,
      assigned_to_name: next.name,
      assigned_at: at,
      follow_up_due: followUpDue(now, rules.followUpHours).getTime(),
      status: 'handed',
      offered_at: at,
      accept_due: acceptDue(now, rules.responseWindowMinutes)?.getTime() ?? null,
      accepted_at: null,
    })
    .where('id', '=', lead.id)
    .execute();
  const leadId = Number(lead.id);
  const team = lead.team_id === null ? null : Number(lead.team_id);
  const after = await served(trx, {
    store: Number(lead.store_id),
    dialect: h.dialect,
    way: { ...FLOOR_WAY, team },
    next,
    pointer,
    leadId,
    customer: lead.customer,
    by,
    now,
    env: sqlEnv(now, rules, h.tz),
    // A manager naming someone other than Next Up moves no one's turn, in any line.
    backOfEveryLine: rules.routing.backOfEveryLine && (!named || named.pointer !== pointer),
    named,
  });
  return { leadId, customer: lead.customer, assignedTo: { id: next.id, name: next.name }, pointerPos: after, duplicate: false };
}

/**
 * A manager hands one lead that waits in Unassigned (parked ones too) out to Next Up, or to a
 * salesman he names with his reason (an override, domain/floor.ts override); a lead waiting for
 * its salesman's Accept may be handed to someone he names too. A walk-in who left is not.
 */
export function handOutLead(h: StoreDb, leadId: number, by: Actor, opts: { now?: Date; rules?: Rules; to?: string; reason?: string } = {}): Promise<Assigned> {
  const { now = new Date(), rules = DEFAULT_RULES, to } = opts;
  const env = sqlEnv(now, rules, h.tz);
  const { store } = h;
  return withRotationLock(h, async (trx) => {
    const lead = await trx
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', leadId)
      .where('store_id', '=', store)
      .$if(h.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!lead) throw notFound('Lead not found');
    if (lead.closed) throw new ApiError(409, 'This lead is closed. Reopen it first.');
    if (holds(LEFT, leadFacts(lead), now)) throw new ApiError(409, LEFT_TEXT);
    const movable = lead.assigned_to === UNASSIGNED || (!!to && holds(PENDING_ACCEPT, leadFacts(lead), now) && to !== lead.assigned_to);
    if (!movable) throw new ApiError(409, `This lead is already with ${lead.assigned_to_name}.`);
    const team = lead.team_id === null ? null : Number(lead.team_id);
    if (!to) {
      const { next, pointer } = await nextIn(trx, store, team, env, h.dialect, now);
      if (!next) throw new ApiError(409, 'No eligible associates right now.');
      return give(trx, h, lead, next, pointer, by, now, rules);
    }
    const named = await memberById(trx, store, env, to);
    const { pointer, queue } = await lineQueue(trx, store, team, env, now);
    // Named outside the lead's team: he is not in that line, so the line's pointer stays.
    const r = override(named, queue, pointer);
    if ('refusal' in r) throw new ApiError(409, r.refusal, undefined, 'to');
    return give(trx, h, lead, r.to, pointer, by, now, rules, { reason: opts.reason ?? '', pointer: r.pointer });
  });
}
