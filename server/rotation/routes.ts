import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { parse } from '../http/errors';
import { checkOwnDuty } from './policy';
import { assignSchema, dutySchema, reorderSchema, skipSchema, toggleSchema } from '../../domain/schemas';
import { OVERVIEW_LOG_SIZE, ROUTING_LOG_SIZE } from '../../domain/rotation';
import { reorder, rotationView, setStatus, skip } from './service';
import { presentRotation } from './present';
import { handOut, handOutWaitingLeads, sweep } from './handout';
import { loadRules } from '../rules/service';

const viewQuery = z.object({ log: z.coerce.number().int().min(1).max(ROUTING_LOG_SIZE).default(OVERVIEW_LOG_SIZE) });

/** How often overdue leads are handed on and waiting leads offered again (someone may have become eligible by himself: a snooze ended). */
const SWEEP_MS = 15_000;

export async function rotationRoutes(app: FastifyInstance, { ctx, sweepMs }: { ctx: Ctx; sweepMs?: number }) {
  const { dbh, bus } = ctx;
  const changed = () => bus.publish({ topic: 'rotation' });
  const actor = (u: { id: string; name: string }) => ({ id: u.id, name: u.name });

  app.get('/', access('user'), async (req) => presentRotation(await rotationView(dbh.db, parse(viewQuery, req.query).log), req.user!));

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

  app.post('/assign', access('manager'), async (req) => {
    const { customer, actionId, askedFor } = parse(assignSchema, req.body);
    const [{ replayed, ...answer }] = await handOut(ctx, [{ customer }], actor(req.user!), { actionId, askedFor });
    return answer;
  });

  app.post('/skip', access('manager'), async (req) => {
    const { targetUid, reason, minutes, actionId } = parse(skipSchema, req.body);
    const rules = await loadRules(dbh.db);
    const { replayed, ...answer } = await skip(dbh, targetUid, reason, minutes ?? rules.skipSnoozeMinutes, actor(req.user!), { actionId, rules });
    if (!replayed) changed();
    return answer;
  });

  /** A manager's move in the line: the line his screen showed and the order he wants; a stale screen is refused (409). */
  app.post('/reorder', access('manager'), async (req) => {
    const moved = await reorder(dbh, parse(reorderSchema, req.body), actor(req.user!));
    changed();
    return moved;
  });

  app.post('/status', access('manager'), async (req) => {
    const { uid, active, onDuty } = parse(toggleSchema, req.body);
    await setStatus(dbh, uid, { active, onDuty }, actor(req.user!));
    changed();
    bus.publish({ topic: 'users' });
    if (active || onDuty) await handOutWaitingLeads(ctx);
    return { ok: true };
  });

  /** A salesman clocks themselves in ("I'm on the floor") or out; nobody else's flag. */
  app.post('/duty', access('user'), async (req) => {
    const { onDuty } = parse(dutySchema, req.body);
    const me = req.user!;
    checkOwnDuty(me);
    await setStatus(dbh, me.id, { onDuty }, actor(me));
    changed();
    bus.publish({ topic: 'users' });
    if (onDuty) await handOutWaitingLeads(ctx);
    return { ok: true, onDuty };
  });
}
