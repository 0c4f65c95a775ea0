import crypto from 'node:crypto';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { startPushService, vapidRefusal, type PushService, type TestSubscription } from '../test/push-service';
import { insertUser } from '../users/repo';
import { sweep } from '../rotation/handout';
import { makeAcceptToken, pushChannel, vapidKeys } from './push';
import type { NoticeBody, Outgoing } from './channels';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const body: NoticeBody = { title: 'New lead: Jane Doe', text: '2024 Honda Accord. Accept by 9:12 AM.', url: '/s/MAIN/dashboard/associates?lead=7' };

describe.each(DIALECTS)('web push on %s', (dialect) => {
  let t: TestApp;
  let ps: PushService;
  let boss: string;
  let walker: string;
  let walkerId: string;
  let nextId = 1;

  beforeAll(async () => {
    ps = await startPushService();
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000', PUSH_HOSTS: ps.origin });
    boss = await t.signIn(MANAGER);
    walker = await t.signIn('walker@dealer.test');
    walkerId = (await t.db.selectFrom('users').select('id').where('email', '=', 'walker@dealer.test').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await t.close();
    await ps.close();
  });

  const subscribe = (cookie: string, sub: unknown, ua = CHROME_WINDOWS) =>
    t.app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: { cookie, 'user-agent': ua }, payload: sub as object });
  const devices = async (cookie: string) =>
    (await t.app.inject({ url: '/api/push/subscriptions', headers: { cookie } })).json().devices as { id: number; label: string; endpoint: string }[];
  /** A device of walker's, subscribed through the route. */
  async function device(ua = CHROME_WINDOWS) {
    const sub = ps.subscribe();
    const r = await subscribe(walker, sub, ua);
    expect(r.statusCode).toBe(201);
    return { sub, id: r.json().device.id as number };
  }
  const outgoing = (target: number, userId = walkerId, b: NoticeBody = body): Outgoing => ({
    id: nextId++,
    userId,
    leadId: 7,
    kind: 'lead',
    target: String(target),
    body: b,
  });

  it("ends a device's notifications with the session that turned them on: signed out from another device, its pushes stop", async () => {
    const laptop = await t.signIn('two.devices@dealer.test');
    const phone = await t.signIn('two.devices@dealer.test');
    expect((await subscribe(laptop, ps.subscribe())).statusCode).toBe(201);
    expect((await subscribe(phone, ps.subscribe(), 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Safari/604.1')).statusCode).toBe(201);
    expect((await devices(laptop)).map((d) => d.label)).toEqual(['Chrome on Windows', 'Safari on iPhone']);
    const sessions = (await t.app.inject({ url: '/api/auth/sessions', headers: { cookie: laptop } })).json().sessions as { sid: string; current: boolean }[];
    const other = sessions.find((x) => !x.current)!;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${other.sid}`, headers: { cookie: laptop } })).statusCode).toBe(200);
    expect((await devices(laptop)).map((d) => d.label)).toEqual(['Chrome on Windows']);
  });

  it('keeps one VAPID key pair, made once, and gives its public half to the browser', async () => {
    const first = await vapidKeys(t.app.ctx);
    const r = await t.app.inject({ url: '/api/push/key', headers: { cookie: walker } });
    expect(r.json().key).toBe(first.publicKey);
    const kept = await t.db.selectFrom('settings').select('value').where('key', '=', 'vapid_keys').executeTakeFirstOrThrow();
    expect(JSON.parse(kept.value).publicKey).toBe(first.publicKey);
    expect((await t.app.inject({ url: '/api/push/key' })).statusCode).toBe(401);
  });

  it('sends to the device: the push service checks the VAPID JWT and the phone decrypts the card', async () => {
    const { sub, id } = await device();
    const sent = await pushChannel(t.app.ctx).send(outgoing(id, walkerId, { ...body, accept: 'a'.repeat(43) }));
    expect(sent).toMatchObject({ ok: true, providerId: expect.stringMatching(/\/message\/\d+$/) });
    const [shown] = ps.to(sub);
    expect(shown).toMatchObject({ title: 'New lead: Jane Doe', text: body.text, url: body.url, accept: 'a'.repeat(43), urgency: 'high' });
    expect(shown.ttl).toBeGreaterThan(0);
    expect(ps.refused.filter((r) => r.sub === sub.id)).toEqual([]);
    const row = await t.db.selectFrom('push_subscriptions').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(row.last_used_at)).toBeGreaterThan(0);
  });

  it('says gone when the push service answers 410 or 404, retries a failing or unreachable one, and sends once it recovers', async () => {
    const { sub, id } = await device();
    const ch = pushChannel(t.app.ctx);
    ps.answerFor(sub, 410);
    expect(await ch.send(outgoing(id))).toMatchObject({ ok: false, gone: true });
    ps.answerFor(sub, 404);
    expect(await ch.send(outgoing(id))).toMatchObject({ ok: false, gone: true });
    ps.answerFor(sub, 500);
    const failing = await ch.send(outgoing(id));
    expect(failing).toMatchObject({ ok: false, error: 'The push service answered 500.' });
    expect(failing).not.toHaveProperty('gone');
    expect(failing).not.toHaveProperty('permanent');
    ps.answerFor(sub, undefined);
    await ps.down();
    try {
      const refused = await ch.send(outgoing(id));
      expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/could not be reached/) });
      expect(refused).not.toHaveProperty('permanent');
    } finally {
      await ps.up();
    }
    expect(await ch.send(outgoing(id))).toMatchObject({ ok: true });
    expect(ps.to(sub)).toHaveLength(1);
    // A device turned off in the meantime: nothing to send to.
    await t.db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
    expect(await ch.send(outgoing(id))).toMatchObject({ ok: false, gone: true });
  });

  it('is refused by the push service when the VAPID signature is not the key’s', async () => {
    const a = webpush.generateVAPIDKeys();
    const b = webpush.generateVAPIDKeys();
    const forged = { ...t.app.ctx, config: { ...t.app.ctx.config, VAPID_PUBLIC_KEY: a.publicKey, VAPID_PRIVATE_KEY: b.privateKey } };
    const { sub, id } = await device();
    expect(await pushChannel(forged).send(outgoing(id))).toMatchObject({ ok: false, permanent: true, error: 'The push service refused the push (401).' });
    expect(ps.refused.filter((r) => r.sub === sub.id)).toEqual([{ sub: sub.id, reason: 'the JWT signature does not verify with k' }]);
    expect(ps.to(sub)).toEqual([]);
  });

  it('the stand-in refuses a JWT for another audience, expired, more than 24 h ahead or with no subject', () => {
    const keys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = keys.publicKey.export({ format: 'jwk' });
    const k = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]).toString('base64url');
    const now = Date.now();
    const nowS = Math.floor(now / 1000);
    const auth = (claims: object) => {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const signing = `${part({ typ: 'JWT', alg: 'ES256' })}.${part(claims)}`;
      const sig = crypto.sign('sha256', Buffer.from(signing), { key: keys.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
      return `vapid t=${signing}.${sig}, k=${k}`;
    };
    const good = { aud: ps.origin, exp: nowS + 3600, sub: 'mailto:ops@dealer.test' };
    expect(vapidRefusal(auth(good), ps.origin, now)).toBeNull();
    expect(vapidRefusal(auth({ ...good, aud: 'https://fcm.googleapis.com' }), ps.origin, now)).toMatch(/^aud is/);
    expect(vapidRefusal(auth({ ...good, exp: nowS - 1 }), ps.origin, now)).toBe('the JWT has expired');
    expect(vapidRefusal(auth({ ...good, exp: nowS + 25 * 3600 }), ps.origin, now)).toBe('exp is more than 24 hours ahead');
    expect(vapidRefusal(auth({ aud: good.aud, exp: good.exp }), ps.origin, now)).toMatch(/^sub/);
    expect(vapidRefusal(undefined, ps.origin, now)).toBe('no VAPID authorization');
  });

  it('keeps a device per endpoint, named from its browser, listed and removed by its owner only', async () => {
    const sub = ps.subscribe();
    const r = await subscribe(walker, sub, SAFARI_IPHONE);
    expect(r.statusCode).toBe(201);
    expect(r.json().device).toMatchObject({ label: 'Safari on iPhone', endpoint: sub.endpoint });
    const id = r.json().device.id as number;
    expect((await devices(walker)).map((d) => d.id)).toContain(id);
    expect((await devices(boss)).map((d) => d.id)).not.toContain(id);
    // Someone else may not remove it; it stays.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/push/subscriptions/${id}`, headers: { cookie: boss } })).statusCode).toBe(404);
    expect((await devices(walker)).map((d) => d.id)).toContain(id);
    // The same browser signed in as someone else: the device is now his, not walker's.
    const again = await subscribe(boss, sub, CHROME_WINDOWS);
    expect(again.json().device).toMatchObject({ id, label: 'Chrome on Windows' });
    expect((await devices(walker)).map((d) => d.id)).not.toContain(id);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/push/subscriptions/${id}`, headers: { cookie: boss } })).json()).toEqual({ ok: true });
    expect(await devices(boss)).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/push/subscriptions/${id}`, headers: { cookie: boss } })).statusCode).toBe(404);
  });

  it('refuses a subscription it could not push to, storing nothing', async () => {
    const sub: TestSubscription = ps.subscribe();
    const before = (await devices(walker)).length;
    const offCurve = Buffer.from(sub.keys.p256dh, 'base64url');
    offCurve[40] ^= 1;
    const bad: [unknown, RegExp][] = [
      [{ ...sub, endpoint: 'ftp://push.example/x' }, /must be a web address/],
      [{ ...sub, endpoint: `https://push.example/${'x'.repeat(2000)}` }, /longer than 2000/],
      [{ ...sub, keys: { ...sub.keys, p256dh: sub.keys.p256dh.slice(1) } }, /P-256 public key/],
      [{ ...sub, keys: { ...sub.keys, p256dh: offCurve.toString('base64url') } }, /P-256 public key/],
      [{ ...sub, keys: { ...sub.keys, auth: 'c2hvcnQ' } }, /16 bytes/],
      [{ endpoint: sub.endpoint }, /no keys/],
    ];
    for (const [payload, message] of bad) {
      const r = await subscribe(walker, payload);
      expect(r.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(r.json().error).toMatch(message);
    }
    expect(await devices(walker)).toHaveLength(before);
  });

  describe('the Accept token', () => {
    let rep: { id: string; name: string };
    let other: { id: string; name: string };

    beforeAll(async () => {
      const rules = await t.app.inject({ method: 'PATCH', url: '/api/rules', headers: { cookie: boss }, payload: { responseWindowMinutes: 10 } });
      expect(rules.statusCode).toBe(200);
      rep = await insertUser(t.db, { email: 'rep.ann@dealer.test', name: 'Ann', onDuty: true });
      other = await insertUser(t.db, { email: 'rep.bob@dealer.test', name: 'Bob', onDuty: true });
    });

    /** A lead through the real Assign: its holder and when it must be accepted by. */
    async function assign(customer: string) {
      const r = await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer } });
      expect(r.statusCode, r.body).toBe(200);
      const id = r.json().leadId as number;
      const lead = await t.db.selectFrom('leads').select(['assigned_to', 'accept_due', 'accepted_at']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(lead.accept_due).not.toBeNull();
      return { id, holder: lead.assigned_to, due: Number(lead.accept_due) };
    }
    const accept = (token: unknown) => t.app.inject({ method: 'POST', url: '/api/push/accept', payload: { token } });
    const accepted = async (id: number) =>
      (await t.db.selectFrom('leads').select('accepted_at').where('id', '=', id).executeTakeFirstOrThrow()).accepted_at !== null;

    it('accepts its own lead for its own person, once, with no session', async () => {
      const a = await assign('Jane Doe');
      const b = await assign('John Roe');
      const token = await makeAcceptToken(t.db, t.app.ctx.secret, a.id, a.holder, a.due);
      expect((await accept(token)).json()).toEqual({ ok: true });
      expect(await accepted(a.id)).toBe(true);
      expect(await accepted(b.id)).toBe(false);
      const timeline = await t.db.selectFrom('lead_events').select(['type', 'actor_name']).where('lead_id', '=', a.id).execute();
      expect(timeline).toContainEqual({ type: 'accepted', actor_name: expect.any(String) });
      const twice = await accept(token);
      expect(twice.statusCode).toBe(410);
      expect(twice.json().error).toBe('This Accept is no longer valid. Open the lead in the portal.');
    });

    it('accepts nothing for someone else: a token made for another person leaves the lead waiting', async () => {
      const a = await assign('Mary Major');
      const notHolder = [rep.id, other.id, walkerId].find((u) => u !== a.holder)!;
      const r = await accept(await makeAcceptToken(t.db, t.app.ctx.secret, a.id, notHolder, a.due));
      expect(r.statusCode).toBe(409);
      expect(r.json().error).toBe('This lead was handed on: it is no longer yours.');
      expect(await accepted(a.id)).toBe(false);
    });

    it('accepts nothing after its time, or once the lead was handed on', async () => {
      const b = await assign('Kim Lee');
      const late = await makeAcceptToken(t.db, t.app.ctx.secret, b.id, b.holder, Date.now() - 1);
      expect((await accept(late)).statusCode).toBe(410);
      expect(await accepted(b.id)).toBe(false);

      const a = await assign('Sam Smith');
      const token = await makeAcceptToken(t.db, t.app.ctx.secret, a.id, a.holder, a.due + 60_000);
      await sweep(t.store, new Date(a.due + 1000));
      const moved = await t.db.selectFrom('leads').select('assigned_to').where('id', '=', a.id).executeTakeFirstOrThrow();
      expect(moved.assigned_to).not.toBe(a.holder);
      const r = await accept(token);
      expect(r.statusCode).toBe(409);
      expect(await accepted(a.id)).toBe(false);
    });

    it('refuses a token that is not one', async () => {
      expect((await accept('x'.repeat(43))).statusCode).toBe(410);
      const r = await accept('not a token');
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('This Accept is not valid. Open the lead in the portal.');
      expect((await accept(undefined)).statusCode).toBe(400);
    });
  });
});

/** The whole way: an assign, the notices' sender, pushChannel, the stand-in decrypting what the phone shows, and its Accept. */
describe.each(DIALECTS)('a lead pushed to his phone on %s', (dialect) => {
  let t: TestApp;
  let ps: PushService;
  let boss: string;
  let ann: string;
  let phone: TestSubscription;
  let tablet: TestSubscription;

  beforeAll(async () => {
    ps = await startPushService();
    t = await testApp(
      dialect,
      { SIGNIN_LINKS_PER_MINUTE: '1000', PUSH_HOSTS: ps.origin },
      { noticeTiming: { pollMs: 50, backoffMs: 50, maxBackoffMs: 200, leaseMs: 5000 }, sweepMs: 3_600_000 },
    );
    boss = await t.signIn(MANAGER);
    await insertUser(t.db, { email: 'rep.ann@dealer.test', name: 'Ann', onDuty: true });
    ann = await t.signIn('rep.ann@dealer.test');
    phone = ps.subscribe();
    tablet = ps.subscribe();
    for (const [sub, ua] of [
      [phone, SAFARI_IPHONE],
      [tablet, CHROME_WINDOWS],
    ] as const) {
      const r = await t.app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: { cookie: ann, 'user-agent': ua }, payload: sub });
      expect(r.statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
    await ps.close();
  });

  const assign = async (customer: string) => {
    const r = await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().assignedTo?.name).toBe('Ann');
    return r.json().leadId as number;
  };
  const about = (sub: TestSubscription, customer: string) => ps.to(sub).filter((p) => p.title === `New lead: ${customer}`);
  const arrived = (sub: TestSubscription, customer: string) => ps.until(() => about(sub, customer).length > 0, 10_000, `the push about ${customer}`);

  it('pushes an assigned lead once to each of his devices, and its Accept accepts the lead from the phone', async () => {
    const id = await assign('Jane Doe');
    await arrived(phone, 'Jane Doe');
    await arrived(tablet, 'Jane Doe');
    const [shown] = about(phone, 'Jane Doe');
    expect(shown.url).toContain(`/dashboard/associates?lead=${id}`);
    expect(shown.accept).toMatch(/^[\w-]{43}$/);
    // What the Accept button does: the token, no session.
    expect((await t.app.inject({ method: 'POST', url: '/api/push/accept', payload: { token: shown.accept } })).json()).toEqual({ ok: true });
    const lead = await t.db.selectFrom('leads').select('accepted_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(lead.accepted_at).not.toBeNull();
    // Its token is spent: the same Accept from the tablet accepts nothing more.
    const [other] = about(tablet, 'Jane Doe');
    expect((await t.app.inject({ method: 'POST', url: '/api/push/accept', payload: { token: other.accept } })).statusCode).toBe(410);
    // A later lead arrived: the first was pushed exactly once to each device.
    await assign('John Roe');
    await arrived(phone, 'John Roe');
    await arrived(tablet, 'John Roe');
    expect(about(phone, 'Jane Doe')).toHaveLength(1);
    expect(about(tablet, 'Jane Doe')).toHaveLength(1);
  });

  it('removes a device whose push service answers 410', async () => {
    ps.answerFor(tablet, 410);
    await assign('Gone Tablet');
    await arrived(phone, 'Gone Tablet');
    await ps.until(() => ps.refused.some((r) => r.sub === tablet.id && r.reason === 'told to answer 410'));
    await expect
      .poll(async () => (await t.db.selectFrom('push_subscriptions').select('endpoint').execute()).map((s) => s.endpoint), { timeout: 10_000 })
      .toEqual([phone.endpoint]);
  });

  it('retries a push service that is down and pushes once it is back, with no duplicate', async () => {
    await ps.down();
    let id: number;
    try {
      id = await assign('Down Service');
      await expect
        .poll(
          async () =>
            Number(
              (await t.db.selectFrom('notices').select('attempts').where('lead_id', '=', id).where('kind', '=', 'lead').executeTakeFirst())?.attempts ?? 0,
            ),
          {
            timeout: 10_000,
          },
        )
        .toBeGreaterThanOrEqual(2);
      expect(about(phone, 'Down Service')).toEqual([]);
    } finally {
      await ps.up();
    }
    await arrived(phone, 'Down Service');
    await assign('After Recovery');
    await arrived(phone, 'After Recovery');
    expect(about(phone, 'Down Service')).toHaveLength(1);
  });
});
