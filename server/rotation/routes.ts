import type { FastifyInstance } from 'fastify';
import type { Ctx, StoreCtx } from '../context';
import { storeIdsOf } from '../users/repo';
import { implement } from '../http/implement';
import { checkOwnDuty } from './policy';
import { reorder, setStatus, skip } from './team';
import { presentRotation, rotationView } from './present';
import { handOut, handOutWaitingLeads, sweepAll } from './handout';
import { loadRules } from '../rules/service';

/** How often overdue leads are handed on and waiting leads offered again (someone may have become eligible by himself: a snooze ended). */
const SWEEP_MS = 15_000;

/** A store's rotation: its line, its hand-outs, its sweep. */
export async function rotationRoutes(app: FastifyInstance, { ctx: root, sweepMs }: { ctx: Ctx; sweepMs?: number }) {
  const actor = (u: { id: string; name: string }) => ({ id: u.id, name: u.name });

  implement(app, 'GET /rotation', async ({ me, ctx, query }) => presentRotation(await rotationView(ctx.dbh, query.log), me));

  // The sweep runs while the app is up: started when it is ready, stopped when it closes.
  let timer: ReturnType<typeof setInterval> | undefined;
  let sweeping = false;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      sweepAll(root)
        .catch((err: unknown) => root.log.warn({ err }, 'could not hand on or hand out leads'))
        .finally(() => (sweeping = false));
    }, sweepMs ?? SWEEP_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));

  implement(app, 'POST /rotation/assign', async ({ me, ctx, body: { customer, actionId, askedFor } }) => {
    const [{ replayed, ...answer }] = await handOut(ctx, [{ customer }], actor(me), { actionId, askedFor });
    return answer;
  });

  implement(app, 'POST /rotation/skip', async ({ me, ctx, body: { targetUid, reason, minutes, actionId } }) => {
    const rules = await loadRules(ctx.dbh.db, ctx.store.id);
    const { replayed, ...answer } = await skip(ctx.dbh, targetUid, reason, minutes ?? rules.skipSnoozeMinutes, actor(me), { actionId, rules });
    if (!replayed) ctx.bus.publish({ topic: 'rotation' });
    return answer;
  });

  /** A manager's move in the line: the line his screen showed and the order he wants; a stale screen is refused (409). */
  implement(app, 'POST /rotation/reorder', async ({ me, ctx, body }) => {
    const moved = await reorder(ctx.dbh, body, actor(me));
    ctx.bus.publish({ topic: 'rotation' });
    return moved;
  });

  implement(app, 'POST /rotation/status', async ({ me, ctx, body: { uid, active, onDuty } }) => {
    await setStatus(ctx.dbh, uid, { active, onDuty }, actor(me));
    await tellDuty(ctx, uid, onDuty);
    if (active || onDuty) await handOutWaitingLeads(ctx);
    return { ok: true };
  });

  /** A salesman clocks himself in ("I'm on the floor") or out, in the store he is in; nobody else's flag. */
  implement(app, 'POST /rotation/duty', async ({ me, ctx, body: { onDuty } }) => {
    checkOwnDuty(me);
    await setStatus(ctx.dbh, me.id, { onDuty }, actor(me));
    await tellDuty(ctx, me.id, onDuty);
    if (onDuty) await handOutWaitingLeads(ctx);
    return { ok: true, onDuty };
  });
}

/** A change of duty is the store's news; coming on duty takes him off his other stores' floors, so they hear of it too. */
async function tellDuty(ctx: StoreCtx, id: string, onDuty: boolean | undefined) {
  const stores = onDuty ? await storeIdsOf(ctx.dbh.db, id) : [ctx.store.id];
  for (const storeId of stores) for (const topic of ['rotation', 'users'] as const) ctx.bus.publish({ topic, storeId });
}
