import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, loadDotEnv, ConfigError } from './config';
import { atStore, openDb, type DbHandle } from './db';
import { findUserByEmail, FIRST_STORE_ID, isBlocked } from './users/repo';
import { addStore, allStores, storesByCodes } from './stores/service';
import { firstStoreOf } from './config';
import { storeSchema } from '../domain/schemas';
import { createUser, editUser, setStatus } from './users/service';
import { ApiError } from './http/errors';
import { firstMessage, saveUserSchema } from '../domain/schemas';
import { seedDemo } from './seed/demo';

const HELP = `Usage:
  npm run cli -- store add NAME --code CODE [--timezone ZONE]
  npm run cli -- store list
  npm run cli -- user add EMAIL [--name NAME] [--role staff|manager|group-manager] [--store CODE ...]
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
  const dbh = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, firstStore: firstStoreOf(config) });
  try {
    if (cmd === 'store' && sub === 'add') await newStore(dbh, rest, config.APP_TIMEZONE);
    else if (cmd === 'store' && sub === 'list') await listStores(dbh);
    else if (cmd === 'user' && sub === 'add') await addUser(dbh, rest, config.MANAGER_EMAILS);
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

/** A new store, with its own line, rules and clock (the dealership's APP_TIMEZONE unless given). */
async function newStore(dbh: DbHandle, args: string[], defaultZone: string) {
  const { values, positionals } = parseArgs({ args, options: { code: { type: 'string' }, timezone: { type: 'string' } }, allowPositionals: true });
  const input = storeSchema.safeParse({ name: positionals.join(' '), code: values.code, timezone: values.timezone ?? defaultZone });
  if (!input.success) return fail(`${firstMessage(input.error)}\n${HELP}`);
  try {
    const s = await addStore(dbh, input.data);
    console.log(`Added store ${s.code}: ${s.name} (${s.timezone}). Add people to it with --store ${s.code}.`);
  } catch (err) {
    if (err instanceof ApiError) return fail(err.message);
    throw err;
  }
}

async function listStores(dbh: DbHandle) {
  for (const s of await allStores(dbh.db)) console.log(`${s.code.padEnd(8)} ${s.name.padEnd(32)} ${s.timezone}`);
}

const ROLES = ['staff', 'manager', 'group-manager'];

/** The same rules and audit trail as a manager's Add User, with the shell as the actor. */
async function addUser(dbh: DbHandle, args: string[], managerEmails: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: { name: { type: 'string' }, role: { type: 'string' }, store: { type: 'string', multiple: true } },
    allowPositionals: true,
  });
  const wanted = values.role?.trim().toLowerCase();
  if (wanted && !ROLES.includes(wanted)) return fail('--role must be staff, manager or group-manager');
  const groupManager = wanted === 'group-manager';
  const input = saveUserSchema.safeParse({
    email: positionals[0] ?? '',
    name: values.name,
    role: groupManager ? 'manager' : wanted,
    groupManager: wanted ? groupManager : undefined,
    stores: values.store,
  });
  if (!input.success) return fail(`${firstMessage(input.error)}\n${HELP}`);
  const { email, name, role } = input.data;
  const by = { id: null, name: 'command line' };
  try {
    const stores = input.data.stores ? await storesByCodes(dbh.db, input.data.stores) : undefined;
    const h = atStore(dbh, stores?.[0]?.id ?? FIRST_STORE_ID);
    const placing = { groupManager: input.data.groupManager, stores };
    const existing = await findUserByEmail(dbh.db, email);
    if (existing) {
      // Someone disabled or deleted comes back first, then takes the values given.
      if (isBlocked(existing)) await setStatus(h, existing.id, 'restore', by);
      const change = { email, name: values.name ? name : undefined, role: values.role ? role : undefined, ...placing };
      const row = await editUser(h, existing.id, change, by, managerEmails);
      console.log(`Updated ${email}: ${row.name}, ${row.all_stores ? 'group manager' : row.role}. They can sign in with their e-mail address.`);
      return;
    }
    const u = await createUser(h, { email, name, role, ...placing }, by);
    console.log(`Added ${email}: ${u.name}, ${u.all_stores ? 'group manager' : u.role}. They can sign in with their e-mail address.`);
  } catch (err) {
    if (err instanceof ApiError) return fail(err.message);
    throw err;
  }
}

async function listUsers(dbh: DbHandle) {
  const users = await dbh.db.selectFrom('users').selectAll().orderBy('role').orderBy('email').execute();
  if (!users.length) return console.log('No users yet. Add one: npm run cli -- user add EMAIL --role group-manager');
  const places = await dbh.db
    .selectFrom('memberships')
    .innerJoin('stores', 'stores.id', 'memberships.store_id')
    .select(['user_id', 'code'])
    .orderBy('stores.id')
    .execute();
  for (const u of users) {
    const stores = u.all_stores
      ? 'every store'
      : places
          .filter((p) => p.user_id === u.id)
          .map((p) => p.code)
          .join(' ');
    const role = u.all_stores ? 'group-manager' : u.role;
    console.log(`${role.padEnd(14)} ${u.email.padEnd(32)} ${u.name.padEnd(24)} ${stores}${u.disabled ? ' (disabled)' : ''}${u.deleted_at ? ' (deleted)' : ''}`);
  }
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
