import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { z } from 'zod';
import { TOPICS, type Topic } from '../../domain/contract/events';
import { batched } from '../db/batch';

/** What changed; screens refetch the data behind a topic. userId narrows it to one person. */
export interface PortalEvent {
  /** hello: the bus may have missed changes (it reconnected); every screen refetches. */
  topic: Topic;
  userId?: string;
  /** session-revoked: only this session of the person (its public id) ended; without it, all of them. */
  sid?: string;
  /** The store whose data changed (GROUP_ONLY: the group's own, e.g. a lead waiting for a store); absent: news for everyone (a person's profile, a reconnect). */
  storeId?: number;
  at: number;
}

/** Notifications a database transaction sends as it commits: the channel and each payload. */
export interface Announcement {
  channel: string;
  payloads: string[];
}

export interface Bus {
  publish(e: Omit<PortalEvent, 'at'> & { topic: Exclude<Topic, 'hello'> }): void;
  /**
   * These events as notifications for a transaction to send (PostgreSQL), so a change and its
   * news commit together without a round trip of their own; null where the bus is in-process.
   */
  announcement(events: Omit<PortalEvent, 'at'>[]): Announcement | null;
  subscribe(fn: (e: PortalEvent) => void): () => void;
  /**
   * Every event once: this server's own at the moment it publishes them, before they travel (what
   * it keeps of the data must never lag its own changes), and the others' as subscribe gives them.
   */
  heard(fn: (e: PortalEvent) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'bdc_events';
const eventSchema = z.object({
  topic: z.enum(TOPICS),
  userId: z.string().optional(),
  sid: z.string().optional(),
  storeId: z.number().optional(),
  at: z.number(),
  /** The app server that published it (publish); its own echo is not news to heard. */
  from: z.string().optional(),
}) satisfies z.ZodType<PortalEvent>;

/** In-process on SQLite; on PostgreSQL every app server LISTENs, so events cross servers. */
export async function createBus(pool: pg.Pool | null, log: { warn: (o: object, m: string) => void }): Promise<Bus> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const self = crypto.randomUUID();
  // Subscribers get every event as 'event'; what another server published (or the bus says of
  // itself, a hello) is also 'others', which heard takes with this server's own 'published'.
  const emit = (e: PortalEvent, own = false) => {
    local.emit('event', e);
    if (!own) local.emit('others', e);
  };

  let listener: pg.PoolClient | null = null;
  let closed = false;
  let reconnecting = false;
  const drop = () => {
    const client = listener;
    listener = null;
    client?.release(true);
  };
  if (pool) {
    const connect = async () => {
      const client = await pool.connect();
      listener = client;
      client.on('notification', (msg) => {
        try {
          const parsed = eventSchema.safeParse(JSON.parse(msg.payload ?? '{}'));
          if (!parsed.success) return;
          const { from, ...e } = parsed.data;
          emit(e, from === self);
        } catch {
          /* a foreign payload on our channel is ignored */
        }
      });
      client.on('error', (err) => {
        if (closed || listener !== client) return;
        log.warn({ err }, 'event listener lost its connection; reconnecting');
        drop();
        reconnect();
      });
      await client.query(`LISTEN ${CHANNEL}`);
    };
    // Until the database answers again: 0.5 s, 1 s, 2 s … at most 5 s apart. Events sent while
    // nobody listened are lost, so every open screen is told to refetch what it shows (a hello).
    const reconnect = (attempt = 0) => {
      if (closed || (reconnecting && attempt === 0)) return;
      reconnecting = true;
      const retry = async () => {
        if (closed) return;
        try {
          await connect();
          reconnecting = false;
          emit({ topic: 'hello', at: Date.now() });
        } catch {
          drop();
          reconnect(attempt + 1);
        }
      };
      setTimeout(() => void retry(), Math.min(500 * 2 ** attempt, 5000)).unref();
    };
    await connect();
  }

  // On PostgreSQL events go out in one statement per write (batch.ts), each (topic, person) once:
  // a screen refetches a topic once however many changes it had.
  const notify = pool
    ? batched<PortalEvent>((events) => {
        const once = new Map<string, string>();
        for (const e of events) once.set(`${e.topic} ${e.userId ?? ''} ${e.sid ?? ''} ${e.storeId ?? ''}`, JSON.stringify({ ...e, from: self }));
        return pool.query('select pg_notify($1, e) from unnest($2::text[]) as e', [CHANNEL, [...once.values()]]);
      })
    : null;

  return {
    publish(partial) {
      const e: PortalEvent = { ...partial, at: Date.now() };
      local.emit('published', e);
      if (notify) notify([e]).catch((err: unknown) => log.warn({ err }, 'could not publish events'));
      else emit(e, true);
    },
    announcement(events) {
      const at = Date.now();
      return pool ? { channel: CHANNEL, payloads: events.map((e) => JSON.stringify({ ...e, at })) } : null;
    },
    subscribe(fn) {
      local.on('event', fn);
      return () => local.off('event', fn);
    },
    heard(fn) {
      local.on('others', fn);
      local.on('published', fn);
      return () => {
        local.off('others', fn);
        local.off('published', fn);
      };
    },
    async close() {
      closed = true;
      local.removeAllListeners();
      const client = listener;
      listener = null;
      if (client) {
        const unlistened = await client.query(`UNLISTEN ${CHANNEL}`).then(
          () => true,
          () => false,
        );
        client.release(!unlistened);
      }
    },
  };
}

/** The storeId of news for the group's screens only: no store has it. */
export const GROUP_ONLY = 0;

/** The bus as one store's code sees it: every event it publishes or announces is that store's. */
export const storeBus = (bus: Bus, storeId: number): Bus => ({
  ...bus,
  publish: (e) => bus.publish({ storeId, ...e }),
  announcement: (events) => bus.announcement(events.map((e) => ({ storeId, ...e }))),
});
