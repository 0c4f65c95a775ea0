import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Ctx } from '../context';
import { hashToken, SESSION_COOKIE } from './tokens';
import { forbidden, HttpError, unauthorized } from '../http/errors';
import type { UserRow } from '../users/repo';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    sessionHash: string | null;
  }
}

/** Resolves the session cookie to a live user on every request, then enforces the route's access. */
export const sessionPlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: Ctx }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionHash', null);

  app.addHook('onRequest', async (req) => {
    const token = req.cookies[SESSION_COOKIE];
    if (!token) return;
    const hash = hashToken(ctx.secret, token);
    // Disabled or deleted users match nothing here, so their sessions stop at once.
    const row = await ctx.dbh.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .where('sessions.id_hash', '=', hash)
      .where('sessions.expires_at', '>', Date.now())
      .where('users.disabled', '=', 0)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (row) {
      req.user = row;
      req.sessionHash = hash;
    }
  });

  app.addHook('preHandler', async (req) => {
    // Pages and assets are public; the data behind them is the API's.
    if (!req.routeOptions.url?.startsWith('/api')) return;
    const need = req.routeOptions.config?.access;
    if (need === 'public' || need === 'apikey') return;
    if (!need) throw new HttpError(500, 'Route has no access rule');
    if (!req.user) throw unauthorized();
    if (need === 'manager' && req.user.role !== 'manager') throw forbidden();
  });
});

export const currentUser = (req: FastifyRequest): UserRow => {
  if (!req.user) throw unauthorized();
  return req.user;
};
