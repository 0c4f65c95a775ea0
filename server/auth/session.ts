import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Ctx } from '../context';
import { hashToken, randomToken, SESSION_COOKIE, SESSION_IDLE_MS, SESSION_MAX_MS, SESSION_RENEW_MS } from './tokens';
import { checkAccess } from './policy';
import { recheckSession } from './oidc/recheck';
import type { UserRow } from '../users/repo';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    sessionHash: string | null;
    /** The session's public id (Settings → Signed-in devices marks "This device" by it). */
    sessionId: string | null;
  }
}

/** Resolves the session cookie to a live user on every request, then enforces the route's access. */
export const sessionPlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: Ctx }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionHash', null);
  app.decorateRequest('sessionId', null);

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
      .select([
        'sessions.sid as session_sid',
        'sessions.created_at as session_created_at',
        'sessions.expires_at as session_expires_at',
        'sessions.last_seen_at as session_seen_at',
        'sessions.via as session_via',
        'sessions.recheck_at as session_recheck_at',
        'sessions.oidc_refresh as session_refresh',
      ])
      .where('sessions.id_hash', '=', hash)
      .where('sessions.expires_at', '>', now)
      .where('users.disabled', '=', 0)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return;
    const {
      session_sid: sid,
      session_created_at: created,
      session_expires_at: expires,
      session_seen_at: seen,
      session_via: via,
      session_recheck_at: recheck,
      session_refresh: refresh,
      ...user
    } = row;
    // Single sign-on: the provider is asked again now and then, and its "no" ends the session.
    if (refresh && recheck != null && Number(recheck) <= now && !(await recheckSession(ctx, { hash, sid, userId: user.id }, refresh, Number(recheck)))) return;
    req.user = user;
    req.sessionHash = hash;
    req.sessionId = sid;
    // Used: the idle limit starts again, never beyond the absolute limit, and "last seen" moves.
    // Both are written at most once per SESSION_RENEW_MS, not once a request.
    // A single sign-on session with nothing to re-check it by ends at its set hour, used or not.
    const renewed = Math.min(now + SESSION_IDLE_MS, via === 'oidc' && !refresh ? Number(expires) : Number(created) + SESSION_MAX_MS);
    if (renewed - Number(expires) >= SESSION_RENEW_MS || now - Number(seen ?? 0) >= SESSION_RENEW_MS) {
      await ctx.dbh.db
        .updateTable('sessions')
        .set({ expires_at: Math.max(renewed, Number(expires)), last_seen_at: now, ip: req.ip })
        .where('id_hash', '=', hash)
        .execute();
      if (renewed - Number(expires) >= SESSION_RENEW_MS) setSessionCookie(reply, token, renewed - now, ctx.config.secureCookies);
    }
  });

  app.addHook('preHandler', async (req) => {
    // Pages and assets are public; the data behind them is the API's.
    if (!req.routeOptions.url?.startsWith('/api')) return;
    checkAccess(req.routeOptions.config?.access, req.user);
  });
});

function setSessionCookie(reply: FastifyReply, token: string, ttlMs: number, secure: boolean) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: Math.floor(ttlMs / 1000),
  });
}

export type SessionVia = 'link' | 'oidc' | 'passkey';

/**
 * Signs `userId` in on this device: one session row (its public id, how it was made, the browser
 * and address it came from) and the cookie. Every way of signing in ends here.
 * `sso` is single sign-on's own limits: the provider's sealed refresh token, when to ask the
 * provider again, and the session's hard end.
 */
export async function startSession(
  ctx: Ctx,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  via: SessionVia,
  sso?: { refresh: string | null; recheckAt: number; expiresAt: number },
) {
  const now = Date.now();
  const token = randomToken();
  const expiresAt = Math.min(now + SESSION_IDLE_MS, sso?.expiresAt ?? Infinity);
  await ctx.dbh.db
    .insertInto('sessions')
    .values({
      id_hash: hashToken(ctx.secret, token),
      sid: randomToken().slice(0, 22),
      user_id: userId,
      via,
      user_agent: (req.headers['user-agent'] ?? '').slice(0, 400) || null,
      ip: req.ip,
      last_seen_at: now,
      oidc_refresh: sso?.refresh ?? null,
      recheck_at: sso?.recheckAt ?? null,
      created_at: now,
      expires_at: expiresAt,
    })
    .execute();
  setSessionCookie(reply, token, expiresAt - now, ctx.config.secureCookies);
}
