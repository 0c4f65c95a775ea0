import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Ctx } from '../context';
import { hashToken, randomToken, SESSION_COOKIE, SESSION_IDLE_MS, SESSION_MAX_MS, SESSION_RENEW_MS } from './tokens';
import { checkAccess } from './policy';
import { recheckSession } from './oidc/recheck';
import type { UserRow } from '../users/repo';
import { sessionCache, type SessionSeen } from './session-cache';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    sessionHash: string | null;
    /** The session's public id (Settings → Signed-in devices marks "This device" by it). */
    sessionId: string | null;
  }
}

/** Resolves the session cookie to a live user on every request (server/auth/session-cache.ts), then enforces the route's access. */
export const sessionPlugin = fp(async (app: FastifyInstance, { ctx, keepMs }: { ctx: Ctx; keepMs?: number }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionHash', null);
  app.decorateRequest('sessionId', null);

  const cache = sessionCache<UserRow>(ctx.bus, keepMs);
  app.addHook('onClose', async () => cache.stop());

  /** The live session behind this hash: kept by this server, else read (disabled or deleted users match nothing, so their sessions stop at once). */
  async function lookUp(hash: string, now: number): Promise<SessionSeen<UserRow> | undefined> {
    const kept = cache.get(hash, now);
    if (kept) return kept;
    const mark = cache.mark();
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
    if (!row) return undefined;
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
    const session = {
      user,
      sid,
      created: Number(created),
      expires: Number(expires),
      seen: Number(seen ?? 0),
      via,
      recheck: recheck == null ? null : Number(recheck),
      refresh,
    };
    cache.put(hash, session, mark, now);
    return session;
  }

  app.addHook('onRequest', async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    // Pages and assets never need the user: no look-up for each file of a page load.
    // (/healthz shows a manager its details.)
    if (!token || !(req.url.startsWith('/api') || req.url === '/healthz')) return;
    const hash = hashToken(ctx.secret, token);
    const now = Date.now();
    const session = await lookUp(hash, now);
    if (!session) return;
    const { user, sid, created, expires, seen, via, recheck, refresh } = session;
    // Single sign-on: the provider is asked again now and then, and its "no" ends the session.
    // Either way the session is read afresh next time (its next check, or its end).
    if (refresh && recheck != null && recheck <= now) {
      cache.drop(hash);
      if (!(await recheckSession(ctx, { hash, sid, userId: user.id }, refresh, recheck))) return;
    }
    req.user = user;
    req.sessionHash = hash;
    req.sessionId = sid;
    // Used: the idle limit starts again, never beyond the absolute limit, and "last seen" moves.
    // Both are written at most once per SESSION_RENEW_MS, not once a request.
    // A single sign-on session with nothing to re-check it by ends at its set hour, used or not.
    const renewed = Math.min(now + SESSION_IDLE_MS, via === 'oidc' && !refresh ? expires : created + SESSION_MAX_MS);
    if (renewed - expires >= SESSION_RENEW_MS || now - seen >= SESSION_RENEW_MS) {
      // The kept copy moves with the row, so the next request does not renew it again.
      session.expires = Math.max(renewed, expires);
      session.seen = now;
      await ctx.dbh.db
        .updateTable('sessions')
        .set({ expires_at: Math.max(renewed, expires), last_seen_at: now, ip: req.ip })
        .where('id_hash', '=', hash)
        .execute();
      if (renewed - expires >= SESSION_RENEW_MS) setSessionCookie(reply, token, renewed - now, ctx.config.secureCookies);
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
