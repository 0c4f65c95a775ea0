/** The load generator every part shares: requests over one keep-alive agent, concurrent clients, percentiles, progress lines. */
import http from 'node:http';

export const CONCURRENCY = 16;
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

export const say = (s: string) => process.stdout.write(`${s}\n`);
export const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

export const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One request to the server on 127.0.0.1:port; its status, and a 429's Retry-After in seconds. */
export function send(port: number, method: string, url: string, headers: http.OutgoingHttpHeaders, body?: string) {
  return new Promise<{ status: number; retryAfter: number }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: url, agent, headers: { ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 0) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A signed-in request, its body JSON; its status. */
export async function request(port: number, method: string, url: string, cookie: string, body?: string): Promise<number> {
  return (await send(port, method, url, { cookie, ...(body ? { 'content-type': 'application/json' } : {}) }, body)).status;
}

/** `clients` workers (CONCURRENCY unless said) each run `once` back to back for SECONDS; the seconds it took. */
export async function concurrently(once: (client: number) => Promise<void>, clients = CONCURRENCY) {
  const end = Date.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (Date.now() < end) await once(client);
    }),
  );
  return (performance.now() - start) / 1000;
}

/** `clients` clients each send requests (`ask`: one request, its status) back to back for SECONDS; rate and latency. */
export async function loadBy(clients: number, ask: (client: number) => Promise<number>, onTick?: () => void) {
  const lat: number[] = [];
  let errors = 0;
  const tick = onTick ? setInterval(onTick, 100) : null;
  const secs = await concurrently(async (client) => {
    const t0 = performance.now();
    const status = await ask(client);
    lat.push(performance.now() - t0);
    if (status >= 400) errors++;
  }, clients);
  if (tick) clearInterval(tick);
  return { rps: lat.length / secs, p50: pct(lat, 50), p99: pct(lat, 99), errors };
}

/** CONCURRENCY clients each send requests back to back for SECONDS; returns rate and latency. */
export const load = (port: number, method: string, url: string, cookie: string, body?: () => string, onTick?: () => void) =>
  loadBy(CONCURRENCY, () => request(port, method, url, cookie, body?.()), onTick);

/**
 * `load` after as long of the same load unmeasured, for a server's sustained rate: a fresh process
 * spends its first seconds compiling its hot path (a fresh server's SQLite assign went 480/s in
 * its first second, 630/s in its third, 1,100–1,200/s from its fourth on). The warm-up's own
 * figures come back as `first`.
 */
export async function warmLoad(...args: Parameters<typeof load>) {
  const first = await load(...args);
  return { ...(await load(...args)), first };
}

/** `once` run `times` times one after another: the latency of each, in ms. */
export async function oneByOne(times: number, once: (i: number) => Promise<unknown>) {
  const lat: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await once(i);
    lat.push(performance.now() - t0);
  }
  return lat;
}

/**
 * Other users reading the rotation, 100 a second, for SECONDS: an open loop (each asks on a fixed
 * schedule whatever the server is doing, and its latency counts from when it was due), so a
 * stalled event loop shows in full.
 */
export async function openLoopReaders(port: number, cookie: string) {
  const lat: number[] = [];
  const every = 10;
  const start = performance.now();
  const asked: Promise<void>[] = [];
  for (let due = start; due < start + SECONDS * 1000; due += every) {
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    asked.push(request(port, 'GET', '/api/rotation', cookie).then(() => void lat.push(performance.now() - due)));
  }
  await Promise.all(asked);
  return { p50: pct(lat, 50), p99: pct(lat, 99), max: Math.max(...lat) };
}
