import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../context';
import { notFound } from '../../http/errors';
import { implement } from '../../http/implement';
import { SESSION_COOKIE } from '../tokens';
import { endSessions, listSessions } from './service';

/** Settings → Signed-in devices: his sessions, signing one out, or all of them. */
export async function sessionRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;

  implement(app, 'GET /auth/sessions', async ({ me, req }) => ({ sessions: await listSessions(db, me.id, req.sessionId) }));

  /** One of his sessions; someone else's (or one already gone) is not found. */
  implement(app, 'DELETE /auth/sessions/:sid', async ({ me, req, reply, params }) => {
    const ended = await endSessions(db, ctx.bus, me.id, { sid: params.sid });
    if (!ended) throw notFound('Session not found');
    if (params.sid === req.sessionId) reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ended };
  });

  /** Every one of his sessions, this one too. */
  implement(app, 'POST /auth/sessions/end-all', async ({ me, reply }) => {
    const ended = await endSessions(db, ctx.bus, me.id);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ended };
  });
}
