import { sql } from 'kysely';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db';

/**
 * Counts one hit for key in a fixed window and returns the hits so far and the time left. One
 * statement on both dialects, so every app server on the database counts the same hits.
 */
export async function hit(db: Db, key: string, windowMs: number): Promise<{ hits: number; ttl: number }> {
  const now = Date.now();
  const { rows } = await sql<{ hits: number; reset_at: number }>`
    insert into rate_limits (key, hits, reset_at) values (${key}, 1, ${now + windowMs})
    on conflict (key) do update set
      hits = case when rate_limits.reset_at <= ${now} then 1 else rate_limits.hits + 1 end,
      reset_at = case when rate_limits.reset_at <= ${now} then excluded.reset_at else rate_limits.reset_at end
    returning hits, reset_at`.execute(db);
  const row = rows[0];
  return { hits: Number(row.hits), ttl: Math.max(0, Number(row.reset_at) - now) };
}

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** A store for @fastify/rate-limit that keeps its counters in the database (one key space per route). */
export function dbStore(db: Db): FastifyRateLimitStoreCtor {
  class DbStore {
    prefix: string;
    constructor(_opts?: unknown, prefix = 'rl:') {
      this.prefix = prefix;
    }
    incr(key: string, cb: Callback, timeWindow: number) {
      hit(db, this.prefix + key, timeWindow).then(
        (r) => cb(null, { current: r.hits, ttl: r.ttl }),
        (err: Error) => cb(err),
      );
    }
    // The library hands its merged route settings, route included, as routeInfo.
    child(opts: { routeInfo?: { method?: unknown; url?: string } }) {
      return new DbStore(undefined, `rl:${String(opts.routeInfo?.method)}${opts.routeInfo?.url ?? ''}:`);
    }
  }
  return DbStore as unknown as FastifyRateLimitStoreCtor;
}
