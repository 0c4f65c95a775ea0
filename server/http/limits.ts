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
  // The library's types say child() gets RouteOptions; it passes its merged settings with routeInfo (above).
  return DbStore as unknown as FastifyRateLimitStoreCtor;
}

/** A token bucket: it holds at most `burst` tokens and gains `perMinute` a minute; each request takes one. */
export interface Bucket {
  burst: number;
  perMinute: number;
}

/** What taking a token answered: whether the request may go on, and when the bucket is full again. */
export interface Taken {
  allowed: boolean;
  /** When the bucket is full again (ms since the epoch); a time already past means full. */
  fullAt: number;
  /** Tokens left after this request. */
  remaining: number;
  /** Refused: how long until the next token comes (ms); 0 when allowed. */
  retryAfterMs: number;
}

/** Milliseconds between two tokens (at least 1). */
export const tokenInterval = (b: Bucket) => Math.max(1, Math.round(60_000 / b.perMinute));

/** The answer, from the decision and the bucket's new full time (shared by the arithmetic and the database). */
function taken(allowed: boolean, fullAt: number, now: number, b: Bucket): Taken {
  const t = tokenInterval(b);
  const debt = Math.max(0, fullAt - now);
  return {
    allowed,
    fullAt,
    remaining: Math.max(0, Math.floor((b.burst * t - debt) / t)),
    retryAfterMs: allowed ? 0 : debt - (b.burst - 1) * t,
  };
}

/**
 * The bucket's arithmetic, kept as one number: the time the bucket is full again (null: never
 * used, so full). Its debt d = max(fullAt - now, 0) is the time the missing tokens take to come
 * back, so it holds burst - d/interval tokens. A request is let through when a whole token is
 * there (d <= (burst - 1) * interval) and moves fullAt one interval on from max(fullAt, now);
 * refused, it changes nothing and waits until the debt is down to that line. (This is the
 * "generic cell rate algorithm" form of a token bucket: one number per key, no background refill.)
 */
export function takeToken(fullAt: number | null, now: number, b: Bucket): Taken {
  const t = tokenInterval(b);
  const from = fullAt === null || fullAt < now ? now : fullAt;
  const allowed = from - now <= (b.burst - 1) * t;
  return taken(allowed, allowed ? from + t : from, now, b);
}

/**
 * takeToken in one statement on both dialects, so every app server on the database draws from
 * the same bucket. Kept in rate_limits: reset_at is the time the bucket is full again (so the
 * prune, which deletes rows whose reset_at has passed, deletes only full buckets), and hits is 1
 * when this request was let through and 0 when it was refused.
 */
export async function take(db: Db, key: string, now: number, b: Bucket): Promise<Taken> {
  const t = tokenInterval(b);
  const line = (b.burst - 1) * t;
  const { rows } = await sql<{ hits: number; reset_at: number }>`
    insert into rate_limits (key, hits, reset_at) values (${key}, 1, ${now + t})
    on conflict (key) do update set
      hits = case when rate_limits.reset_at - ${now} <= ${line} then 1 else 0 end,
      reset_at = case
        when rate_limits.reset_at - ${now} > ${line} then rate_limits.reset_at
        when rate_limits.reset_at > ${now} then rate_limits.reset_at + ${t}
        else ${now + t} end
    returning hits, reset_at`.execute(db);
  const row = rows[0];
  return taken(Number(row.hits) === 1, Number(row.reset_at), now, b);
}
