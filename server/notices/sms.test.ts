import crypto from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, testApp, type TestApp } from '../test/harness';
import { startSmsProvider, type SmsProvider } from '../test/sms-provider';
import { insertUser, type UserRow } from '../users/repo';
import { BAD_TEXT } from '../http/text';
import { until } from '../test/until';
import { signatureValid, smsChannel } from './sms';
import { noticeBox } from './sender';
import { BAD_SIGNATURE, CODES_PER_HOUR, EXPIRED, LOCKED, NO_CODE, NOT_SET_UP, TOO_SOON, tooMany } from './sms-routes';
import type { Outgoing } from './channels';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe('the Twilio signature', () => {
  // The worked example of Twilio's request-validation documentation (auth token 12345).
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const fields = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };

  it("holds for Twilio's own example and for nothing changed from it", () => {
    expect(signatureValid('12345', url, fields, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(true);
    expect(signatureValid('12346', url, fields, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(false);
    expect(signatureValid('12345', `${url}&x=1`, fields, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(false);
    expect(signatureValid('12345', url, { ...fields, Digits: '1235' }, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(false);
    expect(signatureValid('12345', url, fields, undefined)).toBe(false);
    expect(signatureValid('12345', url, fields, '')).toBe(false);
    expect(signatureValid('12345', url, fields, 'not base64 at all')).toBe(false);
  });
});

describe.each(DIALECTS)('text messages through the provider on %s', (dialect) => {
  let t: TestApp;
  let sms: SmsProvider;
  let base: string;
  let rep: UserRow;
  let repCookie: string;

  beforeAll(async () => {
    sms = await startSmsProvider();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await testApp(dialect, { ...sms.env, PUBLIC_URL: base, SIGNIN_LINKS_PER_MINUTE: '1000' });
    await t.app.listen({ port, host: '127.0.0.1' });
    sms.connect(base);
    rep = await insertUser(t.db, { email: 'rep.sms@dealer.test', name: 'Rep Sms' });
    repCookie = await t.signIn(rep.email);
  });
  afterAll(async () => {
    t.dbh.pool?.on('error', () => undefined);
    await t.close();
    await sms.close();
  });

  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const userRow = (id: string) =>
    t.db.selectFrom('users').select(['mobile', 'mobile_confirmed_at', 'sms_stopped_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const codeIn = (body: string) => /\b([0-9]{6})\b/.exec(body)?.[1] ?? '';

  /** A new person with this number confirmed through Settings, the code read from the text the stand-in took. */
  async function confirmed(email: string, mobile: string) {
    const u = await insertUser(t.db, { email });
    const cookie = await t.signIn(email);
    const seen = sms.messages.filter((m) => m.to === mobile).length;
    expect((await call(cookie, 'PUT', '/profile/mobile', { mobile })).statusCode).toBe(200);
    const code = codeIn((await sms.textTo(mobile, seen + 1)).body);
    expect((await call(cookie, 'POST', '/profile/mobile/confirm', { code })).json()).toMatchObject({ mobile, stopped: false });
    return { u, cookie };
  }

  it('sends a six-digit code to the number, and the code confirms it', async () => {
    expect((await call(repCookie, 'GET', '/profile/mobile')).json()).toEqual({ enabled: true, mobile: null, stopped: false, pending: null });
    const put = await call(repCookie, 'PUT', '/profile/mobile', { mobile: '(843) 555-0111' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ enabled: true, mobile: null, stopped: false, pending: '+18435550111' });
    const text = await sms.textTo('+18435550111');
    expect(text.from).toBe(sms.from);
    expect(text.body).toMatch(/^BDC Portal: your code is [0-9]{6}\. It expires in 10 minutes\./);
    // The code is stored hashed, never as sent.
    const stored = await t.db.selectFrom('mobile_codes').selectAll().where('user_id', '=', rep.id).executeTakeFirstOrThrow();
    expect(stored.code_hash).not.toContain(codeIn(text.body));

    const ok = await call(repCookie, 'POST', '/profile/mobile/confirm', { code: codeIn(text.body) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ enabled: true, mobile: '+18435550111', stopped: false, pending: null });
    expect(await userRow(rep.id)).toMatchObject({ mobile: '+18435550111', sms_stopped_at: null });
    // Spent: the same code again finds nothing waiting.
    const again = await call(repCookie, 'POST', '/profile/mobile/confirm', { code: codeIn(text.body) });
    expect([again.statusCode, again.json().error]).toEqual([400, NO_CODE]);
  });

  it('locks the code after 5 wrong tries, and refuses an expired one', async () => {
    const email = 'locked.sms@dealer.test';
    const u = await insertUser(t.db, { email });
    const cookie = await t.signIn(email);
    await call(cookie, 'PUT', '/profile/mobile', { mobile: '+18435550122' });
    const right = codeIn((await sms.textTo('+18435550122')).body);
    const wrong = right === '000000' ? '111111' : '000000';
    const errors: string[] = [];
    for (let i = 0; i < 5; i++) errors.push((await call(cookie, 'POST', '/profile/mobile/confirm', { code: wrong })).json().error);
    expect(errors).toEqual([
      'That code is not right. 4 tries left.',
      'That code is not right. 3 tries left.',
      'That code is not right. 2 tries left.',
      'That code is not right. 1 try left.',
      LOCKED,
    ]);
    const late = await call(cookie, 'POST', '/profile/mobile/confirm', { code: right });
    expect([late.statusCode, late.json().error]).toEqual([400, LOCKED]);
    expect(await userRow(u.id)).toMatchObject({ mobile: null, mobile_confirmed_at: null });
    expect((await call(cookie, 'GET', '/profile/mobile')).json().pending).toBeNull();

    // A new code may be sent once the minute is past; this one then expires unused.
    const soon = await call(cookie, 'PUT', '/profile/mobile', { mobile: '+18435550122' });
    expect([soon.statusCode, soon.json().error]).toEqual([429, TOO_SOON]);
    await t.db
      .updateTable('mobile_codes')
      .set({ created_at: Date.now() - 61_000 })
      .where('user_id', '=', u.id)
      .execute();
    expect((await call(cookie, 'PUT', '/profile/mobile', { mobile: '+18435550122' })).statusCode).toBe(200);
    const fresh = codeIn((await sms.textTo('+18435550122', 2)).body);
    await t.db
      .updateTable('mobile_codes')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', u.id)
      .execute();
    const expired = await call(cookie, 'POST', '/profile/mobile/confirm', { code: fresh });
    expect([expired.statusCode, expired.json().error]).toEqual([400, EXPIRED]);
    expect(await userRow(u.id)).toMatchObject({ mobile: null, mobile_confirmed_at: null });
  });

  it('refuses bad numbers and codes with a message, changing nothing', async () => {
    const { cookie } = await confirmed('taken.sms@dealer.test', '+18435550133');
    const other = await insertUser(t.db, { email: 'other.sms@dealer.test' });
    const otherCookie = await t.signIn(other.email);
    const sent = sms.requests;
    const bodies: [unknown, RegExp][] = [
      [{ mobile: 'call me' }, /^Enter a mobile number like/],
      [{ mobile: 'x'.repeat(10_000) }, /^Enter a mobile number like/],
      [{ mobile: '+1843555\u00000144' }, new RegExp(BAD_TEXT.replace(/[.()]/g, '\\$&'))],
      [{ mobile: 8435550144 }, /^Enter a mobile number like/],
      [{ mobile: '+18435550144', extra: 1 }, /^Unknown field: extra/],
      [{}, /^Enter a mobile number like/],
    ];
    for (const [payload, error] of bodies) {
      const r = await call(otherCookie, 'PUT', '/profile/mobile', payload);
      expect(r.statusCode, JSON.stringify(payload).slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(r.statusCode).toBeLessThan(500);
      expect(r.json().error).toMatch(error);
    }
    for (const raw of ['{"mobile":"+1843555\\u00000144"}', '{"mobile":"+18435550144\\ud800"}', '{"code":"\\udc00"}']) {
      for (const url of ['/api/profile/mobile', '/api/profile/mobile/confirm']) {
        const r = await t.app.inject({
          method: url.endsWith('confirm') ? 'POST' : 'PUT',
          url,
          headers: { cookie: otherCookie, 'content-type': 'application/json' },
          payload: raw,
        });
        expect([r.statusCode, r.json().error]).toEqual([400, BAD_TEXT]);
      }
    }
    for (const code of ['12345', 'x'.repeat(10_000), 123456, null]) {
      const r = await call(otherCookie, 'POST', '/profile/mobile/confirm', { code });
      expect([r.statusCode, r.json().error]).toEqual([400, 'Enter the six-digit code from the text.']);
    }
    expect(sms.requests).toBe(sent);
    expect(await t.db.selectFrom('mobile_codes').selectAll().where('user_id', '=', other.id).execute()).toEqual([]);
    expect(await userRow(other.id)).toMatchObject({ mobile: null });
    // Signed out: nobody's number.
    expect((await t.app.inject({ method: 'PUT', url: '/api/profile/mobile', payload: { mobile: '+18435550144' } })).statusCode).toBe(401);
    // Removing his number leaves him none, and the number is free for another.
    expect((await call(cookie, 'DELETE', '/profile/mobile')).json()).toEqual({ enabled: true, mobile: null, stopped: false, pending: null });
    const third = await insertUser(t.db, { email: 'third.sms@dealer.test' });
    const free = await call(await t.signIn(third.email), 'PUT', '/profile/mobile', { mobile: '+18435550133' });
    expect(free.json()).toMatchObject({ pending: '+18435550133' });
  });

  it("answers a colleague's number as any other; whoever confirms the texted code gets it, and the earlier holder is told, not by whom", async () => {
    const { u: first, cookie: firstCookie } = await confirmed('first.sms@dealer.test', '+18435550233');
    const second = await insertUser(t.db, { email: 'second.sms@dealer.test', name: 'Sid Second' });
    const cookie = await t.signIn(second.email);
    const put = await call(cookie, 'PUT', '/profile/mobile', { mobile: '+18435550233' });
    expect([put.statusCode, put.json()]).toEqual([200, { enabled: true, mobile: null, stopped: false, pending: '+18435550233' }]);
    // Until he confirms, the number stays the first one's.
    expect((await call(firstCookie, 'GET', '/profile/mobile')).json().mobile).toBe('+18435550233');
    const seen = t.smtp.count(first.email);
    const code = codeIn((await sms.textTo('+18435550233', 2)).body);
    const ok = await call(cookie, 'POST', '/profile/mobile/confirm', { code });
    expect([ok.statusCode, ok.json().mobile]).toEqual([200, '+18435550233']);
    expect((await call(firstCookie, 'GET', '/profile/mobile')).json()).toEqual({ enabled: true, mobile: null, stopped: false, pending: null });
    const told = await t.smtp.mailTo(first.email, 5000, seen);
    expect(told.subject).toBe('Your mobile number was removed');
    expect(told.text).toMatch(/\+1 843-555-0233 was confirmed by someone else/);
    const body = told.text
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('\n');
    for (const who of ['Sid', 'Second']) expect(body).not.toContain(who);
    expect(told.text).not.toContain(second.email);
  });

  it('sends at most five codes an hour to a person, one a minute', async () => {
    const u = await insertUser(t.db, { email: 'many.sms@dealer.test' });
    const cookie = await t.signIn(u.email);
    for (let i = 1; i <= CODES_PER_HOUR; i++) {
      expect((await call(cookie, 'PUT', '/profile/mobile', { mobile: '+18435550145' })).statusCode).toBe(200);
      await sms.textTo('+18435550145', i);
      // The minute between two codes, passed.
      await t.db
        .updateTable('mobile_codes')
        .set({ created_at: Date.now() - 61_000 })
        .where('user_id', '=', u.id)
        .execute();
    }
    const sixth = await call(cookie, 'PUT', '/profile/mobile', { mobile: '+18435550145' });
    expect([sixth.statusCode, sixth.json().error]).toEqual([429, tooMany(60)]);
    expect(sms.messages.filter((m) => m.to === '+18435550145')).toHaveLength(CODES_PER_HOUR);
    expect((await call(cookie, 'GET', '/profile/mobile')).json().pending).toBeNull();
  });

  it('turns texts off on STOP from the phone, signed; unsigned or wrongly signed changes nothing; START turns them on', async () => {
    const { u, cookie } = await confirmed('stop.sms@dealer.test', '+18435550155');
    for (const sign of ['none', 'wrong'] as const) {
      const r = await sms.sendInbound('+18435550155', 'STOP', sign);
      expect([r.status, JSON.parse(r.body).error]).toEqual([403, BAD_SIGNATURE]);
    }
    // Signed for another address (a replay to a different URL) is no signature either.
    const replay = await fetch(`${base}/api/sms/inbound?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
      body: 'From=%2B18435550155&Body=STOP',
    });
    expect(replay.status).toBe(403);
    expect(await userRow(u.id)).toMatchObject({ sms_stopped_at: null });

    const stop = await sms.sendInbound('+18435550155', ' stop ');
    expect(stop.status).toBe(200);
    expect(stop.type).toMatch(/^text\/xml/);
    expect(stop.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect((await userRow(u.id)).sms_stopped_at).toEqual(expect.any(Number));
    expect((await call(cookie, 'GET', '/profile/mobile')).json()).toEqual({ enabled: true, mobile: '+18435550155', stopped: true, pending: null });
    // Anything else from the phone asks nothing.
    expect((await sms.sendInbound('+18435550155', 'Thanks!')).status).toBe(200);
    expect((await call(cookie, 'GET', '/profile/mobile')).json().stopped).toBe(true);

    expect((await sms.sendInbound('+18435550155', 'START')).status).toBe(200);
    expect((await call(cookie, 'GET', '/profile/mobile')).json().stopped).toBe(false);
  });

  it('acts once on a signed text sent again: a replayed STOP after START stops nothing', async () => {
    const { cookie } = await confirmed('replay.sms@dealer.test', '+18435550211');
    const stopped = async () => (await call(cookie, 'GET', '/profile/mobile')).json().stopped;
    const sid = `SM${crypto.randomBytes(16).toString('hex')}`;
    expect((await sms.sendInbound('+18435550211', 'STOP', 'good', sid)).status).toBe(200);
    expect(await stopped()).toBe(true);
    expect((await sms.sendInbound('+18435550211', 'START')).status).toBe(200);
    expect(await stopped()).toBe(false);
    const replay = await sms.sendInbound('+18435550211', 'STOP', 'good', sid);
    expect([replay.status, replay.type]).toEqual([200, expect.stringMatching(/^text\/xml/)]);
    expect(await stopped()).toBe(false);
  });

  it("keeps a status that comes before the text's id is stored, and applies it once it is", async () => {
    const { u } = await confirmed('early.sms@dealer.test', '+18435550222');
    sms.statusFirst('delivered');
    const { id } = await notice(u, '+18435550222', 'now');
    t.app.ctx.notices?.wake();
    const row = () => t.db.selectFrom('notices').select(['state', 'provider_id', 'delivered_at']).where('id', '=', Number(id)).executeTakeFirstOrThrow();
    // The provider reported the delivery before it answered the send (with the id): the delivery is not lost.
    await until(async () => (await row()).state === 'delivered', 'the early delivery applied');
    expect(await row()).toEqual({ state: 'delivered', provider_id: (await sms.textTo('+18435550222', 2)).sid, delivered_at: expect.any(Number) });
  });

  it('refuses hostile webhooks with a 4xx: NUL, lone surrogates, broken UTF-8, 10,000 characters, JSON', async () => {
    const { u } = await confirmed('hostile.sms@dealer.test', '+18435550166');
    const raw = async (body: string | Uint8Array<ArrayBuffer>, type = 'application/x-www-form-urlencoded') => {
      const r = await fetch(`${base}/api/sms/inbound`, { method: 'POST', headers: { 'content-type': type }, body });
      return [r.status, ((await r.json()) as { error: string }).error];
    };
    expect(await raw('From=%2B18435550166&Body=ST%00OP')).toEqual([400, BAD_TEXT]);
    expect(await raw('From=%2B18435550166&Body=%ED%A0%80')).toEqual([400, BAD_TEXT]);
    expect(await raw('From=%2B18435550166&Body=%FF')).toEqual([400, BAD_TEXT]);
    expect(await raw(new Uint8Array([0x42, 0x6f, 0x64, 0x79, 0x3d, 0xff]))).toEqual([400, BAD_TEXT]);
    expect(await raw(`${'a=1&'.repeat(200)}Body=STOP`)).toEqual([400, 'A webhook may have at most 100 fields.']);
    expect(await raw(JSON.stringify({ From: '+18435550166', Body: 'STOP' }), 'application/json')).toEqual([403, BAD_SIGNATURE]);
    expect(await raw(`Body=${'x'.repeat(20_000)}`)).toEqual([413, 'The request is too large.']);
    const long = await sms.postSigned('/api/sms/inbound', { From: '+18435550166', Body: 'x'.repeat(10_000) });
    expect(long.status).toBe(400);
    const notText = await sms.postSigned('/api/sms/status', { MessageSid: 'nope', MessageStatus: 'delivered' });
    expect(notText.status).toBe(400);
    expect(await userRow(u.id)).toMatchObject({ sms_stopped_at: null });
  });

  /**
   * A text notice as the sender hands it over, its row in `notices` in the state the sender leaves
   * it. The test sends it itself: the row is due in an hour, so the portal's own sender, running
   * beside the test, never claims it (its empty body once failed to open there, and the row kept
   * that error). Due `now`, its body sealed, it is the portal's own sender's to send.
   */
  async function notice(u: UserRow, target: string, due: 'later' | 'now' = 'later') {
    const now = Date.now();
    const body = { title: 'New lead', text: 'New lead: Jane Doe, 2024 Accord. Accept: https://x/l/1', url: '/leads/1' };
    const { id } = await t.db
      .insertInto('notices')
      .values({
        user_id: u.id,
        store_id: 1,
        lead_id: null,
        kind: 'lead',
        channel: 'sms',
        target,
        once_key: `test:${target}:${now}:${Math.random()}`,
        body: due === 'now' ? noticeBox(t.app.ctx.secret).sealJson(body) : '',
        state: 'queued',
        attempts: 0,
        next_at: due === 'now' ? now : now + 3_600_000,
        expires_at: now + 7_200_000,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const out: Outgoing = {
      id: Number(id),
      userId: u.id,
      leadId: null,
      kind: 'lead',
      target,
      body,
    };
    return out;
  }

  it('sends a notice in the Twilio shape, and the status callback marks it delivered or failed', async () => {
    const { u } = await confirmed('status.sms@dealer.test', '+18435550177');
    const channel = smsChannel(t.app.ctx);
    const n = await notice(u, '+18435550177');
    const sent = await channel.send(n);
    expect(sent).toEqual({ ok: true, providerId: expect.stringMatching(/^SM[0-9a-f]{32}$/) });
    const text = await sms.textTo('+18435550177', 2);
    expect(text).toEqual({
      sid: sent.ok && sent.providerId,
      to: '+18435550177',
      from: sms.from,
      body: 'New lead: Jane Doe, 2024 Accord. Accept: https://x/l/1',
      callback: `${base}/api/sms/status`,
    });
    const sid = text.sid;
    await t.db.updateTable('notices').set({ state: 'sent', provider_id: sid, sent_at: Date.now() }).where('id', '=', n.id).execute();
    const row = () => t.db.selectFrom('notices').select(['state', 'delivered_at', 'error']).where('id', '=', n.id).executeTakeFirstOrThrow();

    expect((await sms.sendStatus(sid, 'delivered', { sign: 'none' })).status).toBe(403);
    expect((await sms.sendStatus(sid, 'delivered', { sign: 'wrong' })).status).toBe(403);
    expect(await row()).toMatchObject({ state: 'sent', delivered_at: null });
    expect((await sms.sendStatus(sid, 'sent')).status).toBe(204);
    expect(await row()).toMatchObject({ state: 'sent' });
    expect((await sms.sendStatus(sid, 'delivered')).status).toBe(204);
    expect(await row()).toMatchObject({ state: 'delivered', delivered_at: expect.any(Number), error: null });

    const m = await notice(u, '+18435550177');
    const r = await channel.send(m);
    await t.db
      .updateTable('notices')
      .set({ state: 'sent', provider_id: r.ok ? r.providerId : null })
      .where('id', '=', m.id)
      .execute();
    expect((await sms.sendStatus(r.ok ? (r.providerId ?? '') : '', 'undelivered', { errorCode: 30003 })).status).toBe(204);
    expect(await t.db.selectFrom('notices').select(['state', 'error']).where('id', '=', m.id).executeTakeFirstOrThrow()).toEqual({
      state: 'failed',
      error: 'The text was not delivered (undelivered, error 30003).',
    });
  });

  it('maps the provider failures: 5xx and no answer retry, 4xx is permanent, 21610 is permanent and marks him stopped', async () => {
    const { u, cookie } = await confirmed('fail.sms@dealer.test', '+18435550188');
    const channel = smsChannel(t.app.ctx);
    const n = await notice(u, '+18435550188');
    sms.fail(1);
    const down = await channel.send(n);
    expect(down).toMatchObject({ ok: false, error: expect.stringMatching(/answered 500/) });
    expect(down.ok === false && down.permanent).toBeFalsy();
    sms.fail(1, 429, 20429);
    const busy = await channel.send(n);
    expect(busy.ok === false && !busy.permanent).toBe(true);
    // After the failures, one text: retrying sends it once.
    const before = sms.messages.length;
    expect((await channel.send(n)).ok).toBe(true);
    expect(sms.messages.length).toBe(before + 1);

    sms.fail(1, 400, 21211);
    expect(await channel.send(n)).toMatchObject({ ok: false, permanent: true, error: expect.stringMatching(/answered 400 \(error 21211\)/) });
    const wrongKey = smsChannel({ config: { ...t.config, SMS_TOKEN: 'wrong' }, dbh: t.dbh });
    expect(await wrongKey.send(n)).toMatchObject({ ok: false, permanent: true, error: expect.stringMatching(/answered 401/) });
    const nobody = smsChannel({ config: { ...t.config, SMS_URL: 'http://127.0.0.1:9' }, dbh: t.dbh });
    const unreachable = await nobody.send(n);
    expect(unreachable).toMatchObject({ ok: false, error: expect.stringMatching(/did not answer/) });
    expect(unreachable.ok === false && unreachable.permanent).toBeFalsy();

    sms.optOut('+18435550188');
    expect(await channel.send(n)).toEqual({ ok: false, permanent: true, error: 'The phone sent STOP: texts to it are off until it sends START.' });
    expect((await call(cookie, 'GET', '/profile/mobile')).json()).toMatchObject({ mobile: '+18435550188', stopped: true });
  });
});

describe('text messages while the provider is not set up', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await testApp('sqlite');
    const u = await insertUser(t.db, { email: 'off.sms@dealer.test' });
    cookie = await t.signIn(u.email);
  });
  afterAll(() => t.close());

  it('says so in Settings, refuses a number, and the webhooks are not there', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/profile/mobile', headers: { cookie } })).json()).toEqual({
      enabled: false,
      mobile: null,
      stopped: false,
      pending: null,
    });
    const put = await t.app.inject({ method: 'PUT', url: '/api/profile/mobile', headers: { cookie }, payload: { mobile: '+18435550199' } });
    expect([put.statusCode, put.json().error]).toEqual([409, NOT_SET_UP]);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'From=%2B18435550199&Body=STOP',
    });
    expect([hook.statusCode, hook.json().error]).toEqual([404, NOT_SET_UP]);
    expect(await t.db.selectFrom('mobile_codes').selectAll().execute()).toEqual([]);
  });
});
