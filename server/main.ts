import { createRequire } from 'node:module';
import { loadConfig, loadDotEnv, ConfigError, firstStoreOf } from './config';
import { openDb } from './db';
import { buildApp } from './app';
import { messageOf } from '../domain/errors';

/** pino-pretty is a development tool: where it is not installed, the log stays JSON. */
function prettyTarget(): string | null {
  try {
    return createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return null;
  }
}

async function main() {
  let config;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const pretty = config.NODE_ENV !== 'production' && process.stdout.isTTY ? prettyTarget() : null;
  const logger = {
    level: config.LOG_LEVEL,
    ...(pretty ? { transport: { target: pretty, options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  };
  let dbh;
  try {
    dbh = await openDb({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      firstStore: firstStoreOf(config),
      onConnectionError: (err) => console.warn(`database connection dropped (${err.message}); a new one is opened on next use`),
    });
  } catch (err) {
    console.error(`Could not open the database: ${messageOf(err)}\nCheck DATABASE_URL or DATA_DIR and start again.`);
    process.exit(1);
  }
  const app = await buildApp({ config, dbh, logger });
  const log = app.log;
  // A promise nobody waited on that failed is a bug to log, not a reason to take every user's portal down.
  process.on('unhandledRejection', (err) => log.error({ err }, 'a background task failed (unhandled rejection)'));
  await app.listen({ port: config.PORT, host: config.HOST });
  log.info(`${config.APP_NAME} at ${config.PUBLIC_URL} on ${dbh.describe}; sign-in links go to ${app.ctx.mailer.describe}`);

  const managers = await dbh.db.selectFrom('users').select('id').where('role', '=', 'manager').limit(1).execute();
  if (!managers.length && !config.MANAGER_EMAILS.length) {
    log.warn(
      'No manager yet. Add the first one with MANAGER_EMAILS=you@dealer.com npm start, or: npm run cli -- user add you@dealer.com --name "Your Name" --role manager',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing requests in flight and closing`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await dbh.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

void main();
