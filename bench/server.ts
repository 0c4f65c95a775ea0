/** The portal under measure: the web app's build, a server of its own with people signed in, the demo dealership. */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import { atStore, withRotationLock, type DbHandle } from '../server/db';
import { addStore, allStores } from '../server/stores/service';
import { insertUser } from '../server/users/repo';
import { freshDb } from '../server/test/harness';
import { managerSession, startServerProcess } from '../server/test/process';
import { startWeatherServer } from '../server/test/weather-server';
import { seedDemo } from '../server/seed/demo';
import { say } from './load';
import { SSE_CLIENTS } from './parts/live';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECRET = crypto.randomBytes(32).toString('hex');
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: SECRET };

export async function buildWeb() {
  say('Building the web app…');
  await new Promise<void>((r, j) =>
    spawn('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'ignore' }).on('exit', (c) => (c ? j(new Error('build failed')) : r())),
  );
}

/** A manager and twelve salesmen on the floor; the manager's session, and one more for each event stream. */
export async function seed(dbh: DbHandle) {
  const boss = await insertUser(dbh.db, { email: 'bench.boss@bench.test', name: 'Bench Boss', role: 'manager' });
  // On the floor: newcomers start off duty.
  for (let i = 0; i < 12; i++) await insertUser(dbh.db, { email: `rep${i}@bench.test`, name: `Rep ${i}`, onDuty: true });
  // One sign-in holds at most 10 event streams: each streaming screen has a session of its own.
  const viewers: string[] = [];
  for (let i = 0; i < SSE_CLIENTS; i++) viewers.push(await managerSession(dbh, SECRET, boss.id));
  return { cookie: await managerSession(dbh, SECRET, boss.id), boss, viewers };
}

/**
 * A dealer group: the first store and more added up to `stores`, `salesmen` on the floor in each
 * (put into its line under its rotation lock, as the portal does), and `managers` group managers
 * (role manager, no store: every store is theirs), each signed in; the stores and the sessions.
 */
export async function seedGroup(dbh: DbHandle, v: { stores: number; salesmen: number; managers: number }) {
  for (let i = 2; i <= v.stores; i++) await addStore(dbh, { name: `Store ${i}`, code: `S${i}`, timezone: 'America/New_York' });
  const stores = await allStores(dbh.db);
  for (const store of stores) {
    await withRotationLock(atStore(dbh, store.id), async (trx) => {
      for (let i = 0; i < v.salesmen; i++) {
        await insertUser(trx, { email: `rep${i}.${store.code.toLowerCase()}@bench.test`, name: `Rep ${i} ${store.code}`, onDuty: true, stores: [store.id] });
      }
    });
  }
  const cookies: string[] = [];
  for (let i = 0; i < v.managers; i++) {
    const m = await insertUser(dbh.db, { email: `group.boss${i}@bench.test`, name: `Group Boss ${i}`, role: 'manager' });
    cookies.push(await managerSession(dbh, SECRET, m.id));
  }
  // A running database has its planner's statistics (autovacuum gathers them within a minute);
  // one just filled has none, and the planner then joined each store's line to the users table by
  // reading it whole for every salesman: assigns spread over fifty stores cost PostgreSQL 1.2 ms of
  // CPU each against 0.47 ms in the first store (whose salesmen come first in the table), 0.33 ms
  // everywhere once analysed.
  await analyzeSeeded(dbh);
  return { stores, cookies };
}

/**
 * Planner statistics for the tables a seed filled (the people, their lines, the stores), as a
 * running database has them. Not for the leads: analysed while still empty, PostgreSQL would take
 * them for empty until autovacuum looks again (a minute on), and walk every lead the measure
 * adds, where a running database's statistics send it to an index.
 */
export async function analyzeSeeded(dbh: DbHandle) {
  if (dbh.dialect === 'postgres') await sql`analyze users, memberships, stores, rotation_state, teams, team_members`.execute(dbh.db);
}

/** The portal as it runs for a dealership: its own process, production mode. */
export const startServer = (env: Record<string, string>) => startServerProcess({ ...env, ...PRODUCTION });

/** The demo dealership in a server of its own: who signs in. */
async function demoServer() {
  const dbh = await freshDb('sqlite');
  await seedDemo(dbh, 'America/New_York', () => undefined);
  const id = async (email: string) => (await dbh.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const managerId = await id('diane.foster@demo-dealer.com');
  const salesmanId = await id('marcus.reed@demo-dealer.com');
  const manager = await managerSession(dbh, SECRET, managerId);
  const salesman = await managerSession(dbh, SECRET, salesmanId);
  await dbh.release();
  const weather = await startWeatherServer({ temperature: 22, weathercode: 2 });
  const server = await startServerProcess({ ...PRODUCTION, DATA_DIR: dbh.dir, WEATHER_URL: weather.url });
  return {
    base: server.base,
    dir: dbh.dir,
    manager,
    salesman,
    salesmanId,
    stop: async () => {
      await server.stop();
      await weather.close();
      await dbh.drop();
    },
  };
}

export type Demo = Awaited<ReturnType<typeof demoServer>>;

/** `measure` against the demo dealership, which is stopped afterwards whatever happened. */
export async function withDemo<T>(measure: (demo: Demo) => Promise<T>): Promise<T> {
  const demo = await demoServer();
  try {
    return await measure(demo);
  } finally {
    await demo.stop();
  }
}
