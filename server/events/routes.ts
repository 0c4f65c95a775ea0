import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { access } from '../http/access';

const HEARTBEAT_MS = 25_000;

/** Server-Sent Events: each open screen learns which topics changed and refetches them. */
export async function eventRoutes(app: FastifyInstance, { ctx, streams }: { ctx: Ctx; streams: Set<() => void> }) {
  app.get('/', access('user'), (req, reply) => {
    const me = req.user!;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 1000\n\n`);
    const send = (data: object) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    send({ topic: 'hello', at: Date.now() });
    const unsubscribe = ctx.bus.subscribe((e) => {
      if (e.topic === 'session-revoked') {
        if (e.userId === me.id) {
          send(e);
          end();
        }
        return;
      }
      if (e.topic === 'profile' && e.userId !== me.id) return;
      send(e);
    });
    const beat = setInterval(() => res.write(`: keep-alive\n\n`), HEARTBEAT_MS);
    const end = () => {
      clearInterval(beat);
      unsubscribe();
      streams.delete(end);
      res.end();
    };
    streams.add(end);
    req.raw.on('close', end);
  });
}
