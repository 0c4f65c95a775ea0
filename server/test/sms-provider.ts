import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A text the stand-in took, as the provider's API received it. */
export interface TakenText {
  sid: string;
  to: string;
  from: string;
  body: string;
  /** StatusCallback: where the provider reports what became of it. */
  callback: string | null;
}

type Sign = 'good' | 'none' | 'wrong';
type Status = 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed';

/**
 * A local stand-in for an SMS provider with Twilio's Messages API: a form-encoded POST to
 * /2010-04-01/Accounts/{sid}/Messages.json with Basic auth (account:token) answers 201 with the
 * message's sid and status, as Twilio does, or Twilio's error JSON. It can be told to fail the
 * next requests (500, or any status and Twilio error code), to treat a number as having sent STOP
 * (21610), and it posts status callbacks and inbound texts to the portal, signed the way Twilio
 * signs them (its own implementation, not the portal's).
 */
export async function startSmsProvider({
  account = `AC${crypto.randomBytes(16).toString('hex')}`,
  token = crypto.randomBytes(16).toString('hex'),
  from = '+18435550100',
  /** Told of each text taken (a browser test's stand-in runs in another process). */
  onText = null as ((m: TakenText) => void) | null,
} = {}) {
  const messages: TakenText[] = [];
  const stopped = new Set<string>();
  const failing: { status: number; code?: number }[] = [];
  /** A status to report before the API answers the next text that asks for callbacks (as a fast network may). */
  let early: Status | null = null;
  const waiters: (() => void)[] = [];
  let requests = 0;
  /** The portal's PUBLIC_URL: where inbound texts go, and the address the signatures cover. */
  let portal = '';

  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, code: number, message: string) =>
    answer(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const path = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !path) return error(res, 404, 20404, 'The requested resource was not found');
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!basic || Buffer.from(basic, 'base64').toString() !== `${account}:${token}` || decodeURIComponent(path[1]) !== account)
        return error(res, 401, 20003, 'Authenticate');
      if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) return error(res, 415, 20415, 'Unsupported media type');
      const fail = failing.shift();
      if (fail) return error(res, fail.status, fail.code ?? 20500, 'Internal server error');
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const to = form.get('To') ?? '';
      const body = form.get('Body') ?? '';
      if (!to) return error(res, 400, 21604, "A 'To' phone number is required.");
      if (!/^\+[1-9][0-9]{7,14}$/.test(to)) return error(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      if (form.get('From') !== from)
        return error(res, 400, 21606, `The From phone number ${form.get('From')} is not a valid, SMS-capable inbound phone number for your account.`);
      if (!body || body.length > 1600) return error(res, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
      if (stopped.has(to)) return error(res, 400, 21610, 'Attempt to send to unsubscribed recipient');
      const sid = `SM${crypto.randomBytes(16).toString('hex')}`;
      const taken = { sid, to, from, body, callback: form.get('StatusCallback') };
      messages.push(taken);
      onText?.(taken);
      for (const w of waiters.splice(0)) w();
      const reply = () =>
        answer(res, 201, {
          sid,
          account_sid: account,
          to,
          from,
          body,
          status: 'queued',
          direction: 'outbound-api',
          api_version: '2010-04-01',
          num_segments: '1',
          error_code: null,
          error_message: null,
          date_created: new Date().toUTCString(),
          uri: `/2010-04-01/Accounts/${account}/Messages/${sid}.json`,
        });
      if (!early || !taken.callback) return reply();
      const status = early;
      early = null;
      post(taken.callback, statusFields(taken, status)).then(reply, (err: unknown) => error(res, 500, 20500, String(err)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const post = (to: string, fields: Record<string, string>, sign: Sign = 'good') =>
    postWebhook(sign === 'good' ? token : sign === 'wrong' ? `${token}x` : null, to, fields);

  const sidOf = () => `SM${crypto.randomBytes(16).toString('hex')}`;

  /** A status callback's fields for a text taken. */
  const statusFields = (m: TakenText, status: Status): Record<string, string> => ({
    AccountSid: account,
    ApiVersion: '2010-04-01',
    From: m.from,
    MessageSid: m.sid,
    MessageStatus: status,
    SmsSid: m.sid,
    SmsStatus: status,
    To: m.to,
  });

  return {
    url,
    account,
    token,
    from,
    /** The portal's settings that send through this stand-in. */
    env: { SMS_URL: url, SMS_ACCOUNT: account, SMS_TOKEN: token, SMS_FROM: from },
    /** Every text taken, in order. */
    messages,
    /** Every request to the Messages API, taken or not. */
    get requests() {
      return requests;
    },
    /** The portal's PUBLIC_URL, where inbound texts are posted. */
    connect(publicUrl: string) {
      portal = publicUrl.replace(/\/+$/, '');
    },
    /** The next `n` requests answer `status` (500 unless said) with Twilio's error `code`. */
    fail(n = 1, status = 500, code?: number) {
      for (let i = 0; i < n; i++) failing.push({ status, code });
    },
    /** The next text that asks for status callbacks has this status posted (and answered) before the API answers with its id. */
    statusFirst(status: Status) {
      early = status;
    },
    /** This number sent STOP to the provider: texts to it are refused with 21610. */
    optOut(number: string) {
      stopped.add(number);
    },
    /** The `nth` (1-based) text to this number, once it has arrived. */
    async textTo(number: string, nth = 1, timeoutMs = 5000): Promise<TakenText> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.filter((m) => m.to === number)[nth - 1];
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no text #${nth} to ${number} within ${timeoutMs} ms (took ${messages.length})`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, 50);
          waiters.push(() => {
            clearTimeout(t);
            r();
          });
        });
      }
    },
    /** A text from a phone to the portal's number, as the provider posts it to /api/sms/inbound (the same `sid` again: a replay). */
    sendInbound(fromNumber: string, body: string, sign: Sign = 'good', sid = sidOf()) {
      return post(
        `${portal}/api/sms/inbound`,
        {
          AccountSid: account,
          ApiVersion: '2010-04-01',
          Body: body,
          From: fromNumber,
          FromCountry: 'US',
          MessageSid: sid,
          NumMedia: '0',
          NumSegments: '1',
          SmsMessageSid: sid,
          SmsSid: sid,
          SmsStatus: 'received',
          To: from,
          ToCountry: 'US',
        },
        sign,
      );
    },
    /** What became of a text, as the provider posts it to the text's StatusCallback. */
    sendStatus(sid: string, status: Status, { errorCode, sign = 'good' }: { errorCode?: number; sign?: Sign } = {}) {
      const m = messages.find((x) => x.sid === sid);
      if (!m?.callback) throw new Error(`text ${sid} asked for no status callback`);
      const fields = statusFields(m, status);
      if (errorCode) fields.ErrorCode = String(errorCode);
      return post(m.callback, fields, sign);
    },
    /** Posts any fields to a portal path, signed: for hostile webhooks. */
    postSigned: (path: string, fields: Record<string, string>, sign: Sign = 'good') => post(`${portal}${path}`, fields, sign),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
/** Twilio's X-Twilio-Signature: HMAC-SHA1 (key: the auth token) of the URL and then each field's name and value, by name. */
const signature = (key: string, to: string, fields: Record<string, string>) =>
  crypto
    .createHmac('sha1', key)
    .update(
      Object.keys(fields)
        .sort()
        .reduce((s, k) => s + k + fields[k], to),
    )
    .digest('base64');

/** Posts a webhook as the provider does: form-encoded, signed with `token` (none: unsigned). */
export async function postWebhook(token: string | null, to: string, fields: Record<string, string>) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'TwilioProxy/1.1' };
  if (token !== null) headers['x-twilio-signature'] = signature(token, to, fields);
  const res = await fetch(to, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') ?? '' };
}

export type SmsProvider = Awaited<ReturnType<typeof startSmsProvider>>;
