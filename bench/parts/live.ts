/** Live updates: how long an assign takes to reach SSE_CLIENTS open event streams. */
import http from 'node:http';
import { pct, request, round, say } from '../load';
import type { Results } from '../table';

export const SSE_CLIENTS = 200;

export async function liveBench(port: number, cookie: string, viewers: string[]): Promise<Results> {
  say(`[live] ${SSE_CLIENTS} event streams, 40 assigns one after another…`);
  const arrivals: number[] = [];
  const reqs: http.ClientRequest[] = [];
  let connected = 0;
  const sseAgent = new http.Agent({ keepAlive: false, maxSockets: SSE_CLIENTS + 10 });
  await new Promise<void>((resolve) => {
    for (let c = 0; c < SSE_CLIENTS; c++) {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/api/events', agent: sseAgent, headers: { cookie: viewers[c], accept: 'text/event-stream' } },
        (res) => {
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buf += chunk;
            let k;
            while ((k = buf.indexOf('\n\n')) >= 0) {
              const line = buf
                .slice(0, k)
                .split('\n')
                .find((l) => l.startsWith('data: '));
              buf = buf.slice(k + 2);
              if (!line) continue;
              const e = JSON.parse(line.slice(6));
              if (e.topic === 'hello' && ++connected === SSE_CLIENTS) resolve();
              if (e.topic === 'rotation') arrivals.push(Date.now() - e.at);
            }
          });
        },
      );
      req.on('error', () => undefined);
      reqs.push(req);
    }
  });
  for (let i = 0; i < 40; i++) {
    await request(port, 'POST', '/api/rotation/assign', cookie, JSON.stringify({ customer: `Live ${i}` }));
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 500));
  for (const r of reqs) r.destroy();
  return { live_p50_ms: round(pct(arrivals, 50), 1), live_p95_ms: round(pct(arrivals, 95), 1), live_max_ms: round(Math.max(...arrivals), 1) };
}
