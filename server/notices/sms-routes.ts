import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashToken } from '../auth/tokens';
import { hit } from '../http/limits';
import { z } from 'zod';
import type { Ctx } from '../context';
import { implement } from '../http/implement';
import { ApiError, badRequest, notFound, parse } from '../http/errors';
import { BAD_TEXT, isCleanText } from '../http/text';
import { keyword, numberMovedMail, type MobileState } from '../../domain/notices-phone';
import { sendText, signatureValid, smsEnabled, type Fields } from './sms';
import { takeStatus } from './sms-status';

const CODE_TTL_MS = 10 * 60_000;
const CODE_TRIES = 5;
const RESEND_MS = 60_000;
/** Codes sent to one person in an hour, at most one a minute (RESEND_MS). */
export const CODES_PER_HOUR = 5;
const WEBHOOK_LIMIT = 16 * 1024;
const WEBHOOK_FIELDS = 100;

export const NOT_SET_UP = 'Text messages are not set up on this portal. Ask your manager.';
export const NO_CODE = 'No code is waiting. Enter your number and press Send code.';
export const LOCKED = 'Too many wrong codes. Press Send code for a new one.';
export const EXPIRED = 'This code has expired. Press Send code for a new one.';
export const TOO_SOON = 'A code was sent less than a minute ago. Wait a minute, then press Send code again.';
const NOT_SENT = 'The text could not be sent. Check the number and try again in a minute.';
export const BAD_SIGNATURE = 'This webhook is not signed by the SMS provider.';
export const tooMany = (minutes: number) => `${CODES_PER_HOUR} codes were sent this hour. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
const wrongCode = (left: number) => `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`;

/** A code is kept as sign-in tokens are, keyed, and bound to its person and number. */
const hashCode = (secret: string, userId: string, mobile: string, code: string) => hashToken(secret, `mobile-code:${userId}:${mobile}:${code}`);

const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** A webhook's fields: text of bounded length; the provider sends more fields than these, which are signed but not read. */
const MESSAGE_SID = /^[A-Z]{2}[0-9a-f]{32}$/;
const inbound = z.object({
  MessageSid: z.string().regex(MESSAGE_SID),
  From: z.string().max(40),
  Body: z.string().max(1600),
});
const status = z.object({
  MessageSid: z.string().regex(MESSAGE_SID),
  MessageStatus: z.string().regex(/^[a-z_]{1,30}$/),
  ErrorCode: z
    .string()
    .regex(/^[0-9]{1,6}$/)
    .optional(),
});

/** A person's mobile number (Settings → Text messages) and the SMS provider's webhooks. */
export async function smsRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { config } = ctx;
  const db = ctx.dbh.db;

  async function stateOf(userId: string): Promise<MobileState> {
    const u = await db.selectFrom('users').select(['mobile', 'mobile_confirmed_at', 'sms_stopped_at']).where('id', '=', userId).executeTakeFirst();
    const code = await db.selectFrom('mobile_codes').select(['mobile', 'tries', 'expires_at']).where('user_id', '=', userId).executeTakeFirst();
    const confirmed = u?.mobile && u.mobile_confirmed_at ? u.mobile : null;
    return {
      enabled: smsEnabled(config),
      mobile: confirmed,
      stopped: !!(confirmed && u?.sms_stopped_at),
      pending: code && code.tries < CODE_TRIES && code.expires_at > Date.now() ? code.mobile : null,
    };
  }

  implement(app, 'GET /profile/mobile', async ({ me }) => stateOf(me.id));

  implement(app, 'PUT /profile/mobile', async ({ me, body: { mobile } }) => {
    if (!smsEnabled(config)) throw new ApiError(409, NOT_SET_UP, 'sms_off');
    const now = Date.now();
    if (me.mobile === mobile && me.mobile_confirmed_at) return stateOf(me.id);
    // A number someone else confirmed is answered as any other (that would say who holds which
    // number): the code goes to the phone, and whoever holds it takes the number (confirm).
    const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
    const row = { user_id: me.id, mobile, code_hash: hashCode(ctx.secret, me.id, mobile, code), tries: 0, expires_at: now + CODE_TTL_MS, created_at: now };
    // One pending code per person: a new one replaces the last, unless that was sent within the minute.
    const stored = await db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('mobile_codes')
        .where('user_id', '=', me.id)
        .where('created_at', '<=', now - RESEND_MS)
        .execute();
      const left = await trx.selectFrom('mobile_codes').select('user_id').where('user_id', '=', me.id).executeTakeFirst();
      if (left) return false;
      await trx.insertInto('mobile_codes').values(row).execute();
      return true;
    });
    if (!stored) throw new ApiError(429, TOO_SOON, 'too_soon');
    const { hits, ttl } = await hit(db, `mobile-code:${me.id}`, 3_600_000);
    if (hits > CODES_PER_HOUR) {
      await db.deleteFrom('mobile_codes').where('user_id', '=', me.id).where('code_hash', '=', row.code_hash).execute();
      throw new ApiError(429, tooMany(Math.ceil(ttl / 60_000)), 'too_many_codes');
    }
    const sent = await sendText(
      config,
      mobile,
      `${config.APP_NAME}: your code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this text.`,
    );
    if (!sent.ok) {
      await db.deleteFrom('mobile_codes').where('user_id', '=', me.id).where('code_hash', '=', row.code_hash).execute();
      ctx.log.warn({ user: me.id, error: sent.error }, 'mobile confirmation code not sent');
      throw new ApiError(sent.permanent ? 400 : 502, NOT_SENT, 'not_sent');
    }
    return stateOf(me.id);
  });

  implement(app, 'POST /profile/mobile/confirm', async ({ me, body: { code } }) => {
    const now = Date.now();
    const row = await db.selectFrom('mobile_codes').selectAll().where('user_id', '=', me.id).executeTakeFirst();
    if (!row) throw badRequest(NO_CODE, 'no_code');
    if (row.tries >= CODE_TRIES) throw badRequest(LOCKED, 'locked');
    if (row.expires_at <= now) throw badRequest(EXPIRED, 'expired');
    const hash = hashCode(ctx.secret, me.id, row.mobile, code);
    const same = crypto.timingSafeEqual(Buffer.from(hash), Buffer.from(row.code_hash));
    if (!same) {
      // Counted in the row itself, so tries in parallel cannot pass the limit.
      const counted = await db
        .updateTable('mobile_codes')
        .set((eb) => ({ tries: eb('tries', '+', 1) }))
        .where('user_id', '=', me.id)
        .where('code_hash', '=', row.code_hash)
        .where('tries', '<', CODE_TRIES)
        .executeTakeFirst();
      const left = CODE_TRIES - row.tries - 1;
      if (Number(counted.numUpdatedRows) !== 1 || left <= 0) throw badRequest(LOCKED, 'locked');
      throw badRequest(wrongCode(left), 'wrong_code');
    }
    const confirmed = await db.transaction().execute(async (trx) => {
      // Spends the code in the same statement that checks it: one code confirms once.
      const spent = await trx
        .deleteFrom('mobile_codes')
        .where('user_id', '=', me.id)
        .where('code_hash', '=', row.code_hash)
        .where('tries', '<', CODE_TRIES)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(spent.numDeletedRows) !== 1) return null;
      // Texts to one number go to one person: he proved he holds the phone, so whoever had it
      // confirmed before loses it, and is told by mail (not by whom).
      const earlier = await trx
        .updateTable('users')
        .set({ mobile: null, mobile_confirmed_at: null, sms_stopped_at: null, updated_at: now })
        .where('mobile', '=', row.mobile)
        .where('mobile_confirmed_at', 'is not', null)
        .where('id', '!=', me.id)
        .returning(['id', 'email', 'name'])
        .execute();
      await trx
        .updateTable('users')
        .set({ mobile: row.mobile, mobile_confirmed_at: now, sms_stopped_at: null, updated_at: now })
        .where('id', '=', me.id)
        .execute();
      await ctx.outbox.enqueue(
        trx,
        earlier.map((u) => ({
          kind: 'email' as const,
          mail: { to: u.email, ...numberMovedMail(config.APP_NAME, u.name, row.mobile, `${config.PUBLIC_URL}/dashboard/settings`) },
          logLine: `mobile number of ${u.email} confirmed by another person; told ${u.email}`,
          expiresAt: now + 24 * 3_600_000,
        })),
      );
      return earlier;
    });
    if (!confirmed) throw badRequest(NO_CODE, 'no_code');
    if (confirmed.length) {
      ctx.outbox.wake();
      ctx.log.info({ user: me.id, from: confirmed.map((u) => u.id) }, 'a confirmed mobile number moved to the person who confirmed it');
    }
    for (const id of [me.id, ...confirmed.map((u) => u.id)]) ctx.bus.publish({ topic: 'profile', userId: id });
    return stateOf(me.id);
  });

  implement(app, 'DELETE /profile/mobile', async ({ me }) => {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('mobile_codes').where('user_id', '=', me.id).execute();
      await trx
        .updateTable('users')
        .set({ mobile: null, mobile_confirmed_at: null, sms_stopped_at: null, updated_at: Date.now() })
        .where('id', '=', me.id)
        .execute();
    });
    ctx.bus.publish({ topic: 'profile', userId: me.id });
    return stateOf(me.id);
  });

  await app.register(webhooks, { ctx });
}

/**
 * The provider's webhooks, form-encoded (only here: every other route takes JSON) and signed
 * with SMS_TOKEN over the address they were sent to, which is PUBLIC_URL's.
 */
async function webhooks(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { config } = ctx;
  const db = ctx.dbh.db;
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: WEBHOOK_LIMIT }, (_req, buf: Buffer, done) => {
    try {
      done(null, readForm(strict.decode(buf)));
    } catch (err) {
      done(err instanceof ApiError ? err : new ApiError(400, BAD_TEXT, 'bad_text'), undefined);
    }
  });

  /** The webhook's fields once its signature holds; a 404 while texts are off, a 403 when unsigned or signed by anyone else. */
  function signed(req: FastifyRequest): Fields {
    if (!smsEnabled(config)) throw notFound(NOT_SET_UP);
    const fields = isFields(req.body) ? req.body : null;
    if (!fields) throw badRequest('Send the webhook form-encoded.', 'not_form');
    const header = req.headers['x-twilio-signature'];
    if (!signatureValid(config.SMS_TOKEN ?? '', config.PUBLIC_URL + req.url, fields, typeof header === 'string' ? header : undefined))
      throw new ApiError(403, BAD_SIGNATURE, 'bad_signature');
    return fields;
  }

  app.post('/sms/inbound', { config: { access: 'public' }, bodyLimit: WEBHOOK_LIMIT }, async (req, reply) => {
    const { MessageSid, From, Body } = parse(inbound, signed(req));
    const said = keyword(Body);
    const now = Date.now();
    const changed = await db.transaction().execute(async (trx) => {
      // A text is acted on once: the same signed webhook again (a replay) finds its id taken.
      const first = await trx
        .insertInto('sms_inbound')
        .values({ message_sid: MessageSid, received_at: now })
        .onConflict((oc) => oc.column('message_sid').doNothing())
        .returning('message_sid')
        .executeTakeFirst();
      if (!first) {
        req.log.info({ sid: MessageSid }, 'an inbound text seen before; ignored');
        return [];
      }
      if (said === 'stop')
        return trx
          .updateTable('users')
          .set({ sms_stopped_at: now })
          .where('mobile', '=', From)
          .where('mobile_confirmed_at', 'is not', null)
          .where('sms_stopped_at', 'is', null)
          .returning('id')
          .execute();
      if (said === 'start')
        return trx
          .updateTable('users')
          .set({ sms_stopped_at: null })
          .where('mobile', '=', From)
          .where('mobile_confirmed_at', 'is not', null)
          .returning('id')
          .execute();
      return [];
    });
    if (said === 'stop' && changed.length) req.log.info({ from: From }, 'texts stopped from the phone');
    for (const { id } of changed) ctx.bus.publish({ topic: 'profile', userId: id });
    return reply.type('text/xml; charset=utf-8').send(TWIML);
  });

  app.post('/sms/status', { config: { access: 'public' }, bodyLimit: WEBHOOK_LIMIT }, async (req, reply) => {
    const { MessageSid, MessageStatus, ErrorCode } = parse(status, signed(req));
    const at = Date.now();
    if (MessageStatus === 'delivered') await takeStatus(db, MessageSid, { state: 'delivered', at });
    else if (MessageStatus === 'undelivered' || MessageStatus === 'failed')
      await takeStatus(db, MessageSid, {
        state: 'failed',
        error: `The text was not delivered (${MessageStatus}${ErrorCode ? `, error ${ErrorCode}` : ''}).`,
        at,
      });
    return reply.status(204).send();
  });
}

const isFields = (v: unknown): v is Fields => !!v && typeof v === 'object' && !Array.isArray(v);

/** A form's fields, each name and value percent-decoded strictly: broken UTF-8, NUL or a lone surrogate is a 400. */
function readForm(text: string): Fields {
  const out: Fields = Object.create(null) as Fields;
  const pairs = text ? text.split('&') : [];
  if (pairs.length > WEBHOOK_FIELDS) throw badRequest(`A webhook may have at most ${WEBHOOK_FIELDS} fields.`, 'too_many_fields');
  for (const pair of pairs) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const [name, value] = (at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)]).map((s) => decodeURIComponent(s.replace(/\+/g, ' ')));
    if (!isCleanText(name) || !isCleanText(value)) throw new ApiError(400, BAD_TEXT, 'bad_text');
    const had = out[name];
    out[name] = had === undefined ? value : [had, value].flat();
  }
  return out;
}
