import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { Ctx } from '../../context';
import type { Database } from '../../db/schema';
import { ApiError, notFound } from '../../http/errors';
import { implement } from '../../http/implement';
import { portalName } from '../../mail/mailer';
import { hashToken, randomToken } from '../tokens';
import { startSession } from '../session';
import { admitUser } from '../account';
import { sessionUser } from '../routes';
import { MAX_PASSKEYS } from '../../../domain/passkeys';
import { PASSKEY_MSG } from '../../../domain/passkey-messages';
import { MSG } from '../../../domain/auth-messages';

/** A ceremony (its challenge) lasts 5 minutes, the browser's own timeout. */
const FLOW_MS = 5 * 60 * 1000;
/** Binds a ceremony to the browser that started it: a random value whose keyed hash is the auth_flows row's id. */
export const FLOW_COOKIE = 'bdc_passkey';
const COOKIE_PATH = '/api/auth/passkeys';
type Kind = 'passkey-add' | 'passkey-signin';

const present = (p: Selectable<Database['passkeys']>) => ({
  id: p.id,
  name: p.name,
  createdAt: new Date(Number(p.created_at)).toISOString(),
  lastUsedAt: p.last_used_at === null ? null : new Date(Number(p.last_used_at)).toISOString(),
});

/** Passkeys (WebAuthn): add, list, rename and remove one's own under Settings; sign in with one (discoverable, user verified). */
export async function passkeyRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;
  const origin = new URL(ctx.config.PUBLIC_URL).origin;
  const rpID = new URL(ctx.config.PUBLIC_URL).hostname;

  async function startFlow(reply: FastifyReply, kind: Kind, userId: string | null, challenge: string) {
    const token = randomToken();
    const now = Date.now();
    await db.deleteFrom('auth_flows').where('kind', '=', kind).where('expires_at', '<=', now).execute();
    await db
      .insertInto('auth_flows')
      .values({ id_hash: hashToken(ctx.secret, token), kind, user_id: userId, data: JSON.stringify({ challenge }), expires_at: now + FLOW_MS, created_at: now })
      .execute();
    reply.setCookie(FLOW_COOKIE, token, { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure: ctx.config.secureCookies, maxAge: FLOW_MS / 1000 });
  }

  /** This browser's ceremony, spent by one DELETE whatever follows: a replayed answer finds nothing. */
  async function spendFlow(req: FastifyRequest, reply: FastifyReply, kind: Kind, userId: string | null): Promise<string> {
    const token = req.cookies[FLOW_COOKIE];
    reply.clearCookie(FLOW_COOKIE, { path: COOKIE_PATH });
    const row = token
      ? await db
          .deleteFrom('auth_flows')
          .where('id_hash', '=', hashToken(ctx.secret, token))
          .where('kind', '=', kind)
          .returning(['data', 'user_id', 'expires_at'])
          .executeTakeFirst()
      : undefined;
    if (!row || Number(row.expires_at) <= Date.now() || row.user_id !== userId) throw new ApiError(400, PASSKEY_MSG.expired, 'passkey-expired');
    return (JSON.parse(row.data) as { challenge: string }).challenge;
  }

  const mine = (userId: string) => db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id');

  implement(app, 'GET /auth/passkeys', async ({ me }) => ({ passkeys: (await mine(me.id).execute()).map(present) }));

  implement(app, 'POST /auth/passkeys/add/options', async ({ me, reply }) => {
    const existing = await mine(me.id).execute();
    const options = await generateRegistrationOptions({
      rpName: portalName(ctx.config),
      rpID,
      userID: new TextEncoder().encode(me.id),
      userName: me.email,
      userDisplayName: me.name || me.email,
      attestationType: 'none',
      // The one he is adding must not be one he has: the browser says so instead of making a second.
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: FLOW_MS,
    });
    await startFlow(reply, 'passkey-add', me.id, options.challenge);
    return { options };
  });

  implement(app, 'POST /auth/passkeys', async ({ me, req, reply, body }) => {
    const challenge = await spendFlow(req, reply, 'passkey-add', me.id);
    let info;
    try {
      const v = await verifyRegistrationResponse({
        response: body.response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: true,
      });
      info = v.registrationInfo;
    } catch (err) {
      req.log.info({ err: (err as Error).message }, 'passkey registration refused');
    }
    if (!info) throw new ApiError(400, PASSKEY_MSG.failed, 'passkey-failed');
    const { credential } = info;
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      const held = await trx
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', me.id)
        .executeTakeFirstOrThrow();
      if (Number(held.n) >= MAX_PASSKEYS)
        throw new ApiError(409, `You have ${MAX_PASSKEYS} passkeys already. Remove one you no longer use, then add this one.`, 'too-many-passkeys');
      const taken = await trx.selectFrom('passkeys').select('id').where('id', '=', credential.id).executeTakeFirst();
      if (taken) throw new ApiError(409, PASSKEY_MSG.already, 'passkey-exists');
      await trx
        .insertInto('passkeys')
        .values({
          id: credential.id,
          user_id: me.id,
          name: body.name,
          public_key: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ? JSON.stringify(credential.transports) : null,
          created_at: now,
          last_used_at: null,
        })
        .execute();
    });
    const row = await db.selectFrom('passkeys').selectAll().where('id', '=', credential.id).executeTakeFirstOrThrow();
    return { passkey: present(row) };
  });

  implement(app, 'PATCH /auth/passkeys/:id', async ({ me, params, body }) => {
    const row = await db
      .updateTable('passkeys')
      .set({ name: body.name })
      .where('id', '=', params.id)
      .where('user_id', '=', me.id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('Passkey not found');
    return { passkey: present(row) };
  });

  /** Removes one of his passkeys; someone else's is not found. */
  implement(app, 'DELETE /auth/passkeys/:id', async ({ me, params }) => {
    const gone = await db.deleteFrom('passkeys').where('id', '=', params.id).where('user_id', '=', me.id).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) throw notFound('Passkey not found');
    return { ok: true as const };
  });

  // Public, and each call writes a row: limited per client like the link.
  implement(
    app,
    'POST /auth/passkeys/signin/options',
    async ({ reply }) => {
      // Discoverable credentials: no list of ids, the authenticator offers the passkeys it holds for this site.
      const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', allowCredentials: [], timeout: FLOW_MS });
      await startFlow(reply, 'passkey-signin', null, options.challenge);
      return { options };
    },
    { config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
  );

  implement(app, 'POST /auth/passkeys/signin', async ({ req, reply, body }) => {
    const challenge = await spendFlow(req, reply, 'passkey-signin', null);
    const { response } = body;
    const key = await db.selectFrom('passkeys').selectAll().where('id', '=', response.id).executeTakeFirst();
    if (!key) throw new ApiError(400, PASSKEY_MSG.unknown, 'passkey-unknown');
    // The user handle, when the authenticator gives one, is the id it was made for.
    if (response.response.userHandle && Buffer.from(response.response.userHandle, 'base64url').toString('utf8') !== key.user_id)
      throw new ApiError(400, PASSKEY_MSG.failed, 'passkey-failed');
    let newCounter: number | null = null;
    try {
      const v = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        // The counter is checked below against the row, in the same UPDATE that stores the new one.
        credential: { id: key.id, publicKey: Buffer.from(key.public_key, 'base64url'), counter: 0, transports: transportsOf(key) },
        requireUserVerification: true,
      });
      if (v.verified) newCounter = v.authenticationInfo.newCounter;
    } catch (err) {
      req.log.info({ err: (err as Error).message, passkey: key.id }, 'passkey sign-in refused');
    }
    if (newCounter === null) throw new ApiError(400, PASSKEY_MSG.failed, 'passkey-failed');
    const old = Number(key.counter);
    // A counter that did not move forward means a copy of the authenticator (or a replay): refused, the stored counter kept.
    // Of two answers at once with the same counter, the guard on the old value lets one through.
    const moved =
      old > 0 && newCounter <= old
        ? null
        : await db
            .updateTable('passkeys')
            .set({ counter: newCounter, last_used_at: Date.now() })
            .where('id', '=', key.id)
            .where('counter', '=', old)
            .executeTakeFirst();
    if (!moved || Number(moved.numUpdatedRows) !== 1) {
      req.log.warn({ passkey: key.id, stored: old, sent: newCounter }, 'passkey counter did not move forward: refused as a possible clone');
      throw new ApiError(400, PASSKEY_MSG.cloned, 'passkey-cloned');
    }
    // The same policy as every way in (disabled or deleted people are refused), by the passkey's owner's address.
    const owner = await db.selectFrom('users').select('email').where('id', '=', key.user_id).executeTakeFirstOrThrow();
    const user = await admitUser(ctx, owner.email, req.log);
    if (!user) throw new ApiError(403, MSG.accessOff, 'access-off');
    await startSession(ctx, req, reply, user.id, 'passkey');
    return { user: await sessionUser(ctx, user) };
  });
}

function transportsOf(p: Pick<Selectable<Database['passkeys']>, 'transports'>): string[] | undefined {
  return p.transports ? (JSON.parse(p.transports) as string[]) : undefined;
}
