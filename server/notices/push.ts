import webpush from 'web-push';
import { hashToken, randomToken } from '../auth/tokens';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Ctx } from '../context';
import type { Channel, NoticeBody, Outgoing, Sent } from './channels';
import { outbound, OutboundRefused, type OutboundAnswer } from '../http/outbound';
import { pushEndpointVerdict } from '../../domain/push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** How long a push service keeps a push for a phone that is off: a lead is news for minutes, an appointment for its hour. */
const TTL_S: Record<string, number> = { appointment: 3600 };
const DEFAULT_TTL_S = 900;
/** A push service that has not answered by then is tried again later. */
const SEND_TIMEOUT_MS = 10_000;
/** How long a VAPID JWT is good for (push services take up to 24 hours). */
const JWT_S = 12 * 3600;

const keysOf = new WeakMap<Db, Promise<VapidKeys>>();

/** Who the push services may write to about our pushes: VAPID_SUBJECT, else the portal's https address, else its mail sender. */
function subjectOf(config: Config): string {
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  if (config.PUBLIC_URL.startsWith('https:')) return config.PUBLIC_URL;
  const address = /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM;
  return `mailto:${address.trim()}`;
}

/**
 * The VAPID key pair: from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, else made once and kept in the
 * database (like the session secret), so every app server on one database signs with the same key
 * and the browsers' subscriptions stay valid across restarts.
 */
export function vapidKeys(ctx: Pick<Ctx, 'config' | 'dbh'>): Promise<VapidKeys> {
  const { config } = ctx;
  const { db } = ctx.dbh;
  const subject = subjectOf(config);
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return Promise.resolve({ publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject });
  let keys = keysOf.get(db);
  if (!keys) {
    keys = (async () => {
      const fresh = webpush.generateVAPIDKeys();
      await db
        .insertInto('settings')
        .values({ key: 'vapid_keys', value: JSON.stringify(fresh) })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db.selectFrom('settings').select('value').where('key', '=', 'vapid_keys').executeTakeFirstOrThrow();
      const kept = JSON.parse(row.value) as { publicKey: string; privateKey: string };
      return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject };
    })();
    keys.catch(() => keysOf.delete(db));
    keysOf.set(db, keys);
  }
  return keys;
}

/**
 * A single-use token for the push's Accept: it accepts exactly this lead for this person, once,
 * until `expiresAt` (the lead's time to accept). Kept only as a keyed hash, as sign-in tokens are.
 */
export async function makeAcceptToken(db: Db, secret: string, leadId: number, userId: string, expiresAt: number): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('accept_tokens')
    .values({ token_hash: hashToken(secret, token), lead_id: leadId, user_id: userId, expires_at: expiresAt, used_at: null })
    .execute();
  return token;
}

/** The token's row, if it is one of ours. */
export const findAcceptToken = (db: Db, secret: string, token: string) =>
  db.selectFrom('accept_tokens').selectAll().where('token_hash', '=', hashToken(secret, token)).executeTakeFirst();

/** Uses the token up: true for the one call that does so while it is still valid. */
export async function useAcceptToken(db: Db, secret: string, token: string, now = Date.now()): Promise<boolean> {
  const r = await db
    .updateTable('accept_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(secret, token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** What the phone gets: what the lead's card shows and no more. */
const payloadOf = (b: NoticeBody) => JSON.stringify({ title: b.title, text: b.text, url: b.url, ...(b.accept ? { accept: b.accept } : {}) });

/** A push service's answer as the sender needs it. */
function answerOf(status: number, location: string | null): Sent {
  if (status >= 200 && status < 300) return { ok: true, ...(location ? { providerId: location } : {}) };
  // The browser dropped the subscription (unsubscribed, app data cleared): it is removed.
  if (status === 404 || status === 410) return { ok: false, error: `The push service no longer knows this device (${status}).`, gone: true };
  // Our request itself is wrong (bad signature, a key the subscription was not made with, too big): again would not help.
  if (status === 400 || status === 401 || status === 403 || status === 413)
    return { ok: false, error: `The push service refused the push (${status}).`, permanent: true };
  return { ok: false, error: `The push service answered ${status}.` };
}

/** What the lead's timeline says of a push to a device the guard refused (server/http/outbound.ts). */
const REFUSED_DEVICE = 'This device’s push address is not one the portal may send to, so the device was removed. Turn notifications on again on it.';

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and the payload encrypted for the device (aes128gcm,
 * RFC 8291) by web-push. Sent only to a push service domain/push.ts admits, through the outbound
 * guard (the address checked at send time, no redirect followed); an origin PUSH_HOSTS names in
 * full (the tests' stand-in on plain http) is reached the same way.
 */
export function pushChannel(ctx: Pick<Ctx, 'config' | 'dbh' | 'log'>): Channel {
  const { db } = ctx.dbh;
  // One signed JWT per push service, used until an hour before it expires: signing is most of a push's CPU.
  const signed = new Map<string, { authorization: string; key: string; until: number }>();
  const authorization = (endpoint: string, keys: VapidKeys) => {
    const aud = new URL(endpoint).origin;
    const now = Date.now();
    const kept = signed.get(aud);
    if (kept && kept.key === keys.publicKey && kept.until > now) return kept.authorization;
    const exp = Math.floor(now / 1000) + JWT_S;
    const { Authorization } = webpush.getVapidHeaders(aud, keys.subject, keys.publicKey, keys.privateKey, 'aes128gcm', exp);
    signed.set(aud, { authorization: Authorization, key: keys.publicKey, until: now + (JWT_S - 3600) * 1000 });
    return Authorization;
  };
  /** A device whose endpoint the guard refuses: removed, with the same words whatever the reason, so a lead's timeline tells nothing about the network. */
  const refused = (id: number, why: string): Sent => {
    ctx.log.warn({ device: id }, `push endpoint refused: ${why}`);
    return { ok: false, error: REFUSED_DEVICE, gone: true };
  };
  return {
    async send(n: Outgoing): Promise<Sent> {
      const id = Number(n.target);
      const sub = Number.isSafeInteger(id)
        ? await db.selectFrom('push_subscriptions').selectAll().where('id', '=', id).where('user_id', '=', n.userId).executeTakeFirst()
        : undefined;
      if (!sub) return { ok: false, error: 'Notifications were turned off on this device.', gone: true };
      const verdict = pushEndpointVerdict(sub.endpoint, ctx.config.PUSH_HOSTS);
      if (!verdict.ok) return refused(sub.id, 'not a push service the portal sends to');
      const keys = await vapidKeys(ctx);
      let details: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payloadOf(n.body), {
          headers: { Authorization: authorization(sub.endpoint, keys) },
          TTL: TTL_S[n.kind] ?? DEFAULT_TTL_S,
          urgency: 'high',
          contentEncoding: 'aes128gcm',
        });
      } catch (err) {
        return { ok: false, error: `The push could not be made: ${(err as Error).message}`, permanent: true };
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(details.headers)) if (k.toLowerCase() !== 'content-length') headers[k] = String(v);
      let res: OutboundAnswer;
      try {
        res = await outbound(details.endpoint, {
          method: 'POST',
          headers,
          body: details.body ? new Uint8Array(details.body) : undefined,
          timeoutMs: SEND_TIMEOUT_MS,
          trusted: verdict.trusted,
        });
      } catch (err) {
        if (err instanceof OutboundRefused) return refused(sub.id, err.message);
        return { ok: false, error: `The push service could not be reached: ${(err as Error).message}` };
      }
      // No push service sends a push on elsewhere: a redirect is not followed, and the device goes.
      if (res.status >= 300 && res.status < 400) return refused(sub.id, `the push service answered ${res.status} (a redirect)`);
      const location = res.headers.location;
      const sent = answerOf(res.status, typeof location === 'string' ? location : null);
      if (sent.ok) await db.updateTable('push_subscriptions').set({ last_used_at: Date.now() }).where('id', '=', sub.id).execute();
      return sent;
    },
  };
}
