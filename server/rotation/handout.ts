import type { Ctx } from '../context';
import { notifyAssigned } from '../leads/notify';
import { notifyParked } from '../leads/notify';
import { loadRules } from '../rules/service';
import { assignNext, handOnOverdue, handOutWaiting, type Actor, type Assigned, type NewLead } from './service';

/**
 * The one way leads are handed out, for every caller (a manager's Assign, the intake API, a
 * salesman coming on duty, the sweep): leads waiting in Unassigned go first, then the new ones
 * in order, each in its own rotation transaction; then each salesman's mail is queued and every
 * open screen is told. With `keep`, a lead no one can take waits in Unassigned instead of being
 * refused.
 */
export async function handOut(ctx: Ctx, leads: NewLead[], by: Actor, opts: { keep?: boolean; actionId?: string } = {}) {
  const given: Assigned[] = [];
  const made: (Assigned & { replayed?: true })[] = [];
  try {
    const window = (await loadRules(ctx.dbh.db)).responseWindowMinutes;
    given.push(...(await handOutWaiting(ctx.dbh, new Date(), window)));
    for (const lead of leads) made.push(await assignNext(ctx.dbh, lead, by, { ...opts, window }));
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
  const window = (await loadRules(ctx.dbh.db)).responseWindowMinutes;
  const moved = await handOnOverdue(ctx.dbh, now, window);
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
