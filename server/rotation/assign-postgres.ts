import { sql } from 'kysely';
import type { DbHandle } from '../db';
import { HttpError } from '../http/errors';
import { followUpDue, LEAD_SOURCE } from '../../domain/leads';
import { acceptDue, MAX_HANDOFFS } from '../../domain/speed';
import type { Rules } from '../../domain/rules';
import { newLeadMail } from '../leads/notify';
import type { Announcement } from '../events/bus';
import type { Actor, Assigned, Handed, NewLead } from './service';

/** What bdc_assign_next (migrations 011 to 016) answers; `to` is the salesman's address. */
type Answer =
  { error: 'action_reused' | 'none_eligible' | 'rules_changed' | 'waiting' } | { replayed: true; result: Assigned } | { assigned: Assigned; to: string | null };

/** One answer, its keys always in the same order: a replay reads the same as the first answer. */
const shape = (a: Assigned): Assigned => ({
  leadId: Number(a.leadId),
  customer: a.customer,
  assignedTo: a.assignedTo ? { id: a.assignedTo.id, name: a.assignedTo.name } : null,
  pointerPos: a.pointerPos,
  duplicate: a.duplicate,
});

/**
 * At most this many assigns of one app server wait at the database at once. They queue on the
 * rotation lock anyway; each one waiting there holds a pooled connection, and with sixteen
 * managers pressing at once the pool ran dry for everything else (sessions, mail, events). Two:
 * one running, the next already waiting for the lock, so the lock is never idle.
 */
const IN_FLIGHT = 2;
const gates = new WeakMap<DbHandle, { running: number; waiting: (() => void)[] }>();

async function gated<T>(h: DbHandle, run: () => Promise<T>): Promise<T> {
  let g = gates.get(h);
  if (!g) gates.set(h, (g = { running: 0, waiting: [] }));
  const gate = g;
  if (gate.running >= IN_FLIGHT) await new Promise<void>((resolve) => gate.waiting.push(resolve));
  else gate.running++;
  try {
    return await run();
  } finally {
    const next = gate.waiting.shift();
    // The slot passes straight to the next in line; otherwise it is freed.
    if (next) next();
    else gate.running--;
  }
}

/**
 * assignNext on PostgreSQL: the whole transaction (lock, the rules and waiting-leads checks,
 * action-id replay, prospect-id dedupe, pick, insert, log, pointer) is one call of a function
 * kept in the database, so the state row is held for the function's run rather than for several
 * round trips.
 */
export async function assignOnPostgres(
  h: DbHandle,
  l: NewLead,
  by: Actor,
  opts: { now: Date; keep?: boolean; actionId?: string; rules: Rules; rulesText?: string; waitingFirst?: boolean; announce?: Announcement | null },
): Promise<Handed | { askAgain: 'rules' | 'waiting' }> {
  const ext = !!(l.externalSource && l.externalId);
  const at = opts.now.getTime();
  const request = opts.actionId ? JSON.stringify({ assign: l }) : null;
  const followUp = followUpDue(opts.now, opts.rules.followUpHours).getTime();
  const accept = acceptDue(opts.now, opts.rules.responseWindowMinutes)?.getTime() ?? null;
  const { rows } = await gated(h, () =>
    sql<{ r: Answer }>`select bdc_assign_next(
    ${l.customer}::text, ${l.phone || null}::text, ${l.email || null}::text, ${l.vehicle || null}::text,
    ${l.vin || null}::text, ${l.comments || null}::text, ${l.source ?? LEAD_SOURCE}::text,
    ${ext ? l.externalSource : null}::text, ${ext ? l.externalId : null}::text, ${by.id}::text, ${by.name}::text,
    ${at}::bigint, ${followUp}::bigint, ${!!opts.keep}::boolean, ${opts.actionId ?? null}::text, ${request}::text,
    ${accept}::bigint, ${opts.rules.holdOut}::boolean, ${opts.rulesText ?? null}::text, ${!!opts.waitingFirst}::boolean,
    ${MAX_HANDOFFS}::integer, ${opts.announce?.channel ?? null}::text, ${opts.announce?.payloads ?? null}::text[]) as r`.execute(h.db),
  );
  const r = rows[0].r;
  if ('error' in r) {
    if (r.error === 'rules_changed') return { askAgain: 'rules' };
    if (r.error === 'waiting') return { askAgain: 'waiting' };
    if (r.error === 'action_reused') throw new HttpError(422, 'This action id was already used for a different request.');
    throw new HttpError(409, 'No eligible associates right now.');
  }
  if ('replayed' in r) return { ...shape(r.result), replayed: true };
  const a: Handed = shape(r.assigned);
  if (a.assignedTo && r.to) a.mail = newLeadMail(a.leadId, l, { name: a.assignedTo.name, email: r.to }, followUp, accept);
  if (opts.announce && !a.duplicate) a.told = true;
  return a;
}
