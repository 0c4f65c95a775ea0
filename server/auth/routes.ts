import type { SessionUser } from '../../domain/contract/answers';
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { ApiError } from '../http/errors';
import { implement } from '../http/implement';
import { escapeHtml, portalName } from '../mail/mailer';
import { hit } from '../http/limits';
import { hashToken, LINK_TTL_MS, randomToken, SESSION_COOKIE } from './tokens';
import { startSession } from './session';
import { endSessions } from './sessions/service';
import { signInVerdict } from './policy';
import { findUserByEmail, toUser, type UserRow } from '../users/repo';
import { admitUser } from './account';
import { linkOff, linkSignInOn } from './oidc/settings';
import { storesOf } from '../stores/service';
import { effectiveRole } from '../../domain/roles';

export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;
  const { config } = ctx;

  implement(
    app,
    'POST /auth/link',
    async ({ req, body: { email } }) => {
      // The same answer for every address: it says nothing about who may sign in.
      if (!(await linkSignInOn(ctx))) throw new ApiError(403, linkOff(config), 'link-off');
      // Counted per client and address: a stranger's requests cannot use up someone's own links.
      const { hits } = await hit(db, `link:${req.ip}:${email}`, LINK_TTL_MS);
      const existing = await findUserByEmail(db, email);
      const verdict = signInVerdict(config, email, existing);
      const why = !verdict.allowed
        ? verdict.why
        : hits > config.SIGNIN_LINKS_PER_ADDRESS
          ? `more than ${config.SIGNIN_LINKS_PER_ADDRESS} requested from this client in 15 minutes`
          : null;
      const now = Date.now();
      const token = randomToken();
      const link = `${config.PUBLIC_URL}/finish-login?e=${encodeURIComponent(email)}&t=${token}`;
      // Everyone gets the same answer after the same writes, so neither the answer nor its time
      // tells which addresses exist: a refused request stores a token already spent and a mail
      // row marked dropped.
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('login_tokens')
          .values({ token_hash: hashToken(ctx.secret, token), email, expires_at: now + LINK_TTL_MS, used_at: why ? now : null, created_at: now })
          .execute();
        await ctx.outbox.enqueue(trx, [
          {
            kind: 'signin',
            mail: linkMail(config, email, link),
            logLine: `Sign-in link for ${email} (expires in 15 minutes): ${link}`,
            expiresAt: now + LINK_TTL_MS,
            dropped: why ?? undefined,
          },
        ]);
      });
      if (why) req.log.info({ email }, `sign-in link not sent: ${why}`);
      else ctx.outbox.wake();
      return { ok: true as const };
    },
    { config: { rateLimit: { max: config.SIGNIN_LINKS_PER_MINUTE, timeWindow: 60_000 } } },
  );

  implement(app, 'POST /auth/complete', async ({ req, reply, body: { email, token } }) => {
    if (!(await linkSignInOn(ctx))) throw new ApiError(403, linkOff(config), 'link-off');
    const now = Date.now();
    const hash = hashToken(ctx.secret, token);
    // One UPDATE both checks and spends the token, so two tabs cannot use one link.
    const spent = await db
      .updateTable('login_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('email', '=', email)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) {
      throw new ApiError(400, 'This link was already used or expired.', 'invalid-action-code');
    }
    const user = await admitUser(ctx, email, req.log);
    if (!user) throw new ApiError(400, 'This link was already used or expired.', 'invalid-action-code');
    await startSession(ctx, req, reply, user.id, 'link');
    return { user: await sessionUser(ctx, user) };
  });

  // Who am I: signed out is an answer (null), not an error, so a first visit logs nothing in red.
  implement(app, 'GET /auth/me', async ({ me }) => ({ user: me ? await sessionUser(ctx, me) : null }));

  implement(app, 'POST /auth/logout', async ({ me, req, reply }) => {
    // As a sign-out from another device: this device's notifications and open screens end with it.
    if (me && req.sessionId) await endSessions(db, ctx.bus, me.id, { sid: req.sessionId });
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true };
  });
}

/**
 * The specification's session user: claimRole is what the server's configuration says of the
 * address; his stores, the one his screens open in, and his place in its line (the profile's flags).
 */
export async function sessionUser(ctx: Ctx, u: UserRow): Promise<SessionUser> {
  const stores = await storesOf(ctx.dbh.db, u);
  const home = stores.find((s) => s.id === u.store_id) ?? stores[0] ?? null;
  const place = home
    ? await ctx.dbh.db
        .selectFrom('memberships')
        .select(['active', 'on_duty', 'snooze_until'])
        .where('user_id', '=', u.id)
        .where('store_id', '=', home.id)
        .executeTakeFirst()
    : null;
  const profile = toUser(u, place);
  const claimRole = ctx.config.MANAGER_EMAILS.includes(u.email) ? 'manager' : null;
  const role = effectiveRole(profile.role, null, claimRole);
  return {
    uid: u.id,
    email: u.email,
    name: u.name,
    claimRole,
    profileRole: profile.role,
    role,
    isManager: role === 'manager',
    groupManager: !!u.all_stores,
    stores,
    store: home?.code ?? null,
    profile,
  };
}

function linkMail(config: Ctx['config'], to: string, link: string) {
  const portal = portalName(config);
  return {
    to,
    subject: `Your sign-in link for ${portal}`,
    text: `Hello,\n\nUse this link to sign in to ${portal}:\n\n${link}\n\nThe link works once and expires in 15 minutes. If you did not ask for it, ignore this e-mail.\n`,
    html: `<p>Hello,</p><p>Use this link to sign in to <b>${escapeHtml(portal)}</b>:</p><p><a href="${link}">Sign in to ${escapeHtml(portal)}</a></p><p>The link works once and expires in 15 minutes. If you did not ask for it, ignore this e-mail.</p>`,
  };
}
