import { inStore, type Ctx, type StoreCtx } from '../context';
import { allStores } from '../stores/service';
import { notifyParked, remindAppointments } from '../leads/notify';
import { noticeAssigned, noticeHandedOn, noticeWaiting } from '../notices/triggers';
import { loadRules, rememberedRules, type KnownRules } from '../rules/service';
import { closeIfDue } from '../floor/service';
import { floorState } from '../../domain/hours';
import type { Rules } from '../../domain/rules';
import type { Actor } from '../../domain/users';
import { AskAgain, assignBeBack, assignNext, type Handed, type NewLead } from './assign';
import { handOnOverdue, handOutWaiting, ROTATION } from './sweep';
import { refreshAway } from '../availability/service';
import { announcePool, sweepPools } from '../grabs/service';

/**
 * The one way leads are handed out, for every caller (a manager's Assign, the intake API, a
 * salesman coming on duty, the sweep): leads waiting in Unassigned go first, then the new ones
 * in order, each in its own rotation transaction (a be-back to the salesman asked for); then each salesman's mail is queued and every
 * open screen is told. With `keep`, a lead no one can take waits in Unassigned instead of being
 * refused. While the floor is closed (business hours) nothing waiting goes out and `keep` leads
 * (the intake API's) wait too; a manager's own Assign still goes to Next Up.
 *
 * New leads go out on the rules this app server remembers, without reading them or looking for
 * waiting leads first: the assign checks both under the rotation lock and asks again (AskAgain)
 * when the rules changed or leads wait, which is rare. On PostgreSQL the one-call assign sends
 * the live updates itself as it commits.
 */
export async function handOut(
  ctx: StoreCtx,
  leads: NewLead[],
  by: Actor,
  opts: { keep?: boolean; actionId?: string; askedFor?: string; now?: Date; rules?: Rules } = {},
) {
  const h = ctx.dbh;
  const given: Handed[] = [];
  const made: Handed[] = [];
  const { askedFor, now = new Date(), rules: passed, ...rest } = opts;
  const announce = ctx.bus.announcement([{ topic: 'rotation' }, { topic: 'leads' }]);
  try {
    const plain = leads.length > 0 && !askedFor;
    let known: KnownRules = passed ? { rules: passed } : plain ? await rememberedRules(h) : { rules: await loadRules(h.db, h.store) };
    const closed = () => floorState(known.rules.businessHours, now, ctx.config.APP_TIMEZONE).kind === 'closed';
    let waitingFirst = !closed();
    if (waitingFirst && !plain) {
      given.push(...(await handOutWaiting(h, now, known.rules)));
      waitingFirst = false;
    }
    for (const lead of leads) {
      for (let reread = 1; ; reread++) {
        const { rules, text: rulesText } = known;
        try {
          made.push(
            askedFor
              ? await assignBeBack(h, lead, askedFor, by, { ...rest, now, rules })
              : await assignNext(h, lead, by, {
                  ...rest,
                  now,
                  rules,
                  rulesText,
                  waitingFirst: waitingFirst && !closed(),
                  wait: closed() && !!rest.keep,
                  announce,
                }),
          );
          break;
        } catch (err) {
          if (!(err instanceof AskAgain)) throw err;
          // Rules changing under every try (or a stored text that never reads back the same) must not keep it asking:
          // the third read goes unchecked, as a be-back's does.
          if (err.why === 'rules') {
            const fresh = await rememberedRules(h, true);
            known = reread < 3 ? fresh : { rules: fresh.rules };
          } else {
            given.push(...(await handOutWaiting(h, now, rules)));
            waitingFirst = false;
          }
        }
      }
      waitingFirst = false;
    }
  } finally {
    const fresh = [...given, ...made.filter((m) => !m.replayed && !m.duplicate)];
    // His lead as he chose (push, text, or mail as before) and Next Up that he is (server/notices).
    noticeAssigned(
      ctx,
      fresh.flatMap((a) => (a.assignedTo ? [{ leadId: a.leadId, userId: a.assignedTo.id, mail: a.mail ?? a.leadId }] : [])),
      { rules: passed, now },
    );
    if (fresh.some((a) => !a.told)) {
      ctx.bus.publish({ topic: 'rotation' });
      ctx.bus.publish({ topic: 'leads' });
    }
    // A lead no one got may have gone up for grabs: its pool's floor hears of it.
    if (made.some((m) => !m.assignedTo && !m.duplicate && !m.replayed)) announcePool(ctx);
  }
  return made.map(({ mail, told, ...answer }) => answer);
}

/** Leads waiting for someone eligible go out when someone becomes eligible. */
export const handOutWaitingLeads = (ctx: StoreCtx, now = new Date(), rules?: Rules) => handOut(ctx, [], ROTATION, { now, rules });

/**
 * The sweep: the floor closes when its hour has come; leads not accepted in time are handed on
 * (each new holder gets his mail; a lead handed on too often is parked and every manager is
 * told), then waiting leads go out.
 */
export async function sweep(ctx: StoreCtx, now = new Date()) {
  // Read afresh each sweep, and remembered: the notices it tells (server/notices) read the remembered ones.
  const { rules } = await rememberedRules(ctx.dbh, true);
  await closeIfDue(ctx, rules, now);
  // Each person's own hours and time off take him out of (or back into) every line.
  if ((await refreshAway(ctx.dbh, now, ctx.config.APP_TIMEZONE)).changed.length) ctx.bus.publish({ topic: 'rotation' });
  const moved = await handOnOverdue(ctx.dbh, now, rules);
  if (moved.length) {
    noticeAssigned(
      ctx,
      moved.flatMap((m) => (m.to ? [{ leadId: m.leadId, userId: m.to.id, mail: m.leadId }] : [])),
      { rules, now },
    );
    noticeHandedOn(
      ctx,
      moved.map((m) => ({ leadId: m.leadId, userId: m.missed.id })),
    );
    notifyParked(
      ctx,
      moved.filter((m) => m.parked).map((m) => m.leadId),
    );
    ctx.bus.publish({ topic: 'rotation' });
    ctx.bus.publish({ topic: 'leads' });
  }
  // Claim pools whose time ran out move on to their fallback team, then to the managers.
  if ((await sweepPools(ctx, now)).length || moved.some((m) => m.pooled)) announcePool(ctx);
  await handOutWaitingLeads(ctx, now, rules);
  await noticeWaiting(ctx, now);
  await remindAppointments(ctx, now);
  return moved;
}

/** The sweep of every store, one after another; a store whose sweep fails does not hold up the others. */
export async function sweepAll(ctx: Ctx, now = new Date()) {
  for (const store of await allStores(ctx.dbh.db)) {
    try {
      await sweep(inStore(ctx, store), now);
    } catch (err) {
      ctx.log.warn({ err, store: store.code }, 'could not hand on or hand out leads');
    }
  }
}
