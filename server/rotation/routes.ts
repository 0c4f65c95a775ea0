import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { implement } from '../http/implement';
import { checkOwnDuty } from './policy';
import { reorder, setStatus, skip } from './team';
import { presentRotation, rotationView } from './present';
import { handOut, handOutWaitingLeads, sweep } from './handout';
import { loadRules } from '../rules/service';

/** How often overdue leads are handed on and waiting leads offered again (someone may have become eligible by himself: a snooze ended). */
const SWEEP_MS = 15_000;

export async function rotationRoutes(app: FastifyInstance, { ctx, sweepMs }: { ctx: Ctx; sweepMs?: number }) {
  const { dbh, bus } = ctx;
  const changed = () => bus.publish({ topic: 'rotation' });
  const actor = (u: { id: string; name: string }) => ({ id: u.id, name: u.name });

  implement(app, 'GET /rotation', async ({ me, query }) => presentRotation(await rotationView(dbh.db, query.log), me));

  // The sweep runs while the app is up: started when it is ready, stopped when it closes.
  let timer: ReturnType<typeof setInterval> | undefined;
  let sweeping = false;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      sweep(ctx)
        .catch((err: unknown) => ctx.log.warn({ err }, 'could not hand on or hand out leads'))
        .finally(() => (sweeping = false));
    }, sweepMs ?? SWEEP_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));

  implement(app, 'POST /rotation/assign', async ({ me, body: { customer, actionId, askedFor } }) => {
    const [{ replayed, ...answer }] = await handOut(ctx, [{ customer }], actor(me), { actionId, askedFor });
    return answer;
  });

  implement(app, 'POST /rotation/skip', async ({ me, body: { targetUid, reason, minutes, actionId } }) => {
    const rules = await loadRules(dbh.db);
    const { replayed, ...answer } = await skip(dbh, targetUid, reason, minutes ?? rules.skipSnoozeMinutes, actor(me), { actionId, rules });
    if (!replayed) changed();
    return answer;
  });

  /** A manager's move in the line: the line his screen showed and the order he wants; a stale screen is refused (409). */
  implement(app, 'POST /rotation/reorder', async ({ me, body }) => {
    const moved = await reorder(dbh, body, actor(me));
    changed();
    return moved;
  });

  implement(app, 'POST /rotation/status', async ({ me, body: { uid, active, onDuty } }) => {
    await setStatus(dbh, uid, { active, onDuty }, actor(me));
    changed();
    bus.publish({ topic: 'users' });
    if (active || onDuty) await handOutWaitingLeads(ctx);
    return { ok: true };
  });

  /** A salesman clocks themselves in ("I'm on the floor") or out; nobody else's flag. */
  implement(app, 'POST /rotation/duty', async ({ me, body: { onDuty } }) => {
    checkOwnDuty(me);
    await setStatus(dbh, me.id, { onDuty }, actor(me));
    changed();
    bus.publish({ topic: 'users' });
    if (onDuty) await handOutWaitingLeads(ctx);
    return { ok: true, onDuty };
  });
}
