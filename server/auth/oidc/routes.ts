import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { Ctx } from '../../context';
import { ApiError } from '../../http/errors';
import { implement } from '../../http/implement';
import { hashToken, randomToken } from '../tokens';
import { startSession } from '../session';
import { admitUser } from '../account';
import { providerOf, RECHECK_MS, scopeFor } from './client';
import { seal } from './seal';
import { linkSignInOn, redirectUri, setLinkSignIn, ssoConfigured } from './settings';
import type { SignInSettings } from '../../../domain/signin';
import { parseEmail } from '../../../domain/email';

const FLOW_COOKIE = 'bdc_oidc';
const FLOW_MS = 10 * 60 * 1000;
const STARTS_PER_MINUTE = 30;
const HOUR_MS = 60 * 60 * 1000;
/** Where every refusal lands: the sign-in page, with the same words as a refused link. */
export const REFUSED = '/?signin=refused';

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
}

/** A refusal: its reason is for the log, never for the page. */
class Refused extends Error {}

/** The browser's side of single sign-on (/auth/oidc/start and /callback), outside /api like the pages. */
export async function oidcRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { config } = ctx;
  const { db } = ctx.dbh;
  const cookieOptions = { path: '/auth/oidc', httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies };
  const off = (reply: FastifyReply) => reply.status(404).send({ error: 'Single sign-on is not set up here.' });

  // Each start stores a flow: counted per client (in the database, across app servers) like the link's requests.
  app.get('/auth/oidc/start', { config: { access: 'public', rateLimit: { max: STARTS_PER_MINUTE, timeWindow: 60_000 } } }, async (req, reply) => {
    if (!ssoConfigured(config)) return off(reply);
    let provider: client.Configuration;
    try {
      provider = await providerOf(config);
    } catch (err) {
      req.log.warn({ err }, 'single sign-on: the provider could not be reached (discovery)');
      return reply.redirect(REFUSED);
    }
    const flow: Flow = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier() };
    const key = randomToken();
    const now = Date.now();
    // Kept in the database, so any app server can finish it; the browser holds only the key.
    await db
      .insertInto('auth_flows')
      .values({ id_hash: hashToken(ctx.secret, key), kind: 'oidc', user_id: null, data: JSON.stringify(flow), expires_at: now + FLOW_MS, created_at: now })
      .execute();
    reply.setCookie(FLOW_COOKIE, key, { ...cookieOptions, maxAge: FLOW_MS / 1000 });
    const url = client.buildAuthorizationUrl(provider, {
      redirect_uri: redirectUri(config),
      scope: scopeFor(provider),
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    });
    return reply.redirect(url.href);
  });

  app.get('/auth/oidc/callback', { config: { access: 'public' } }, async (req, reply) => {
    if (!ssoConfigured(config)) return off(reply);
    reply.clearCookie(FLOW_COOKIE, cookieOptions);
    try {
      const flow = await spendFlow(req);
      const provider = await providerOf(config);
      const tokens = await client.authorizationCodeGrant(
        provider,
        new URL(req.url, config.PUBLIC_URL),
        { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true },
        { redirect_uri: redirectUri(config) },
      );
      const idToken = tokens.claims();
      if (!idToken) throw new Refused('the provider sent no ID token');
      // Some providers put the address in the ID token, others only behind their userinfo endpoint.
      const claims = typeof idToken.email === 'string' ? idToken : await client.fetchUserInfo(provider, tokens.access_token, idToken.sub);
      if (typeof claims.email !== 'string' || !claims.email) throw new Refused('the provider names no e-mail address');
      // Read as every address is: a claim that is no plain address (a second @, quotes, a Kelvin sign) matches no one.
      const email = parseEmail(claims.email)?.address;
      if (!email) throw new Refused(`the provider's address ${JSON.stringify(claims.email)} is not a valid e-mail address`);
      // Microsoft Entra ID sends no email_verified; its optional claim xms_edov says the same thing.
      const verified = claims.email_verified === true || claims.xms_edov === true;
      const user = await admitUser(ctx, email, req.log, { verified });
      if (!user) throw new Refused(`${email} may not sign in here`);
      const now = Date.now();
      const refresh = tokens.refresh_token ? seal(ctx.secret, tokens.refresh_token) : null;
      const hardEnd = now + config.OIDC_SESSION_HOURS * HOUR_MS;
      await startSession(ctx, req, reply, user.id, 'oidc', {
        refresh,
        recheckAt: refresh ? now + RECHECK_MS : hardEnd,
        expiresAt: refresh ? Infinity : hardEnd,
      });
      req.log.info({ email }, 'signed in with single sign-on');
      return reply.redirect('/dashboard/overview');
    } catch (err) {
      if (err instanceof Refused) req.log.info(`single sign-on refused: ${err.message}`);
      else req.log.warn({ err }, 'single sign-on refused');
      return reply.redirect(REFUSED);
    }
  });

  /** The flow this browser started: spent by the one DELETE that finds it, so a replay finds nothing. */
  async function spendFlow(req: FastifyRequest): Promise<Flow> {
    const key = req.cookies[FLOW_COOKIE];
    if (!key) throw new Refused('no sign-in in progress in this browser (no flow cookie)');
    const row = await db
      .deleteFrom('auth_flows')
      .where('id_hash', '=', hashToken(ctx.secret, key))
      .where('kind', '=', 'oidc')
      .where('expires_at', '>', Date.now())
      .returning('data')
      .executeTakeFirst();
    if (!row) throw new Refused('no such sign-in in progress: already finished (a replay), older than 10 minutes, or never started');
    return JSON.parse(row.data) as Flow;
  }
}

/** /api/auth/methods and /api/auth/settings: which ways to sign in there are, and the manager's switch. */
export async function signInMethodRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { config } = ctx;
  const settings = async (mayChange: boolean): Promise<SignInSettings> => ({
    sso: ssoConfigured(config),
    label: ssoConfigured(config) ? config.OIDC_LABEL : null,
    redirectUri: redirectUri(config),
    link: await linkSignInOn(ctx),
    mayChange,
  });

  implement(app, 'GET /auth/methods', async () => ({
    link: await linkSignInOn(ctx),
    oidc: ssoConfigured(config) ? { label: config.OIDC_LABEL } : null,
  }));

  implement(app, 'GET /auth/settings', async ({ me }) => settings(!!me.all_stores));

  implement(app, 'PUT /auth/settings', async ({ me, body }) => {
    if (!me.all_stores) throw new ApiError(403, 'Only a group manager can change how people sign in.');
    if (!body.link && !ssoConfigured(config))
      throw new ApiError(
        400,
        'Set up single sign-on (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET) before turning the e-mail link off: nobody could sign in.',
      );
    await setLinkSignIn(ctx, body.link);
    return settings(true);
  });
}
