import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { storeScope } from '../stores/scope';
import { GROUP_ONLY } from './bus';
import { storesOf } from '../stores/service';
import { access } from '../http/access';
import { openStream } from '../http/stream';
import { unauthorized } from '../http/errors';

const HEARTBEAT_MS = 25_000;
/** How often open streams are checked against their sessions (a session may end on another server). */
const CHECK_MS = 2000;
const STREAMS_PER_SESSION = 10;

interface Stream {
  session: string;
  /** The session's public id: a sign-out of that one device ends it (session-revoked with its sid). */
  sid: string;
  userId: string;
  role: string;
  end: () => void;
  revoke: () => void;
}

/** Server-Sent Events: each open screen learns which topics changed and refetches them. */
export async function eventRoutes(app: FastifyInstance, { ctx, streams }: { ctx: Ctx; streams: Set<() => void> }) {
  const open = new Set<Stream>();

  /**
   * Ends every stream whose session is gone (logout, expiry) or whose person was disabled or
   * deleted (saying session-revoked, as the event from the change does), and every stream whose
   * user's role changed: the browser reconnects by itself and gets a stream with the new rights.
   * Two queries for all streams of this server.
   */
  async function check() {
    if (!open.size) return;
    const { db } = ctx.dbh;
    const list = [...open];
    const [sessions, users] = await Promise.all([
      db
        .selectFrom('sessions')
        .select('id_hash')
        .where('id_hash', 'in', [...new Set(list.map((s) => s.session))])
        .where('expires_at', '>', Date.now())
        .execute(),
      db
        .selectFrom('users')
        .select(['id', 'role', 'disabled', 'deleted_at'])
        .where('id', 'in', [...new Set(list.map((s) => s.userId))])
        .execute(),
    ]);
    const live = new Set(sessions.map((r) => r.id_hash));
    const byId = new Map(users.map((u) => [u.id, u]));
    for (const s of list) {
      const u = byId.get(s.userId);
      if (!u || u.disabled || u.deleted_at !== null) s.revoke();
      else if (!live.has(s.session) || u.role !== s.role) s.end();
    }
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
  // When each store's data last changed, as far as this server heard: by a change's own time, and
  // for news of no one store (a profile, the bus reconnecting) or anything before this server
  // started, of all. A stream's hello says it, so a page drawn after it knows its answers are
  // current (web/api/live.ts).
  let lastAny = Date.now();
  const lastIn = new Map<number, number>();
  const unheard = ctx.bus.subscribe((e) => {
    if (e.storeId === undefined) lastAny = Math.max(lastAny, e.at);
    else lastIn.set(e.storeId, Math.max(lastIn.get(e.storeId) ?? 0, e.at));
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    unwatch();
    unheard();
  });

  app.get('/events', access('user'), async (req, reply) => {
    const me = req.user;
    const session = req.sessionHash;
    const sid = req.sessionId;
    if (!me || !session || !sid) throw unauthorized();
    // The stream hears of the store it names (?store=NSH; its own without one), or with ?store=* of every store its reader may open (a group screen).
    const every = (req.query as Record<string, unknown> | undefined)?.store === '*';
    const stores = new Set((every ? await storesOf(ctx.dbh.db, me) : [(await storeScope(ctx, req, me)).store]).map((s) => s.id));
    if (every && me.all_stores) stores.add(GROUP_ONLY);
    if ([...open].filter((s) => s.session === session).length >= STREAMS_PER_SESSION) {
      return reply
        .status(429)
        .send({ error: `Too many live update streams for this sign-in (at most ${STREAMS_PER_SESSION}). Close some tabs of the portal and reload.` });
    }
    const { res, send } = openStream(reply);
    send({ topic: 'hello', at: Date.now(), since: Math.max(lastAny, ...[...stores].map((id) => lastIn.get(id) ?? 0)) });
    const stream: Stream = { session, sid, userId: me.id, role: me.role, end: () => end(), revoke: () => revoke() };
    // signedOut: this session was signed out (from another device, or by a manager), not his access turned off.
    const revoke = (at = Date.now(), signedOut = false) => {
      if (!open.has(stream)) return;
      send({ topic: 'session-revoked', userId: me.id, at, ...(signedOut && { signedOut }) });
      end();
    };
    const unsubscribe = ctx.bus.subscribe((e) => {
      // A TV link's end is news for that TV's own stream (server/tv/routes.ts) only.
      if (e.topic === 'tv-revoked') return;
      if (e.topic === 'session-revoked') {
        if (e.userId === me.id && (e.sid === undefined || e.sid === sid)) revoke(e.at, e.sid !== undefined);
        return;
      }
      if (e.topic === 'profile' && e.userId !== me.id) return;
      if (e.storeId !== undefined && !stores.has(e.storeId)) return;
      send(e);
    });
    const beat = setInterval(() => res.write(`: keep-alive\n\n`), HEARTBEAT_MS);
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
