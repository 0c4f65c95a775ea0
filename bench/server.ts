/** The portal under measure: the web app's build, a server of its own with people signed in, the demo dealership. */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import type { DbHandle } from '../server/db';
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
    spawn('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'ignore' }).on('exit', (c) => (c ? j(new Error('build failed')) : r())),
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
