import type { Ctx } from '../context';
import { notifyAssigned } from '../leads/notify';
import { assignNext, handOutWaiting, type Actor, type Assigned, type NewLead } from './service';

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
    given.push(...(await handOutWaiting(ctx.dbh)));
    for (const lead of leads) made.push(await assignNext(ctx.dbh, lead, by, opts));
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
