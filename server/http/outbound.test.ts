import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { until } from '../test/until';
import { insertUser } from '../users/repo';
import { outbound, OutboundRefused } from './outbound';

/** A server inside the network (the cloud's metadata, an admin page): it counts every request that reaches it. */
async function listen(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return { port, origin: `http://127.0.0.1:${port}`, hits, close };
}

/** Keys a browser would subscribe with (a P-256 point and a 16-byte secret). */
const keys = () => {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
};

describe.each(DIALECTS)('requests the portal makes go only where they should, on %s', (dialect) => {
  let t: TestApp;
  let inside: Awaited<ReturnType<typeof listen>>;
  let redirector: Awaited<ReturnType<typeof listen>>;
  let ann: { id: string; cookie: string };

  beforeAll(async () => {
    inside = await listen((_req, res) => res.writeHead(201).end('secret'));
    // A push service the portal is set up for (PUSH_HOSTS) that sends its pushes on, inside the network.
    redirector = await listen((_req, res) => res.writeHead(302, { location: `${inside.origin}/latest/meta-data/` }).end());
    t = await testApp(
      dialect,
      { SIGNIN_LINKS_PER_MINUTE: '1000', PUSH_HOSTS: redirector.origin },
      { noticeTiming: { pollMs: 50, backoffMs: 50, maxBackoffMs: 200, leaseMs: 5000 }, sweepMs: 3_600_000 },
    );
    const { id } = await insertUser(t.db, { email: 'rep.ann@dealer.test', name: 'Ann', onDuty: true });
    ann = { id, cookie: await t.signIn('rep.ann@dealer.test') };
  });
  afterAll(async () => {
    await t.close();
    await inside.close();
    await redirector.close();
  });

  const subscribe = (endpoint: string) =>
    t.app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: { cookie: ann.cookie }, payload: { endpoint, keys: keys() } });
  const devices = async () =>
    (await t.app.inject({ url: '/api/push/subscriptions', headers: { cookie: ann.cookie } })).json().devices as { endpoint: string }[];

  it('takes as a push endpoint only https on port 443 of a known push service, or what PUSH_HOSTS names', async () => {
    for (const endpoint of [
      'https://127.0.0.1/push/a',
      'https://localhost./push/a',
      'https://x.internal./push/a',
      'https://metadata.google.internal./computeMetadata/v1/',
      'https://127.0.0.1.nip.io/push/a',
      'https://fcm.googleapis.com:8443/fcm/send/a',
      'http://fcm.googleapis.com/fcm/send/a',
      `${inside.origin}/push/a`,
    ]) {
      const r = await subscribe(endpoint);
      expect(r.statusCode, endpoint).toBe(400);
      expect(r.json().error).toMatch(/^The push endpoint must be the https address of a known push service/);
    }
    expect(await devices()).toEqual([]);
    for (const endpoint of ['https://fcm.googleapis.com/fcm/send/a', `${redirector.origin}/push/b`])
      expect((await subscribe(endpoint)).statusCode, endpoint).toBe(201);
    await t.db.deleteFrom('push_subscriptions').execute();
    expect(inside.hits).toEqual([]);
  });

  it('refuses a device inside the network and follows no redirect: the devices are removed, the timeline says why and nothing of what answered', async () => {
    // One endpoint stored before this guard, one at a service the configuration names that redirects.
    for (const endpoint of [`${inside.origin}/push/old`, `${redirector.origin}/push/b`])
      await t.db
        .insertInto('push_subscriptions')
        .values({ user_id: ann.id, endpoint, ...keys(), label: 'Chrome on Windows', created_at: Date.now() })
        .execute();
    const boss = await t.signIn(MANAGER);
    const assigned = await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer: 'Jane Doe' } });
    expect(assigned.json().assignedTo?.name).toBe('Ann');
    const leadId = assigned.json().leadId as number;
    const pushes = () => t.db.selectFrom('notices').select(['state', 'error']).where('lead_id', '=', leadId).where('channel', '=', 'push').execute();
    await until(async () => (await pushes()).filter((n) => n.state !== 'queued').length === 2, 'both pushes done');
    expect(inside.hits).toEqual([]);
    expect(redirector.hits).toEqual(['POST /push/b']);
    expect(await devices()).toEqual([]);
    const timeline = (await t.app.inject({ url: `/api/leads/${leadId}/timeline`, headers: { cookie: ann.cookie } })).json().entries as {
      type: string;
      note: string;
    }[];
    const refused = 'Push failed: This device’s push address is not one the portal may send to, so the device was removed. Turn notifications on again on it.';
    expect(timeline.filter((e) => e.type === 'notice').map((e) => e.note)).toEqual([refused, refused]);
  });

  it('resolves a name and refuses it when it is at an address inside the network, before connecting', async () => {
    const get = (url: string, trusted = false) => outbound(url, { method: 'GET', timeoutMs: 5000, trusted });
    await expect(get(`http://localhost:${inside.port}/`)).rejects.toThrow(OutboundRefused);
    await expect(get(`http://[::ffff:127.0.0.1]:${inside.port}/`)).rejects.toThrow(/loopback/);
    await expect(get(`http://169.254.169.254/latest/meta-data/`)).rejects.toThrow(/link-local/);
    expect(inside.hits).toEqual([]);
    // The operator's own service, named in full: reached where it is, and its redirect is the answer.
    expect(await get(`${redirector.origin}/x`, true)).toMatchObject({ status: 302 });
    expect(inside.hits).toEqual([]);
  });
});
