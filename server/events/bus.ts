import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { Topic } from '../../domain/contract/events';

/** What changed; screens refetch the data behind a topic. userId narrows it to one person. */
export interface PortalEvent {
  topic: Exclude<Topic, 'hello'>;
  userId?: string;
  at: number;
}

export interface Bus {
  publish(e: Omit<PortalEvent, 'at'>): void;
  subscribe(fn: (e: PortalEvent) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'bdc_events';

/** In-process on SQLite; on PostgreSQL every app server LISTENs, so events cross servers. */
export async function createBus(pool: pg.Pool | null, log: { warn: (o: object, m: string) => void }): Promise<Bus> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const emit = (e: PortalEvent) => local.emit('event', e);

  let listener: pg.PoolClient | null = null;
  let closed = false;
  if (pool) {
    const connect = async () => {
      const client = await pool.connect();
      listener = client;
      client.on('notification', (msg) => {
        try {
          emit(JSON.parse(msg.payload ?? '{}') as PortalEvent);
        } catch {
          /* a foreign payload on our channel is ignored */
        }
      });
      client.on('error', (err) => {
        if (closed || listener !== client) return;
        log.warn({ err }, 'event listener lost its connection; reconnecting');
        listener = null;
        client.release(true);
        setTimeout(() => void connect().catch(() => undefined), 1000);
      });
      await client.query(`LISTEN ${CHANNEL}`);
    };
    await connect();
  }

  return {
    publish(partial) {
      const e: PortalEvent = { ...partial, at: Date.now() };
      if (pool) {
        pool.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(e)]).catch((err: unknown) => {
          log.warn({ err }, 'could not publish event');
        });
      } else {
        emit(e);
      }
    },
    subscribe(fn) {
      local.on('event', fn);
      return () => local.off('event', fn);
    },
    async close() {
      closed = true;
      local.removeAllListeners();
      const client = listener;
      listener = null;
      if (client) {
        await client.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
        client.release();
      }
    },
  };
}
