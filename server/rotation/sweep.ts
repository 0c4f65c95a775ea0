import type { StoreDb, Db } from '../db';
import { withRotationLock } from '../db';
import { pickNext, snoozeEnd } from '../../domain/rotation';
import { DEFAULT_RULES } from '../../domain/rules';
import { handOn, missReason, takers } from '../../domain/speed';
import type { Actor } from '../../domain/users';
import type { SqlEnv } from './sql';
import { firstOverdue, passersOf, sqlEnv, UNASSIGNED, waiting } from './queries';
import { lineQueue } from './serve';
import { putInPool } from '../grabs/service';
import { poolRule } from '../../domain/routing';
import { GRAB_STAGES } from '../../domain/grabs';
import { give, type Assigned } from './assign';
import { logRotation } from './log';

/** Who the rotation's own moves (the sweep, a salesman coming on duty) are made by. */
export const ROTATION: Actor = { id: null, name: 'Rotation' };

/** What the sweep did with one overdue lead. */
export interface HandedOn {
  leadId: number;
  customer: string;
  missed: { id: string; name: string };
  /** The salesman who has it now; null when it waits in Unassigned or up for grabs. */
  to: { id: string; name: string } | null;
  parked: boolean;
  pooled?: true;
}

/**
 * Takes back every lead not accepted in time, one rotation transaction each: the salesman who
 * missed it is skipped and snoozed with the reason, and the lead goes to the next eligible
 * salesman as his turn (domain/speed.ts handOn), or waits in Unassigned. Each lead is acted on
 * once, by whichever app server takes the rotation lock first: the next one finds it done.
 */
export async function handOnOverdue(h: StoreDb, now = new Date(), rules = DEFAULT_RULES): Promise<HandedOn[]> {
  const out: HandedOn[] = [];
  const env = sqlEnv(now, rules, h.tz);
  const { store } = h;
  if (!(await firstOverdue(h.db, store, env))) return out;
  for (;;) {
    const done = await withRotationLock(h, async (trx): Promise<HandedOn | null> => {
      const lead = await firstOverdue(trx, store, env, h.dialect === 'postgres');
      if (!lead) return null;
      const at = now.getTime();
      // The lead's own line: its team's, or the whole floor's.
      const team = lead.team_id === null ? null : Number(lead.team_id);
      const { pointer, queue: members } = await lineQueue(trx, store, team, env, now);
      const missed = { id: lead.assigned_to, name: lead.assigned_to_name };
      const given = Math.round((Number(lead.accept_due) - Number(lead.offered_at ?? lead.assigned_at)) / 60_000);
      const reason = missReason(given);
      const passed = (await passersOf(trx, [Number(lead.id)])).get(Number(lead.id)) ?? [];
      const step = handOn(members, missed.id, pointer, passed, now);
      const snooze = snoozeEnd(now, rules.skipSnoozeMinutes).getTime();
      await trx
        .updateTable('memberships')
        .set({ snooze_until: snooze })
        .where('store_id', '=', store)
        .where('user_id', '=', missed.id)
        .where((eb) => eb.or([eb('snooze_until', 'is', null), eb('snooze_until', '<', snooze)]))
        .execute();
      await logRotation(trx, {
        store,
        type: 'skip',
        customer: lead.customer,
        target: missed,
        reason,
        by: ROTATION,
        pointer: step.pointer,
        leadId: Number(lead.id),
        at,
      });
      if (team === null) await trx.updateTable('rotation_state').set({ pointer_pos: step.pointer, updated_by: null }).where('id', '=', store).execute();
      else await trx.updateTable('teams').set({ pointer_pos: step.pointer }).where('id', '=', team).execute();
      await trx
        .insertInto('lead_events')
        .values({ lead_id: Number(lead.id), type: 'handed_on', actor_id: missed.id, actor_name: missed.name, channel: null, note: reason, created_at: at })
        .execute();
      await trx.updateTable('leads').set({ handoffs: step.handoffs }).where('id', '=', lead.id).execute();
      const result = { leadId: Number(lead.id), customer: lead.customer, missed, parked: step.kind === 'park' };
      // Up for grabs after N hand-ons: its line's rule sends it to the claim pool instead of the next salesman.
      const grab = poolRule(rules.routing, team)?.grab;
      if (grab && grab.after > 0 && step.handoffs >= grab.after) {
        await putInPool(trx, Number(lead.id), store, team, grab.minutes, GRAB_STAGES.first, now);
        return { ...result, parked: false, to: null, pooled: true };
      }
      if (step.kind === 'next') {
        await give(trx, h, lead, step.to, step.pointer, ROTATION, now, rules);
        return { ...result, to: { id: step.to.id, name: step.to.name } };
      }
      await trx
        .updateTable('leads')
        .set({ assigned_to: UNASSIGNED, assigned_to_name: UNASSIGNED, status: 'new', offered_at: null, accept_due: null })
        .where('id', '=', lead.id)
        .execute();
      if (step.kind === 'park') {
        await trx
          .insertInto('lead_events')
          .values({ lead_id: Number(lead.id), type: 'parked', actor_id: null, actor_name: ROTATION.name, channel: null, note: null, created_at: at })
          .execute();
      }
      return { ...result, to: null };
    });
    if (!done) return out;
    out.push(done);
  }
}

/** How many waiting leads one hand-out looks at for one someone eligible may take. */
const WAITING_LOOK = 50;

/**
 * The oldest waiting lead someone eligible may take, and who: the first in serving order who did
 * not let that lead pass before (so a lead never goes back to someone who let it pass; those
 * passed over lose this turn, as a skip would). Null when nothing waits or no one may take it.
 */
async function nextWaiting(trx: Db, store: number, now: Date, env: SqlEnv, lock: boolean) {
  // Each lead waits for someone of its own line: its team's, or the whole floor's.
  const leads = await waiting(trx, store, env)
    .selectAll()
    .orderBy('assigned_at')
    .orderBy('id')
    .limit(WAITING_LOOK)
    .$if(lock, (qb) => qb.forUpdate())
    .execute();
  if (!leads.length) return null;
  const lines = new Map<number | null, Awaited<ReturnType<typeof lineQueue>>>();
  const passed = await passersOf(
    trx,
    leads.map((l) => Number(l.id)),
  );
  for (const lead of leads) {
    const team = lead.team_id === null ? null : Number(lead.team_id);
    let line = lines.get(team);
    if (!line) lines.set(team, (line = await lineQueue(trx, store, team, env, now)));
    const to = pickNext(takers(line.queue, passed.get(Number(lead.id)) ?? []), line.pointer);
    if (to) return { lead, to, pointer: line.pointer };
  }
  return null;
}

/** Hands the waiting leads out, oldest first, one rotation transaction each, until none is left that someone eligible may take. The lead keeps whoever sent it as its assigner. */
export async function handOutWaiting(h: StoreDb, now = new Date(), rules = DEFAULT_RULES): Promise<Assigned[]> {
  const out: Assigned[] = [];
  // Nearly always nothing waits: look without the lock first so assigns do not queue twice.
  const env = sqlEnv(now, rules, h.tz);
  const { store } = h;
  if (!(await waiting(h.db, store, env).select('id').limit(1).executeTakeFirst())) return out;
  for (;;) {
    const done = await withRotationLock(h, async (trx): Promise<Assigned | null> => {
      const found = await nextWaiting(trx, store, now, env, h.dialect === 'postgres');
      if (!found) return null;
      const { lead, to, pointer } = found;
      return give(trx, h, lead, to, pointer, { id: lead.assigned_by, name: lead.assigned_by_name }, now, rules);
    });
    if (!done) return out;
    out.push(done);
  }
}
