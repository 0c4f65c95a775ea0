import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import type { Database } from './schema';
import { migrate } from './migrations';
import { checkpointOffThread } from './checkpoint';
import type { FirstStore } from './migrations/023_stores';
import { isRecord } from '../../domain/guards';
import { fold } from '../../domain/text';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

// int8 (epoch ms, cents) arrives as a string by default; our values fit a double exactly.
pg.types.setTypeParser(20, Number);

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** Where the data lives, for the start-up line (no password). */
  describe: string;
  /** SQLite file path (for backups); null on PostgreSQL. */
  file: string | null;
  pool: pg.Pool | null;
  close: () => Promise<void>;
}

/** A handle on one store's data: the rotation's functions act on its line, rules and rows, under its lock. */
export type StoreDb = DbHandle & { store: number; tz?: string };

/** `tz`: the store's clock, where its day begins (a daily cap counts from then); UTC when not given. */
export const atStore = (h: DbHandle, store: number, tz?: string): StoreDb => ({ ...h, store, tz });

export async function openDb(opts: {
  databaseUrl?: string;
  dataDir: string;
  onConnectionError?: (err: Error) => void;
  firstStore?: FirstStore;
}): Promise<DbHandle> {
  let handle: DbHandle;
  if (opts.databaseUrl) {
    // A database that does not answer at all (a network blackhole) fails a request after 5 s
    // rather than holding it forever. JIT compilation is off for the portal's own connections:
    // PostgreSQL starts it by a plan's estimated cost, and on our queries it only added its own
    // time (the year's funnel report, 200,000 leads: p50 240–280 ms with it, 180–210 ms without).
    // Options in the address or PGOPTIONS still say the last word.
    const options = ['-c jit=off', process.env.PGOPTIONS].filter(Boolean).join(' ');
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, options, max: 10, connectionTimeoutMillis: 5000, keepAlive: true, Client: Opening });
    // A connection the server drops (restart, failover, a terminated backend) emits 'error'; with
    // no listener that would end the process. The pool listens only while a connection is idle,
    // so each connection gets a listener of its own for its whole life: the query in flight
    // fails (the request answers 503, see unreachable) and the pool replaces the connection.
    const dropped = (err: Error) => opts.onConnectionError?.(err);
    pool.on('error', dropped);
    pool.on('connect', (client) => client.on('error', dropped));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const u = new URL(opts.databaseUrl);
    handle = {
      db,
      dialect: 'postgres',
      describe: `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`,
      file: null,
      pool,
      close: () => db.destroy(),
    };
  } else {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    const file = path.join(opts.dataDir, 'portal.sqlite');
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    // What SQLite keeps to roll back a savepoint or a statement stays in memory. Past 64 KB it went
    // to a temporary file, and a routed up changes more pages than that in its savepoint (README,
    // "Savepoints in memory").
    sqlite.pragma('temp_store = MEMORY');
    // SQLite's lower() and LIKE fold ASCII only; short searches with other letters read names with this (domain/text.ts).
    sqlite.function('fold', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? fold(v) : v));
    const kept = new Map<string, SQLite.Statement>();
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, kept) }) });
    statements.set(db, kept);
    const stopCheckpoints = checkpointOffThread(sqlite, file);
    const close = async () => {
      await stopCheckpoints();
      await db.destroy();
    };
    handle = { db, dialect: 'sqlite', describe: `SQLite at ${file}`, file, pool: null, close };
  }
  await migrate(handle.db, handle.dialect, opts.firstStore);
  await optimize(handle);
  return handle;
}

/**
 * SQLite's planner picks indexes by its statistics; without them it took the open-leads index for
 * the sweep's overdue question (a scan, 40 ms at 200,000 leads) over the Accept index (0.04 ms).
 * PRAGMA optimize gathers them where a table changed enough, within a bounded effort. PostgreSQL
 * keeps its own (autovacuum).
 *
 * Only the counts (sqlite_stat1) are kept. ANALYZE in this build also samples index keys
 * (sqlite_stat4), and SQLite then compiles again, at every run, each statement whose parameter
 * meets a sampled index: nearly all of ours. Next Up on the floor took 90 µs a run with them and 7 µs
 * without; the counts alone pick the same indexes. Kept statements are prepared afresh after.
 */
export async function optimize(h: Pick<DbHandle, 'db' | 'dialect'>) {
  if (h.dialect !== 'sqlite') return;
  await sql`pragma optimize=0x10002`.execute(h.db);
  const { rows } = await sql`select 1 from sqlite_master where name = 'sqlite_stat4'`.execute(h.db);
  if (!rows.length) return;
  const dropped = await sql`delete from sqlite_stat4`.execute(h.db);
  if (!Number(dropped.numAffectedRows)) return;
  await sql`analyze sqlite_schema`.execute(h.db);
  statements.get(h.db)?.clear();
}

/** Each SQLite database's kept statements by their SQL text (withStatementCache). */
const statements = new WeakMap<Db, Map<string, SQLite.Statement>>();

/**
 * Kysely prepares every statement anew; preparing costs more than running our small queries,
 * so statements are kept by their SQL text (a bounded cache: search SQL varies a little).
 */
function withStatementCache(sqlite: SQLite.Database, cache: Map<string, SQLite.Statement>, max = 500): SqliteDatabase {
  return {
    close: () => sqlite.close(),
    prepare(source) {
      let stmt = cache.get(source);
      if (!stmt) {
        stmt = sqlite.prepare(source);
        if (cache.size >= max) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
        cache.set(source, stmt);
      }
      return stmt;
    },
  };
}

/**
 * Runs fn in a transaction that holds the store's rotation lock from its first statement:
 * BEGIN IMMEDIATE on SQLite (the whole file), a FOR UPDATE lock on the store's rotation state
 * row on PostgreSQL, so stores never wait on each other there. Assign and skip use it so that
 * two managers never read the same pointer. `also`: more stores to lock (in id order, so two
 * such transactions never wait on each other in a circle).
 */
export async function withRotationLock<T>(h: StoreDb, fn: (trx: Db) => Promise<T>, also: number[] = []): Promise<T> {
  if (h.dialect === 'sqlite') return immediate(h.db, fn);
  return h.db.transaction().execute(async (trx) => {
    const ids = [...new Set([h.store, ...also])].sort((a, b) => a - b);
    await sql`select id from rotation_state where id in (${sql.join(ids)}) order by id for update`.execute(trx);
    return fn(trx);
  });
}

/** A transaction waiting for SQLite's write lock, and how to answer its caller. */
interface Waiting {
  fn: (trx: Db) => Promise<unknown>;
  done: (out: unknown) => void;
  fail: (err: unknown) => void;
}

/** What waits for each SQLite database's write lock while a group holds it, in arrival order. */
const waiting = new WeakMap<Db, Waiting[]>();

/** At most this many transactions commit together (bounds the wait of a group's first). */
export const GROUP = 32;

/**
 * Kysely's SQLite driver holds one connection; BEGIN IMMEDIATE takes the write lock at once.
 * Transactions that arrive while one runs wait, and then run together, each under a savepoint of
 * its own, in one BEGIN IMMEDIATE … COMMIT (a group commit): a commit writes every page its
 * transaction changed to the log, and a busy floor's assigns change the same pages, so together
 * they write them once. One that throws is rolled back to its savepoint alone; each caller hears
 * after the commit, and if the commit fails, all of them do.
 */
function immediate<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return new Promise<T>((done, fail) => {
    const job: Waiting = { fn, done: done as (out: unknown) => void, fail };
    const queue = waiting.get(db);
    if (queue) return void queue.push(job);
    const fresh = [job];
    waiting.set(db, fresh);
    void drain(db, fresh);
  });
}

async function drain(db: Db, queue: Waiting[]) {
  // A transaction on SQLite runs to its end within one turn of the event loop (every statement
  // answers at once), so the requests read from their sockets meanwhile reach theirs only after
  // it: waiting for the end of the turn lets them join the next group.
  for (;;) {
    await new Promise(setImmediate);
    if (!queue.length) break;
    await together(db, queue.splice(0, GROUP));
  }
  waiting.delete(db);
}

/** A group's transaction; it answers every caller and never throws. */
async function together(db: Db, group: Waiting[]) {
  const kept: { job: Waiting; out: unknown }[] = [];
  let at = 0;
  const failFrom = (err: unknown) => {
    for (const job of [...kept.map((k) => k.job), ...group.slice(at)]) job.fail(err);
    kept.length = 0;
  };
  await db
    .connection()
    .execute(async (conn) => {
      try {
        await sql`begin immediate`.execute(conn);
        for (; at < group.length; at++) {
          const job = group[at];
          await sql`savepoint together`.execute(conn);
          try {
            kept.push({ job, out: await job.fn(conn) });
          } catch (err) {
            job.fail(err);
            await sql`rollback to together`.execute(conn);
          }
          await sql`release together`.execute(conn);
        }
        await sql`commit`.execute(conn);
      } catch (err) {
        // One of the group's own statements failed (the lock, a savepoint, the commit; a full disk ends the transaction): nothing is kept.
        await sql`rollback`.execute(conn).catch(() => undefined);
        failFrom(err);
      }
    })
    .catch(failFrom);
  for (const k of kept) k.job.done(k.out);
}

/**
 * Runs fn in a transaction that holds the group's intake lock: what waits for a store (leads no
 * dealer mapping claims) is read and written by one request at a time. No store's rotation waits on it.
 */
export async function withGroupLock<T>(h: DbHandle, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (h.dialect === 'sqlite') return immediate(h.db, fn);
  return h.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('bdc_group_intake'))`.execute(trx);
    return fn(trx);
  });
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** Errors met while opening a connection: whatever their code (refused, no such database, a wrong password, not now), the database could not be reached. */
const opening = new WeakSet<object>();

/** The pool's client: marks what failed its opening, for unreachable(). */
class Opening extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
  override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
    const mark = (err: Error) => {
      if (isRecord(err)) opening.add(err);
      return err;
    };
    if (!callback) return super.connect().catch((err: Error) => Promise.reject(mark(err)));
    const done = callback as (err: Error | null, c?: pg.Client) => void;
    super.connect((err: Error | null) => (err ? done(mark(err)) : done(null, this)));
  }
}

/**
 * PostgreSQL's codes for "the connection or the server is gone, or will not take us, for now": 08 connection exception, 57P0x shut
 * down, starting up or dropped, 53 insufficient resources (too many connections, disk full), 3D000 no such database, 28 not let in.
 */
const GONE_CODES = /^(08|57P0[1-5]$|53|3D000$|28)/;
/** The same, said by Node, the driver and SQLite (busy beyond its busy timeout, a file it cannot open, a full disk). */
const NET_CODES =
  /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|SQLITE_BUSY.*|SQLITE_CANTOPEN.*|SQLITE_FULL)$/;
/** What the pg driver says when a connection drops, cannot open, or times out, and PostgreSQL when a database takes no connections (55000, a code it uses for much else). */
const GONE_MESSAGES =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|is not currently accepting connections/i;

/**
 * Why the database cannot be reached right now (its code, else "connection lost"), or null when the
 * error says the request was wrong: such a request answers 503 with Retry-After, and its transaction
 * was rolled back.
 */
export function unreachable(err: unknown): string | null {
  if (!isRecord(err)) return null;
  const { code, message, errors } = err;
  const known = typeof code === 'string' && code ? code : null;
  if (opening.has(err)) return known ?? 'could not connect';
  if (known && (GONE_CODES.test(known) || NET_CODES.test(known))) return known;
  if (typeof message === 'string' && GONE_MESSAGES.test(message)) return known ?? 'connection lost';
  // Node reports a refused connection to a host with several addresses as an AggregateError.
  return Array.isArray(errors) ? (errors.map(unreachable).find((r) => r !== null) ?? null) : null;
}

/** A write refused by a unique constraint, on either database. */
export const isUniqueViolation = (err: unknown) => isRecord(err) && (err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE');
