import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { implement } from '../http/implement';
import { access } from '../http/access';
import { openStream } from '../http/stream';
import { storeById } from '../stores/service';
import { storeBoard } from '../sales/board';
import { createLink, linkOf, listLinks, revokeLink, seen, stillLive, type TvLinkRow } from './service';
import { TV_HEADER, tvAddress, tvBoard } from '../../domain/tv';

const HEARTBEAT_MS = 25_000;
/** Open streams one link may hold (a TV or two, a reload's overlap); beyond, the secret is being passed around. */
const STREAMS_PER_LINK = 5;

/**
 * The showroom TV by its own link: a store's managers make, list and revoke its links; a link's
 * secret opens its store's board (GET /tv/board, the X-TV-Token header) and its live stream
 * (GET /tv/events?tv=, an EventSource sends no header), and nothing else. No session is read or
 * made: a TV holds no one's sign-in.
 */
export async function tvRoutes(app: FastifyInstance, { ctx: root, streams }: { ctx: Ctx; streams: Set<() => void> }) {
  const { db } = root.dbh;

  implement(app, 'GET /tv/links', async ({ ctx }) => ({ links: await listLinks(ctx.dbh.db, ctx.store.id) }));

  implement(app, 'POST /tv/links', async ({ me, ctx, body }) => {
    const { token, link } = await createLink(ctx.dbh.db, root.secret, ctx.store.id, body.name, me.id);
    return { url: tvAddress(root.config.PUBLIC_URL, token), link };
  });

  implement(app, 'POST /tv/links/:id/revoke', async ({ ctx, params }) => {
    const link = await revokeLink(ctx.dbh.db, ctx.store.id, params.id);
    // Every open TV of the store looks whether it was its link, and the revoked one stops at once.
    ctx.bus.publish({ topic: 'tv-revoked' });
    return { link };
  });

  implement(app, 'GET /tv/board', async ({ req }) => {
    const link = await linkOf(db, root.secret, req.headers[TV_HEADER]);
    const store = await storeById(db, link.storeId);
    const board = await storeBoard(db, store.id, store.timezone);
    await seen(db, link);
    return { store: store.name, ...tvBoard(board) };
  });

  const open = new Map<number, number>();
  app.get('/tv/events', access('tv'), async (req, reply) => {
    const link: TvLinkRow = await linkOf(db, root.secret, (req.query as Record<string, unknown> | undefined)?.tv);
    if ((open.get(link.id) ?? 0) >= STREAMS_PER_LINK) {
      return reply.status(429).send({ error: `This TV link has ${STREAMS_PER_LINK} screens open already. Close one, or make another link for this TV.` });
    }
    const { res, send: write } = openStream(reply);
    // Only a topic and its time: the board is read again, and no one's id goes to the wall.
    const send = (topic: string) => write({ topic, at: Date.now() });
    send('hello');
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(beat);
      unsubscribe();
      streams.delete(end);
      open.set(link.id, (open.get(link.id) ?? 1) - 1);
      if (!open.get(link.id)) open.delete(link.id);
      res.end();
    };
    const check = () => {
      stillLive(db, link.id)
        .then((live) => {
          if (live || ended) return;
          send('tv-revoked');
          end();
        })
        .catch((err) => root.log.warn({ err }, 'could not check a TV link'));
    };
    const unsubscribe = root.bus.subscribe((e) => {
      // hello: the bus reconnected and may have missed news, a revocation too.
      if (e.topic === 'hello') {
        send('hello');
        check();
      } else if (e.storeId === link.storeId && e.topic === 'tv-revoked') check();
      else if ((e.topic === 'sales' || e.topic === 'users') && (e.storeId === link.storeId || e.storeId === undefined)) send(e.topic);
    });
    // Each heartbeat also looks at the link, should its revocation's news have been lost.
    const beat = setInterval(() => {
      res.write(`: keep-alive\n\n`);
      check();
    }, HEARTBEAT_MS);
    open.set(link.id, (open.get(link.id) ?? 0) + 1);
    streams.add(end);
    req.raw.on('close', end);
  });
}
