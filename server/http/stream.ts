import type { FastifyReply } from 'fastify';

/** Takes the reply over as a live stream (server-sent events): the raw response, its headers written, and a writer of one event. */
export function openStream(reply: FastifyReply) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(`retry: 1000\n\n`);
  return { res, send: (data: object) => res.write(`data: ${JSON.stringify(data)}\n\n`) };
}
