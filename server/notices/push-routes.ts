import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { Database } from '../db/schema';
import { ApiError, notFound } from '../http/errors';
import { implement } from '../http/implement';
import { storeBus } from '../events/bus';
import { acceptLead } from '../leads/service';
import { BAD_ENDPOINT, deviceLabel, MAX_DEVICES, pushEndpointVerdict } from '../../domain/push';
import { findAcceptToken, useAcceptToken, vapidKeys } from './push';

const NO_LONGER = 'This Accept is no longer valid. Open the lead in the portal.';
/** Guessing a 256-bit token is hopeless; this only keeps a flood off the database. */
const ACCEPTS_PER_MINUTE = 60;

const present = (s: Selectable<Database['push_subscriptions']>) => ({
  id: Number(s.id),
  label: s.label,
  endpoint: s.endpoint,
  createdAt: new Date(Number(s.created_at)).toISOString(),
  lastUsedAt: s.last_used_at === null ? null : new Date(Number(s.last_used_at)).toISOString(),
});

/** Whether `key` is a point on P-256 (a browser's p256dh always is; anything else cannot be encrypted for). */
function onCurve(key: string) {
  try {
    crypto.ECDH.convertKey(Buffer.from(key, 'base64url'), 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/** Push subscriptions (each device a person turned notifications on from) and the push's Accept. */
export async function pushRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;
  const mine = (userId: string) => db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).orderBy('id');

  /** The key the browser subscribes with (applicationServerKey). */
  implement(app, 'GET /push/key', async () => ({ key: (await vapidKeys(ctx)).publicKey }));

  implement(app, 'GET /push/subscriptions', async ({ me }) => ({ devices: (await mine(me.id).execute()).map(present) }));

  /** This device: a new one, or the same endpoint again (now his, with fresh keys). */
  implement(app, 'POST /push/subscriptions', async ({ me, body, req }) => {
    const { endpoint, keys } = body;
    // The sender checks it again, and the address it resolves to, when it sends (server/http/outbound.ts).
    if (!pushEndpointVerdict(endpoint, ctx.config.PUSH_HOSTS).ok) throw new ApiError(400, BAD_ENDPOINT, 'bad_endpoint', 'endpoint');
    if (!onCurve(keys.p256dh)) throw new ApiError(400, 'The subscription key (p256dh) must be a P-256 public key.', 'bad_key', 'keys.p256dh');
    const label = deviceLabel(req.headers['user-agent']);
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      const others = await trx
        .selectFrom('push_subscriptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', me.id)
        .where('endpoint', '<>', endpoint)
        .executeTakeFirstOrThrow();
      if (Number(others.n) >= MAX_DEVICES)
        throw new ApiError(
          409,
          `Notifications are on for ${MAX_DEVICES} devices already. Remove one you no longer use, then turn them on here.`,
          'too_many_devices',
        );
      await trx
        .insertInto('push_subscriptions')
        .values({ user_id: me.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, label, session_sid: req.sessionId, created_at: now, last_used_at: null })
        .onConflict((oc) =>
          oc
            .column('endpoint')
            .doUpdateSet({ user_id: me.id, p256dh: keys.p256dh, auth: keys.auth, label, session_sid: req.sessionId, created_at: now, last_used_at: null }),
        )
        .execute();
    });
    const row = await db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', endpoint).executeTakeFirstOrThrow();
    return { device: present(row) };
  });

  /** Turns notifications off for one of his devices; someone else's is not found. */
  implement(app, 'DELETE /push/subscriptions/:id', async ({ me, params }) => {
    const r = await db.deleteFrom('push_subscriptions').where('id', '=', params.id).where('user_id', '=', me.id).executeTakeFirst();
    if (Number(r.numDeletedRows) !== 1) throw notFound('Device not found');
    return { ok: true as const };
  });

  /**
   * The push's Accept, from the service worker with no session: the token alone accepts its own
   * lead for its own person, once, while the lead is still his and waiting.
   */
  implement(
    app,
    'POST /push/accept',
    async ({ body }) => {
      const now = Date.now();
      const t = await findAcceptToken(db, ctx.secret, body.token);
      if (!t || t.used_at !== null || Number(t.expires_at) <= now) throw new ApiError(410, NO_LONGER, 'accept_gone');
      const user = await db.selectFrom('users').select(['id', 'name', 'disabled', 'deleted_at']).where('id', '=', t.user_id).executeTakeFirst();
      if (!user || user.disabled || user.deleted_at !== null) throw new ApiError(410, NO_LONGER, 'accept_gone');
      if (!(await useAcceptToken(db, ctx.secret, body.token, now))) throw new ApiError(410, NO_LONGER, 'accept_gone');
      const lead = await db.selectFrom('leads').select(['store_id']).where('id', '=', Number(t.lead_id)).executeTakeFirst();
      if (!lead) throw new ApiError(410, NO_LONGER, 'accept_gone');
      try {
        await acceptLead(db, Number(t.lead_id), { id: user.id, name: user.name }, now);
      } catch (err) {
        if (err instanceof ApiError && err.status === 403) throw new ApiError(409, 'This lead was handed on: it is no longer yours.', 'not_yours');
        throw err;
      }
      storeBus(ctx.bus, Number(lead.store_id)).publish({ topic: 'leads' });
      return { ok: true as const };
    },
    { config: { rateLimit: { max: ACCEPTS_PER_MINUTE, timeWindow: 60_000 } } },
  );
}
