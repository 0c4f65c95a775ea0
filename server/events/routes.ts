import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { access } from '../http/access';

const HEARTBEAT_MS = 25_000;
/** How often open streams are checked against their sessions (a session may end on another server). */
const CHECK_MS = 2000;
export const STREAMS_PER_SESSION = 10;

interface Stream {
  session: string;
  role: string;
  end: () => void;
}

/** Server-Sent Events: each open screen learns which topics changed and refetches them. */
export async function eventRoutes(app: FastifyInstance, { ctx, streams }: { ctx: Ctx; streams: Set<() => void> }) {
  const open = new Set<Stream>();

  /**
   * Ends every stream whose session is gone (logout, disable, delete, expiry) and every stream
   * whose user's role changed: the browser reconnects by itself and gets a stream with the new
   * rights. One query for all streams of this server.
   */
  async function check() {
    if (!open.size) return;
    const hashes = [...new Set([...open].map((s) => s.session))];
    const live = await ctx.dbh.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id_hash', 'users.role'])
      .where('sessions.id_hash', 'in', hashes)
      .where('sessions.expires_at', '>', Date.now())
      .where('users.disabled', '=', 0)
      .where('users.deleted_at', 'is', null)
      .execute();
    const roles = new Map(live.map((r) => [r.id_hash, r.role]));
    for (const s of [...open]) if (roles.get(s.session) !== s.role) s.end();
  }
  let checking = false;
  const runCheck = () => {
    if (checking) return;
    checking = true;
    check()
      .catch((err) => ctx.log.warn({ err }, 'could not check the sessions of open event streams'))
      .finally(() => (checking = false));
  };
  const timer = setInterval(runCheck, CHECK_MS);
  timer.unref();
  // A change to the team may have changed someone's role or access: look at once.
  const unwatch = ctx.bus.subscribe((e) => {
    if (e.topic === 'users') setImmediate(runCheck);
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    unwatch();
  });

  app.get('/', access('user'), (req, reply) => {
    const me = req.user!;
    const session = req.sessionHash!;
    if ([...open].filter((s) => s.session === session).length >= STREAMS_PER_SESSION) {
      return reply.status(429).send({ error: `Too many live update streams for this sign-in (at most ${STREAMS_PER_SESSION}). Close some tabs of the portal and reload.` });
    }
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
    const stream: Stream = { session, role: me.role, end: () => end() };
    const end = () => {
      if (!open.has(stream)) return;
      clearInterval(beat);
      unsubscribe();
      open.delete(stream);
      streams.delete(end);
      res.end();
    };
    open.add(stream);
    streams.add(end);
    req.raw.on('close', end);
  });
}
