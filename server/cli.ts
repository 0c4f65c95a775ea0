import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, loadDotEnv, ConfigError } from './config';
import { openDb, type DbHandle } from './db';
import { findUserByEmail, insertUser } from './users/repo';
import { normalizeEmail, normalizeRole } from '../domain/roles';
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
    if (cmd === 'user' && sub === 'add') await addUser(dbh, rest);
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

async function addUser(dbh: DbHandle, args: string[]) {
  const { values, positionals } = parseArgs({ args, options: { name: { type: 'string' }, role: { type: 'string' } }, allowPositionals: true });
  const email = normalizeEmail(positionals[0] ?? '');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return fail(`"${positionals[0] ?? ''}" is not an e-mail address.\n${HELP}`);
  if (values.role && !['manager', 'staff'].includes(values.role.trim().toLowerCase())) return fail('--role must be manager or staff');
  const existing = await findUserByEmail(dbh.db, email);
  if (existing) {
    const patch = { name: values.name?.trim() || existing.name, role: values.role ? normalizeRole(values.role) : existing.role, disabled: 0, deleted_at: null, updated_at: Date.now() };
    await dbh.db.updateTable('users').set(patch).where('id', '=', existing.id).execute();
    console.log(`Updated ${email}: ${patch.name}, ${patch.role}. They can sign in with their e-mail address.`);
    return;
  }
  const u = await insertUser(dbh.db, { email, name: values.name, role: values.role });
  console.log(`Added ${email}: ${u.name}, ${u.role}. They can sign in with their e-mail address.`);
}

async function listUsers(dbh: DbHandle) {
  const users = await dbh.db.selectFrom('users').selectAll().orderBy('role').orderBy('position').execute();
  if (!users.length) return console.log('No users yet. Add one: npm run cli -- user add EMAIL --role manager');
  for (const u of users) console.log(`${u.role.padEnd(8)} ${u.email.padEnd(32)} ${u.name}${u.disabled ? ' (disabled)' : ''}${u.deleted_at ? ' (deleted)' : ''}`);
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
