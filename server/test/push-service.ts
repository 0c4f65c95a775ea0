/**
 * A local stand-in for a browser's push service (RFC 8030), as strict as a real one about what the
 * portal sends: the VAPID Authorization (`vapid t=<JWT>, k=<key>`, RFC 8292) must carry an ES256
 * JWT signed by k, for this service's origin (aud), expiring within 24 h (exp), naming whom to
 * reach (sub); the body is aes128gcm (RFC 8291) and is decrypted with the subscription's own
 * private key and auth secret (http_ece), so a test reads what the phone would show.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

// http_ece has no types and no ES module of its own.
const require = createRequire(import.meta.url);
const ece = require('http_ece') as {
  decrypt(body: Buffer, params: { version: 'aes128gcm'; privateKey: crypto.ECDH; authSecret: string }): Buffer;
};

/** What the phone would show, and what came with it. */
export interface Push {
  /** The subscription it was for (its endpoint's last part). */
  sub: string;
  title: string;
  text: string;
  url: string;
  accept?: string;
  ttl: number;
  urgency: string | null;
  /** When the request arrived (ms since the epoch). */
  at: number;
}

/** A subscription as PushSubscription.toJSON() gives it, with the private half the stand-in keeps. */
export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const DAY_S = 24 * 60 * 60;

const b64 = (s: string) => Buffer.from(s, 'base64url');

/** Why the VAPID Authorization is refused, or null when it holds. */
export function vapidRefusal(authorization: string | undefined, origin: string, now = Date.now()): string | null {
  const m = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) return 'no VAPID authorization';
  const [, jwt, k] = m;
  const [h, p, s] = jwt.split('.');
  let header: { alg?: string };
  let claims: { aud?: unknown; exp?: unknown; sub?: unknown };
  try {
    header = JSON.parse(b64(h).toString('utf8'));
    claims = JSON.parse(b64(p).toString('utf8'));
  } catch {
    return 'the JWT is not JSON';
  }
  if (header.alg !== 'ES256') return `the JWT is ${header.alg}, not ES256`;
  const key = b64(k);
  if (key.length !== 65 || key[0] !== 4) return 'k is not an uncompressed P-256 key';
  const publicKey = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: key.subarray(1, 33).toString('base64url'), y: key.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = crypto.verify('sha256', Buffer.from(`${h}.${p}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, b64(s));
  if (!signed) return 'the JWT signature does not verify with k';
  if (claims.aud !== origin) return `aud is ${String(claims.aud)}, not ${origin}`;
  const nowS = Math.floor(now / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= nowS) return 'the JWT has expired';
  if (claims.exp > nowS + DAY_S) return 'exp is more than 24 hours ahead';
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return 'sub is not a mailto: or https: address';
  return null;
}

/** `port`: where it listens (a portal started before it names it in PUSH_HOSTS); left out, a free one. */
export async function startPushService({ port: fixed = 0 }: { port?: number } = {}) {
  const subs = new Map<string, { ecdh: crypto.ECDH; auth: string; answer?: number }>();
  const received: Push[] = [];
  const refused: { sub: string; reason: string }[] = [];
  const waiters = new Set<() => void>();
  let answer = 201;
  let seq = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const sub = subs.get(id);
      const end = (status: number, reason?: string) => {
        if (reason) refused.push({ sub: id, reason });
        res.writeHead(status, status === 201 ? { location: `${origin}/message/${++seq}` } : {}).end(reason ?? '');
        for (const w of waiters) w();
      };
      if (req.method !== 'POST') return end(405, 'only POST');
      if (!sub) return end(404, 'no such subscription');
      const why = vapidRefusal(req.headers.authorization, origin, at);
      if (why) return end(401, why);
      if (req.headers['content-encoding'] !== 'aes128gcm') return end(415, `content-encoding ${req.headers['content-encoding']}`);
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) return end(400, 'no TTL');
      const status = sub.answer ?? answer;
      if (status !== 201) return end(status, `told to answer ${status}`);
      let shown: Pick<Push, 'title' | 'text' | 'url' | 'accept'>;
      try {
        shown = JSON.parse(ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth }).toString('utf8'));
      } catch (err) {
        return end(400, `the body does not decrypt: ${(err as Error).message}`);
      }
      received.push({ sub: id, ...shown, ttl, urgency: (req.headers.urgency as string | undefined) ?? null, at });
      end(201);
    });
  });

  let port = fixed;
  const listen = () => new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  await listen();
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  /** Resolves once `done()` holds, checked at every request the service answers; fails after `ms`. */
  const until = (done: () => boolean, ms = 10_000, what = 'the push service to hear') =>
    new Promise<void>((resolve, reject) => {
      if (done()) return resolve();
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, ms);
      waiters.add(check);
    });

  return {
    origin,
    received,
    refused,
    /** A device subscribing: its endpoint here and its keys (the private half stays here). */
    subscribe(): TestSubscription {
      const id = crypto.randomBytes(9).toString('base64url');
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16).toString('base64url');
      subs.set(id, { ecdh, auth });
      return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } };
    },
    /** Every push from now on is answered `status` (201: delivered; 404/410: the device is gone; 500: the service is failing). */
    answer(status: number) {
      answer = status;
    },
    /** One subscription answered `status` (410: its browser unsubscribed); undefined: like the others. */
    answerFor(sub: TestSubscription, status: number | undefined) {
      const s = subs.get(sub.id);
      if (s) s.answer = status;
    },
    /** The service is down: connections are refused until up(). */
    down: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
    up: listen,
    /** The pushes one subscription got. */
    to: (sub: TestSubscription) => received.filter((p) => p.sub === sub.id),
    until,
    /** Waits until `n` pushes in all have been shown. */
    count: (n: number, ms?: number) => until(() => received.length >= n, ms, `${n} pushes`),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

export type PushService = Awaited<ReturnType<typeof startPushService>>;
