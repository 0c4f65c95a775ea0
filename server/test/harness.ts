import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { inject } from 'vitest';
import { openDb, type StoreDb, type Dialect } from '../db';
import { FIRST_STORE, migrationNames } from '../db/migrations';
import type { FirstStore } from '../db/migrations/023_stores';
import { loadConfig } from '../config';
import { buildApp, type AppOptions } from '../app';
import { inStore } from '../context';
import { storeById } from '../stores/service';
import { FIRST_STORE_ID } from '../users/repo';
import { holdsLink, linkIn, startSmtp } from './smtp';

/** The run's migrated databases, where vitest's global setup made them (not in a benchmark, say). */
const template = (key: 'pgTemplate' | 'sqliteTemplate') => {
  try {
    return inject(key);
  } catch {
    return null;
  }
};

export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

let pgAnswers: boolean | null = null;
export async function postgresAnswers(): Promise<boolean> {
  if (pgAnswers !== null) return pgAnswers;
  // npm run test:quick: SQLite only.
  if (process.env.TEST_DATABASE === 'sqlite') {
    console.warn('\n!!! TEST_DATABASE=sqlite: the PostgreSQL suite is SKIPPED.\n');
    return (pgAnswers = false);
  }
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    pgAnswers = true;
  } catch (err) {
    pgAnswers = false;
    console.warn(`\n!!! PostgreSQL at ${PG_ADMIN_URL} does not answer (${(err as Error).message}): the PostgreSQL suite is SKIPPED.\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
  return pgAnswers;
}

/** The dialects to run a suite on: SQLite always, PostgreSQL where one answers. */
export const PG_AVAILABLE = await postgresAnswers();
export const DIALECTS: Dialect[] = PG_AVAILABLE ? ['sqlite', 'postgres'] : ['sqlite'];

/** An empty PostgreSQL database with a random name (a copy of `template` when given), and how to drop it. */
export async function pgDatabase(prefix = 'bdc_test', template?: string) {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const a = new pg.Client({ connectionString: PG_ADMIN_URL });
    await a.connect();
    try {
      await a.query(statement);
    } finally {
      await a.end();
    }
  };
  await admin(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * A fresh, empty database of its own: a temp SQLite file, or a PostgreSQL database with a random
 * name. close() closes and removes it; release() only closes the connection, drop() removes it.
 * `firstStore`: the store it starts with (store 1, where every test that names no store acts).
 * `before`: it is made as the release before this migration left it: that migration and every later
 * one are marked as run, so openDb passes them over; such a test runs what it needs itself with migrate().
 */
export async function freshDb(
  dialect: Dialect,
  { firstStore = FIRST_STORE, before }: { firstStore?: FirstStore; before?: string } = {},
): Promise<StoreDb & { url?: string; dir: string; release: () => Promise<void>; drop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-test-'));
  // A copy of the run's migrated database (server/test/global-setup.ts), where it starts as that one did.
  const copy = !before && JSON.stringify(firstStore) === JSON.stringify(FIRST_STORE);
  const pgDb = dialect === 'postgres' ? await pgDatabase('bdc_test', (copy && template('pgTemplate')) || undefined) : null;
  const url = pgDb?.url;
  if (copy && dialect === 'sqlite' && template('sqliteTemplate')) fs.copyFileSync(template('sqliteTemplate')!, path.join(dir, 'portal.sqlite'));
  if (before)
    await markRun(
      dialect,
      url ?? path.join(dir, 'portal.sqlite'),
      migrationNames(dialect).filter((m) => m >= before),
    );
  // A connection cut while the database is dropped is expected, not a finding.
  const h = await openDb({ databaseUrl: url, dataDir: dir, onConnectionError: () => undefined, firstStore });
  const drop = async () => {
    await pgDb?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await h.close();
  };
  // The first store: what every test that names no store acts on.
  return {
    ...h,
    store: FIRST_STORE_ID,
    url,
    dir,
    release,
    drop,
    close: async () => {
      await release();
      await drop();
    },
  };
}

/** Records these migrations as run in an empty database (Kysely's own table), so that migrating it passes them over. */
async function markRun(dialect: Dialect, where: string, names: string[]) {
  const create = 'create table kysely_migration (name varchar(255) not null primary key, timestamp varchar(255) not null)';
  const at = new Date().toISOString();
  if (dialect === 'sqlite') {
    const db = new SQLite(where);
    try {
      db.exec(create);
      const insert = db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)');
      for (const name of names) insert.run(name, at);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: where });
  await client.connect();
  try {
    await client.query(create);
    for (const name of names) await client.query('insert into kysely_migration (name, timestamp) values ($1, $2)', [name, at]);
  } finally {
    await client.end();
  }
}

export const MANAGER = 'boss@dealer.test';
export const STAFF_DOMAIN = 'dealer.test';

/** The real app on a fresh database with a real SMTP server receiving its mail. */
/** Shows /healthz's details (the public sees only up or down). */
export const HEALTH_TOKEN = 'health-token-for-the-tests';
export const healthAuth = { authorization: `Bearer ${HEALTH_TOKEN}` };

export async function testApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  opts: Pick<
    AppOptions,
    'logger' | 'sweepMs' | 'outboxTiming' | 'pruneMs' | 'webDist' | 'intakeClock' | 'mailTiming' | 'noticeTiming' | 'channels' | 'sessionKeepMs'
  > = {},
) {
  const smtp = await startSmtp();
  const settings = {
    NODE_ENV: 'test',
    SMTP_URL: smtp.url,
    MANAGER_EMAILS: MANAGER,
    ALLOWED_EMAIL_DOMAINS: STAFF_DOMAIN,
    WEATHER_URL: 'http://127.0.0.1:9',
    HEALTH_TOKEN,
    ...env,
  };
  // As at start-up, the first store keeps the dealership's clock (APP_TIMEZONE).
  const dbh = await freshDb(dialect, { firstStore: { ...FIRST_STORE, timezone: loadConfig(settings).APP_TIMEZONE } });
  const config = loadConfig({ DATA_DIR: dbh.dir, ...settings });
  const app = await buildApp({ config, dbh, ...opts });
  await app.ready();
  /** The app's context in the first store: what the store's routes and jobs see there. */
  const store = inStore(app.ctx, await storeById(dbh.db, FIRST_STORE_ID));

  /** Signs in through the real link flow and returns the session cookie. */
  async function signIn(email: string): Promise<string> {
    const seen = smtp.count(email);
    const sent = await app.inject({ method: 'POST', url: '/api/auth/link', payload: { email } });
    if (sent.statusCode !== 200) throw new Error(`link: ${sent.statusCode} ${sent.body}`);
    // The mail with the link: a lead's mail to him may come between.
    const link = linkIn(await smtp.mailTo(email, 5000, seen, holdsLink));
    const done = await app.inject({
      method: 'POST',
      url: '/api/auth/complete',
      payload: { email: link.searchParams.get('e'), token: link.searchParams.get('t') },
    });
    if (done.statusCode !== 200) throw new Error(`complete: ${done.statusCode} ${done.body}`);
    const cookie = done.cookies.find((c) => c.name === 'bdc_session');
    if (!cookie) throw new Error('no session cookie');
    return `bdc_session=${cookie.value}`;
  }

  /** Waits until the outbox has nothing left waiting: every queued mail was sent or given up. */
  async function drained(timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    while ((await app.ctx.outbox.backlog()).waiting > 0) {
      if (Date.now() > deadline) throw new Error('the outbox did not drain');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  return {
    app,
    dbh,
    db: dbh.db,
    smtp,
    config,
    store,
    signIn,
    drained,
    async close() {
      await app.close();
      await dbh.close();
      await smtp.close();
    },
  };
}
export type TestApp = Awaited<ReturnType<typeof testApp>>;
