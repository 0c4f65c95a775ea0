import type { FastifyInstance } from 'fastify';
import { implement } from '../http/implement';
import { changeUp, deskLog, logUp } from './service';

/** The desk log of a store's walk-ins: managers log ups and read the day; the desk and the up's salesman write on it. */
export async function deskRoutes(app: FastifyInstance) {
  implement(app, 'POST /desk/ups', async ({ me, ctx, body }) => logUp(ctx, me, body));
  implement(app, 'GET /desk/log', async ({ me, ctx, query }) => deskLog(ctx, me, query.day));
  implement(app, 'PATCH /desk/ups/:id', async ({ me, ctx, params, body }) => changeUp(ctx, me, params.id, body));
}
