import crypto from 'node:crypto';
import type { Config } from '../config';
import type { Ctx } from '../context';
import type { Channel, Outgoing, Sent } from './channels';

/** Text messages through a provider's Messages API (Twilio's shape; a compatible provider or a local stand-in by SMS_URL). */
export type SmsConfig = Pick<Config, 'SMS_URL' | 'SMS_ACCOUNT' | 'SMS_TOKEN' | 'SMS_FROM' | 'PUBLIC_URL'>;

/** Twilio's error for a number that sent STOP: the provider itself will not text it again. */
const UNSUBSCRIBED = 21610;
const TIMEOUT_MS = 10_000;
const SMS_OFF = 'Text messages are not set up on this portal (SMS_ACCOUNT, SMS_TOKEN, SMS_FROM).';

export const smsEnabled = (c: SmsConfig) => !!(c.SMS_ACCOUNT && c.SMS_TOKEN && c.SMS_FROM);

/** Where the provider reports what became of a text (server/notices/sms-routes.ts). */
const statusUrl = (c: Pick<Config, 'PUBLIC_URL'>) => `${c.PUBLIC_URL}/api/sms/status`;

/**
 * One text to one number. Sent, with the provider's id; or not: a 4xx is permanent (trying again
 * cannot help; 21610 says the number sent STOP), a 5xx, a timeout or no answer is retried.
 */
export async function sendText(c: SmsConfig, to: string, body: string, opts: { callback?: boolean } = {}): Promise<Sent & { code?: number }> {
  if (!smsEnabled(c)) return { ok: false, error: SMS_OFF, permanent: true };
  const account = c.SMS_ACCOUNT ?? '';
  const form = new URLSearchParams({ To: to, From: c.SMS_FROM ?? '', Body: body });
  if (opts.callback) form.set('StatusCallback', statusUrl(c));
  let res: Response;
  try {
    res = await fetch(`${c.SMS_URL.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(account)}/Messages.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${account}:${c.SMS_TOKEN ?? ''}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    return { ok: false, error: `The SMS provider did not answer: ${(err as Error).message}` };
  }
  const answer = (await res.json().catch(() => null)) as { sid?: unknown; code?: unknown; message?: unknown } | null;
  if (res.ok && typeof answer?.sid === 'string') return { ok: true, providerId: answer.sid };
  const code = typeof answer?.code === 'number' ? answer.code : undefined;
  const said = typeof answer?.message === 'string' ? `: ${answer.message.slice(0, 200)}` : '';
  const error = `The SMS provider answered ${res.status}${code ? ` (error ${code})` : ''}${said}`;
  if (res.ok) return { ok: false, error: `The SMS provider answered ${res.status} without a message id` };
  if (res.status >= 400 && res.status < 500 && res.status !== 429) return { ok: false, error, permanent: true, code };
  return { ok: false, error, code };
}

/**
 * The text channel: a notice's text to its target number, the delivery reported to /api/sms/status.
 * A number the provider says sent STOP (21610) is marked stopped for him, so no more texts are queued.
 */
export function smsChannel(ctx: Pick<Ctx, 'config' | 'dbh'>): Channel {
  const c = ctx.config;
  const db = ctx.dbh.db;
  return {
    async send(n: Outgoing): Promise<Sent> {
      const sent = await sendText(c, n.target, n.body.text, { callback: true });
      if (!sent.ok && sent.code === UNSUBSCRIBED) {
        await db
          .updateTable('users')
          .set({ sms_stopped_at: Date.now() })
          .where('id', '=', n.userId)
          .where('mobile', '=', n.target)
          .where('sms_stopped_at', 'is', null)
          .execute();
        return { ok: false, error: 'The phone sent STOP: texts to it are off until it sends START.', permanent: true };
      }
      if (sent.ok) return { ok: true, providerId: sent.providerId };
      const { code: _, ...failed } = sent;
      return failed;
    },
  };
}

/** A webhook's fields as parsed from its form: each name with its value, or its values when repeated. */
export type Fields = Record<string, string | string[]>;

/**
 * Whether a webhook came from the provider: X-Twilio-Signature is base64 HMAC-SHA1, keyed with
 * SMS_TOKEN, over the full URL it was sent to and then each field's name and value in name order
 * (a repeated field's values sorted). Compared in constant time.
 */
export function signatureValid(token: string, url: string, fields: Fields, header: string | undefined): boolean {
  if (!header || !token) return false;
  let data = url;
  for (const name of Object.keys(fields).sort()) {
    const v = fields[name];
    for (const one of Array.isArray(v) ? [...v].sort() : [v]) data += name + one;
  }
  const want = crypto.createHmac('sha1', token).update(data, 'utf8').digest();
  const got = Buffer.from(header, 'base64');
  return got.length === want.length && crypto.timingSafeEqual(got, want);
}
