import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, loadDotEnv, ConfigError } from './config';
import { openDb, type DbHandle } from './db';
import { findUserByEmail, isBlocked } from './users/repo';
import { createUser, editUser, setStatus } from './users/service';
import { ApiError } from './http/errors';
import { firstMessage, saveUserSchema } from '../domain/schemas';
import { seedDemo } from './seed/demo';

const HELP = `Usage:
  npm run cli -- user add EMAIL [--name NAME] [--role manager|staff]
  npm run cli -- user list
  npm run seed:demo            fill an empty database with a demo dealership
  npm run backup [-- FILE]     consistent copy of the SQLite database (safe while the portal runs)`;

async function main() {
  const [cmd, sub, ...rest] = process.argv.slice(2);
  let config;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
  const dbh = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    if (cmd === 'user' && sub === 'add') await addUser(dbh, rest, config.MANAGER_EMAILS);
    else if (cmd === 'user' && sub === 'list') await listUsers(dbh);
    else if (cmd === 'seed-demo') await seedDemo(dbh, config.APP_TIMEZONE, (line) => console.log(line));
    else if (cmd === 'backup') await backup(dbh, sub, config.DATA_DIR);
    else {
      console.log(HELP);
      process.exitCode = cmd ? 2 : 0;
    }
  } finally {
    await dbh.close();
  }
}

/** The same rules and audit trail as a manager's Add User, with the shell as the actor. */
async function addUser(dbh: DbHandle, args: string[], managerEmails: string[]) {
  const { values, positionals } = parseArgs({ args, options: { name: { type: 'string' }, role: { type: 'string' } }, allowPositionals: true });
  if (values.role && !['manager', 'staff'].includes(values.role.trim().toLowerCase())) return fail('--role must be manager or staff');
  const input = saveUserSchema.safeParse({ email: positionals[0] ?? '', name: values.name, role: values.role });
  if (!input.success) return fail(`${firstMessage(input.error)}\n${HELP}`);
  const { email, name, role } = input.data;
  const by = { id: null, name: 'command line' };
  try {
    const existing = await findUserByEmail(dbh.db, email);
    if (existing) {
      // Someone disabled or deleted comes back first, then takes the values given.
      if (isBlocked(existing)) await setStatus(dbh, existing.id, 'restore', by);
      const row = await editUser(dbh, existing.id, { email, name: values.name ? name : undefined, role: values.role ? role : undefined }, by, managerEmails);
      console.log(`Updated ${email}: ${row.name}, ${row.role}. They can sign in with their e-mail address.`);
      return;
    }
    const u = await createUser(dbh, { email, name, role }, by);
    console.log(`Added ${email}: ${u.name}, ${u.role}. They can sign in with their e-mail address.`);
  } catch (err) {
    if (err instanceof ApiError) return fail(err.message);
    throw err;
  }
}

async function listUsers(dbh: DbHandle) {
  const users = await dbh.db.selectFrom('users').selectAll().orderBy('role').orderBy('position').execute();
  if (!users.length) return console.log('No users yet. Add one: npm run cli -- user add EMAIL --role manager');
  for (const u of users)
    console.log(`${u.role.padEnd(8)} ${u.email.padEnd(32)} ${u.name}${u.disabled ? ' (disabled)' : ''}${u.deleted_at ? ' (deleted)' : ''}`);
}

async function backup(dbh: DbHandle, target: string | undefined, dataDir: string) {
  if (dbh.dialect !== 'sqlite' || !dbh.file) return fail('npm run backup copies the embedded SQLite database. On PostgreSQL use pg_dump.');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.resolve(target ?? path.join(dataDir, 'backups', `portal-${stamp}.sqlite`));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const SQLite = (await import('better-sqlite3')).default;
  // SQLite's online backup copies a consistent snapshot while the portal keeps writing.
  const source = new SQLite(dbh.file, { readonly: true });
  try {
    await source.backup(file, {
      progress: ({ totalPages, remainingPages }) => {
        process.stdout.write(`\rBacking up… ${Math.round(((totalPages - remainingPages) / Math.max(totalPages, 1)) * 100)}%`);
        return 200;
      },
    });
  } finally {
    source.close();
  }
  console.log(`\nBackup written to ${file}`);
}

function fail(msg: string) {
  console.error(msg);
  process.exitCode = 1;
}

void main();
