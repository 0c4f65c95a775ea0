import type { Ctx } from '../context';
import { notifyAssigned } from '../leads/notify';
import { notifyParked } from '../leads/notify';
import { loadRules } from '../rules/service';
import { assignBeBack, assignNext, handOnOverdue, handOutWaiting, type Actor, type Assigned, type NewLead } from './service';

/**
 * The one way leads are handed out, for every caller (a manager's Assign, the intake API, a
 * salesman coming on duty, the sweep): leads waiting in Unassigned go first, then the new ones
 * in order, each in its own rotation transaction (a be-back to the salesman asked for); then each salesman's mail is queued and every
 * open screen is told. With `keep`, a lead no one can take waits in Unassigned instead of being
 * refused.
 */
export async function handOut(ctx: Ctx, leads: NewLead[], by: Actor, opts: { keep?: boolean; actionId?: string; askedFor?: string } = {}) {
  const given: Assigned[] = [];
  const made: (Assigned & { replayed?: true })[] = [];
  try {
    const rules = await loadRules(ctx.dbh.db);
    given.push(...(await handOutWaiting(ctx.dbh, new Date(), rules)));
    for (const lead of leads) {
      const { askedFor, ...rest } = opts;
      made.push(askedFor ? await assignBeBack(ctx.dbh, lead, askedFor, by, { ...rest, rules }) : await assignNext(ctx.dbh, lead, by, { ...rest, rules }));
    }
  } finally {
    const fresh = [...given, ...made.filter((m) => !m.replayed && !m.duplicate)];
    notifyAssigned(
      ctx,
      fresh.filter((a) => a.assignedTo).map((a) => a.leadId),
    );
    if (fresh.length) {
      ctx.bus.publish({ topic: 'rotation' });
      ctx.bus.publish({ topic: 'leads' });
    }
  }
  return made;
}

/** Leads waiting for someone eligible go out when someone becomes eligible. */
export const handOutWaitingLeads = (ctx: Ctx) => handOut(ctx, [], { id: null, name: 'Rotation' });

/**
 * The sweep: leads not accepted in time are handed on (each new holder gets his mail; a lead
 * handed on too often is parked and every manager is told), then waiting leads go out.
 */
export async function sweep(ctx: Ctx, now = new Date()) {
  const moved = await handOnOverdue(ctx.dbh, now, await loadRules(ctx.dbh.db));
  if (moved.length) {
    notifyAssigned(
      ctx,
      moved.filter((m) => m.to).map((m) => m.leadId),
    );
    notifyParked(
      ctx,
      moved.filter((m) => m.parked).map((m) => m.leadId),
    );
    ctx.bus.publish({ topic: 'rotation' });
    ctx.bus.publish({ topic: 'leads' });
  }
  await handOutWaitingLeads(ctx);
  return moved;
}
