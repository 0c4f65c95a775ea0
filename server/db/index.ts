import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema';
import { migrate } from './migrations';

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

export async function openDb(opts: { databaseUrl?: string; dataDir: string; onIdleError?: (err: Error) => void }): Promise<DbHandle> {
  let handle: DbHandle;
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection dropped by the server (restart, failover) is replaced on next use;
    // without a listener the error would end the process.
    pool.on('error', (err) => opts.onIdleError?.(err));
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
    cachePreparedStatements(sqlite);
    // SQLite's lower() and LIKE fold ASCII only; short searches with other letters fold with this.
    sqlite.function('fold', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v));
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    handle = { db, dialect: 'sqlite', describe: `SQLite at ${file}`, file, pool: null, close: () => db.destroy() };
  }
  await migrate(handle.db, handle.dialect);
  return handle;
}

/**
 * Kysely prepares every statement anew; preparing costs more than running our small queries,
 * so statements are kept by their SQL text (a bounded cache: search SQL varies a little).
 */
function cachePreparedStatements(sqlite: SQLite.Database, max = 500) {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    let stmt = cache.get(source);
    if (!stmt) {
      stmt = prepare(source);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(source, stmt);
    }
    return stmt;
  }) as typeof sqlite.prepare;
}

/**
 * Runs fn in a transaction that holds the write lock from its first statement:
 * BEGIN IMMEDIATE on SQLite, a FOR UPDATE lock on the rotation state row on PostgreSQL.
 * Assign and skip use it so that two managers never read the same pointer.
 */
export async function withRotationLock<T>(h: DbHandle, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (h.dialect === 'sqlite') {
    // Kysely's SQLite driver holds one connection; BEGIN IMMEDIATE takes the write lock at once.
    return h.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const out = await fn(conn);
        await sql`commit`.execute(conn);
        return out;
      } catch (err) {
        await sql`rollback`.execute(conn);
        throw err;
      }
    });
  }
  return h.db.transaction().execute(async (trx) => {
    await sql`select id from rotation_state where id = 1 for update`.execute(trx);
    return fn(trx);
  });
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
