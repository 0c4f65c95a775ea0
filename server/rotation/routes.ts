import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { parse } from '../http/errors';
import { assignSchema, reorderSchema, skipSchema, toggleSchema } from '../../domain/schemas';
import { OVERVIEW_LOG_SIZE, ROUTING_LOG_SIZE } from '../../domain/rotation';
import { assignNext, reorder, rotationView, setStatus, skip } from './service';

const viewQuery = z.object({ log: z.coerce.number().int().min(1).max(ROUTING_LOG_SIZE).default(OVERVIEW_LOG_SIZE) });

export async function rotationRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { dbh, bus } = ctx;
  const changed = (leads = false) => {
    bus.publish({ topic: 'rotation' });
    if (leads) bus.publish({ topic: 'leads' });
  };
  const actor = (u: { id: string; name: string }) => ({ id: u.id, name: u.name });

  app.get('/', access('user'), async (req) => rotationView(dbh.db, parse(viewQuery, req.query).log));

  app.post('/assign', access('manager'), async (req) => {
    const { customer } = parse(assignSchema, req.body);
    const result = await assignNext(dbh, customer, actor(req.user!));
    changed(true);
    return result;
  });

  app.post('/skip', access('manager'), async (req) => {
    const { targetUid, reason, minutes } = parse(skipSchema, req.body);
    const result = await skip(dbh, targetUid, reason, minutes, actor(req.user!));
    changed();
    return result;
  });

  app.post('/reorder', access('manager'), async (req) => {
    const { uid, direction } = parse(reorderSchema, req.body);
    await reorder(dbh, uid, direction);
    changed();
    return { ok: true };
  });

  app.post('/status', access('manager'), async (req) => {
    const { uid, active, onDuty } = parse(toggleSchema, req.body);
    await setStatus(dbh.db, uid, { active, onDuty });
    changed();
    bus.publish({ topic: 'users' });
    return { ok: true };
  });
}
