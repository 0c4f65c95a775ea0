import type { Ctx } from '../context';
import { notifyAssigned } from '../leads/notify';
import { notifyParked } from '../leads/notify';
import { loadRules } from '../rules/service';
import { closeIfDue } from '../floor/service';
import { floorState } from '../../domain/hours';
import type { Rules } from '../../domain/rules';
import { assignBeBack, assignNext, handOnOverdue, handOutWaiting, type Actor, type Assigned, type NewLead } from './service';

/**
 * The one way leads are handed out, for every caller (a manager's Assign, the intake API, a
 * salesman coming on duty, the sweep): leads waiting in Unassigned go first, then the new ones
 * in order, each in its own rotation transaction (a be-back to the salesman asked for); then each salesman's mail is queued and every
 * open screen is told. With `keep`, a lead no one can take waits in Unassigned instead of being
 * refused. While the floor is closed (business hours) nothing waiting goes out and `keep` leads
 * (the intake API's) wait too; a manager's own Assign still goes to Next Up.
 */
export async function handOut(
  ctx: Ctx,
  leads: NewLead[],
  by: Actor,
  opts: { keep?: boolean; actionId?: string; askedFor?: string; now?: Date; rules?: Rules } = {},
) {
  const given: Assigned[] = [];
  const made: (Assigned & { replayed?: true })[] = [];
  const { askedFor, now = new Date(), rules: known, ...rest } = opts;
  try {
    const rules = known ?? (await loadRules(ctx.dbh.db));
    const closed = floorState(rules.businessHours, now, ctx.config.APP_TIMEZONE).kind === 'closed';
    if (!closed) given.push(...(await handOutWaiting(ctx.dbh, now, rules)));
    for (const lead of leads) {
      made.push(
        askedFor
          ? await assignBeBack(ctx.dbh, lead, askedFor, by, { ...rest, now, rules })
          : await assignNext(ctx.dbh, lead, by, { ...rest, now, rules, wait: closed && !!rest.keep }),
      );
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
export const handOutWaitingLeads = (ctx: Ctx, now = new Date(), rules?: Rules) => handOut(ctx, [], { id: null, name: 'Rotation' }, { now, rules });

/**
 * The sweep: the floor closes when its hour has come; leads not accepted in time are handed on
 * (each new holder gets his mail; a lead handed on too often is parked and every manager is
 * told), then waiting leads go out.
 */
export async function sweep(ctx: Ctx, now = new Date()) {
  const rules = await loadRules(ctx.dbh.db);
  await closeIfDue(ctx, rules, now);
  const moved = await handOnOverdue(ctx.dbh, now, rules);
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
  await handOutWaitingLeads(ctx, now, rules);
  return moved;
}
