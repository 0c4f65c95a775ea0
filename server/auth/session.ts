import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Ctx } from '../context';
import { hashToken, SESSION_COOKIE, SESSION_IDLE_MS, SESSION_MAX_MS, SESSION_RENEW_MS } from './tokens';
import { checkAccess } from './policy';
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

  app.addHook('onRequest', async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    // Pages and assets never need the user: no database look-up for each file of a page load.
    // (/healthz shows a manager its details.)
    if (!token || !(req.url.startsWith('/api') || req.url === '/healthz')) return;
    const hash = hashToken(ctx.secret, token);
    const now = Date.now();
    // Disabled or deleted users match nothing here, so their sessions stop at once.
    const row = await ctx.dbh.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select(['sessions.created_at as session_created_at', 'sessions.expires_at as session_expires_at'])
      .where('sessions.id_hash', '=', hash)
      .where('sessions.expires_at', '>', now)
      .where('users.disabled', '=', 0)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return;
    const { session_created_at: created, session_expires_at: expires, ...user } = row;
    req.user = user;
    req.sessionHash = hash;
    // Used: the idle limit starts again, never beyond the absolute limit.
    const renewed = Math.min(now + SESSION_IDLE_MS, Number(created) + SESSION_MAX_MS);
    if (renewed - Number(expires) >= SESSION_RENEW_MS) {
      await ctx.dbh.db.updateTable('sessions').set({ expires_at: renewed }).where('id_hash', '=', hash).execute();
      setSessionCookie(reply, token, renewed - now, ctx.config.secureCookies);
    }
  });

  app.addHook('preHandler', async (req) => {
    // Pages and assets are public; the data behind them is the API's.
    if (!req.routeOptions.url?.startsWith('/api')) return;
    checkAccess(req.routeOptions.config?.access, req.user);
  });
});

export function setSessionCookie(reply: FastifyReply, token: string, ttlMs: number, secure: boolean) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: Math.floor(ttlMs / 1000),
  });
}
