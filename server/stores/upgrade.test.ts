// The upgrade to stores (server/db/migrations/023_stores.ts) keeps every row, tested from a
// database the previous release (git 9182a44, before stores) created and filled with its own code:
// its demo seed, then a day's work through its HTTP API (fixtures/make.ts; fixtures/README.md says
// how to remake them). Each fixture is restored into a fresh database, read as it is, opened with
// today's openDb (which migrates), and read again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type DbHandle, type Dialect } from '../db';
import { PG_AVAILABLE, pgDatabase } from '../test/harness';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
/** What the deployment names its first store (DEALERSHIP_NAME, APP_TIMEZONE): the fixtures' dealership. */
const FIRST_STORE = { name: 'Lakeside Motors', code: 'LAKESIDE', timezone: 'America/Chicago' };

/** The columns that move from users onto memberships. */
const MOVED = ['position', 'active', 'on_duty', 'snooze_until'];
/** The tables whose every row is now the first store's. */
const PER_STORE = ['leads', 'rotation_log', 'sales', 'api_keys', 'rules_audit', 'floor_days'];

/** A value as text, alike on both drivers (an int8 parsed or not, a blob as hex); null stays null. */
type Row = Record<string, string | null>;
const norm = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v)) return `x${v.toString('hex')}`;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  // pg's json and timestamp values (the schema keeps times as epoch ms; this is for anything else).
  return JSON.stringify(v);
};

interface Snapshot {
  /** Each table's columns, in order. */
  columns: Map<string, string[]>;
  rows: Map<string, Row[]>;
}

/** Every table and row of a database, read with its own driver, not through the app. */
interface Reader {
  tables(): Promise<string[]>;
  columns(table: string): Promise<string[]>;
  rows(table: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

function sqliteReader(file: string): Reader {
  const db = new SQLite(file);
  return {
    // SQLite's planner statistics are rewritten by PRAGMA optimize on every open, and the search's
    // full-text tables are an index (rebuilt by 042): not data.
    tables: async () =>
      db
        .prepare<[], { name: string }>(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite_stat%' and name not like 'leads_fts%' order by name",
        )
        .all()
        .map((r) => r.name),
    columns: async (t) =>
      db
        .prepare<[], { name: string }>(`select name from pragma_table_info('${t}') order by cid`)
        .all()
        .map((r) => r.name),
    rows: async (t) => db.prepare<[], Record<string, unknown>>(`select * from "${t}"`).all(),
    close: async () => void db.close(),
  };
}

async function pgReader(url: string): Promise<Reader> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    tables: async () =>
      (
        await client.query<{ name: string }>(
          "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
        )
      ).rows.map((r) => r.name),
    columns: async (t) =>
      (
        await client.query<{ name: string }>(
          "select column_name as name from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position",
          [t],
        )
      ).rows.map((r) => r.name),
    rows: async (t) => (await client.query<Record<string, unknown>>(`select * from "${t}"`)).rows,
    close: () => client.end(),
  };
}

async function snapshot(reader: Reader): Promise<Snapshot> {
  const columns = new Map<string, string[]>();
  const rows = new Map<string, Row[]>();
  try {
    for (const t of await reader.tables()) {
      const cols = await reader.columns(t);
      columns.set(t, cols);
      rows.set(
        t,
        (await reader.rows(t)).map((r) => Object.fromEntries(cols.map((c) => [c, norm(r[c])]))),
      );
    }
  } finally {
    await reader.close();
  }
  return { columns, rows };
}

/** Rows as text on the given columns, sorted: two tables hold the same rows when these are equal. */
const lines = (rows: Row[], cols: string[]) => rows.map((r) => JSON.stringify(cols.map((c) => r[c]))).sort();

/** What one list has that the other has not, counting repeats. */
function minus(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(x) ?? 0;
    if (n) left.set(x, n - 1);
    return !n;
  });
}

/** A fresh database holding a fixture: the SQLite file copied in, or the dump loaded into a new PostgreSQL database. */
async function restore(dialect: Dialect) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-upgrade-'));
  if (dialect === 'sqlite') {
    const file = path.join(dataDir, 'portal.sqlite');
    fs.writeFileSync(file, zlib.gunzipSync(fs.readFileSync(path.join(FIXTURES, 'prev-release.sqlite.gz'))));
    return { dataDir, url: undefined, reader: () => sqliteReader(file), drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const { url, drop } = await pgDatabase('bdc_upgrade');
  // A plain pg_dump (INSERTs, no COPY): one multi-statement query, less psql's own meta-commands (\restrict).
  const dump = zlib
    .gunzipSync(fs.readFileSync(path.join(FIXTURES, 'prev-release.postgres.sql.gz')))
    .toString('utf8')
    .split('\n')
    .filter((l) => !l.startsWith('\\'))
    .join('\n');
  const loader = new pg.Client({ connectionString: url });
  await loader.connect();
  try {
    await loader.query(dump);
  } finally {
    await loader.end();
  }
  return {
    dataDir,
    url,
    reader: () => pgReader(url),
    drop: async () => {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const asNumber = (v: string | null) => (v === null ? null : Number(v));

for (const dialect of ['sqlite', 'postgres'] as const) {
  // harness.ts has said loudly, on import, when PostgreSQL does not answer.
  describe.skipIf(dialect === 'postgres' && !PG_AVAILABLE)(`upgrade to stores of a database the previous release filled (${dialect})`, () => {
    let fixture: Awaited<ReturnType<typeof restore>>;
    let before: Snapshot;
    let after: Snapshot;
    let dbh: DbHandle;
    const rowsOf = (s: Snapshot, t: string) => s.rows.get(t) ?? [];

    beforeAll(async () => {
      fixture = await restore(dialect);
      before = await snapshot(await fixture.reader());
      dbh = await openDb({ databaseUrl: fixture.url, dataDir: fixture.dataDir, firstStore: FIRST_STORE, onConnectionError: () => undefined });
      after = await snapshot(await fixture.reader());
    });
    afterAll(async () => {
      await dbh?.close();
      await fixture?.drop();
    });

    it('starts from a filled database of the previous release', () => {
      const count = (t: string) => rowsOf(before, t).length;
      // The demo's months of leads and sales, and what a day's work through the API left.
      expect(count('leads')).toBeGreaterThan(1000);
      expect(count('sales')).toBeGreaterThan(400);
      for (const t of [
        'rotation_log',
        'lead_events',
        'audit_log',
        'api_keys',
        'sessions',
        'rules_audit',
        'floor_days',
        'intake_documents',
        'idempotency_keys',
        'rotation_actions',
        'email_changes',
        'login_tokens',
        'outbox',
      ])
        expect(count(t), t).toBeGreaterThan(0);
      expect(before.columns.get('users')).toEqual(expect.arrayContaining(MOVED));
      expect(before.columns.has('stores')).toBe(false);
      expect(rowsOf(before, 'kysely_migration').map((r) => r.name)).not.toContain('023_stores');
      // Salesmen in every state the move must carry: snoozed, inactive, off duty, disabled, deleted.
      const staff = rowsOf(before, 'users').filter((u) => u.role !== 'manager');
      expect(staff.length).toBeGreaterThan(10);
      expect(staff.some((u) => u.snooze_until !== null)).toBe(true);
      expect(staff.some((u) => u.active === '0')).toBe(true);
      expect(staff.some((u) => u.on_duty === '0')).toBe(true);
      expect(staff.some((u) => u.on_duty === '1')).toBe(true);
      expect(staff.some((u) => u.disabled === '1' && u.deleted_at === null)).toBe(true);
      expect(staff.some((u) => u.deleted_at !== null)).toBe(true);
      expect(rowsOf(before, 'users').filter((u) => u.role === 'manager').length).toBeGreaterThan(1);
      // Rules set by a manager: a response window and business hours.
      const rules = rowsOf(before, 'settings').find((r) => r.key === 'rules');
      expect(JSON.parse(rules?.value ?? '{}')).toMatchObject({ responseWindowMinutes: 7, followUpHours: 36, businessHours: expect.any(Array) });
    });

    it('keeps every row of every table, every column but those moved onto memberships', () => {
      const tables = [...before.columns.keys()];
      expect(tables.length).toBeGreaterThan(15);
      for (const t of tables) {
        const cols = (before.columns.get(t) ?? []).filter((c) => !(t === 'users' && MOVED.includes(c)));
        expect(after.columns.get(t), `${t} is still there with its columns`).toEqual(expect.arrayContaining(cols));
        const was = lines(rowsOf(before, t), cols);
        const now = lines(rowsOf(after, t), cols);
        const lost = minus(was, now);
        const added = minus(now, was);
        // The only rows that go: the rules, now the store's. The only ones that come: the records of the migrations since (023 on), and SQLite's counter for stores.
        const expectedLost =
          t === 'settings'
            ? lines(
                rowsOf(before, t).filter((r) => r.key === 'rules'),
                cols,
              )
            : [];
        const expectedAdded =
          t === 'kysely_migration'
            ? added.filter((l) => (JSON.parse(l) as string[])[0] >= '023')
            : t === 'sqlite_sequence'
              ? [JSON.stringify(['stores', '1'])]
              : [];
        // The first few of each side say what went wrong; the counts below cover the rest.
        expect({ table: t, lost: lost.slice(0, 5), added: added.slice(0, 5) }).toEqual({
          table: t,
          lost: expectedLost.slice(0, 5),
          added: expectedAdded.slice(0, 5),
        });
        expect(now.length, t).toBe(was.length - expectedLost.length + expectedAdded.length);
      }
      expect(rowsOf(after, 'kysely_migration').map((r) => r.name)).toContain('023_stores');
    });

    it('makes the database a group of one store, named as openDb was told, holding the former rules', () => {
      const rules = rowsOf(before, 'settings').find((r) => r.key === 'rules')?.value;
      expect(rowsOf(after, 'stores').map(({ id, code, name, timezone, rules }) => ({ id, code, name, timezone, rules }))).toEqual([
        { id: '1', code: FIRST_STORE.code, name: FIRST_STORE.name, timezone: FIRST_STORE.timezone, rules },
      ]);
      expect(rowsOf(after, 'settings').filter((r) => r.key === 'rules')).toEqual([]);
    });

    it('gives every former salesman a membership in store 1 with his place, activity, duty and snooze; managers none', () => {
      const staff = rowsOf(before, 'users').filter((u) => u.role !== 'manager');
      const expected = staff.map((u) => ({
        user_id: u.id,
        store_id: 1,
        position: asNumber(u.position),
        active: asNumber(u.active),
        on_duty: asNumber(u.on_duty),
        snooze_until: asNumber(u.snooze_until),
        created_at: asNumber(u.created_at),
      }));
      const memberships = rowsOf(after, 'memberships').map((m) => ({
        user_id: m.user_id,
        store_id: asNumber(m.store_id),
        position: asNumber(m.position),
        active: asNumber(m.active),
        on_duty: asNumber(m.on_duty),
        snooze_until: asNumber(m.snooze_until),
        created_at: asNumber(m.created_at),
      }));
      const byUser = (a: { user_id: string | null }, b: { user_id: string | null }) => String(a.user_id).localeCompare(String(b.user_id));
      expect(memberships.sort(byUser)).toEqual(expected.sort(byUser));
      expect(after.columns.get('users')).not.toEqual(expect.arrayContaining(['position']));
    });

    it('makes managers group managers, and no one else', () => {
      const users = rowsOf(after, 'users');
      expect(users.length).toBe(rowsOf(before, 'users').length);
      for (const u of users)
        expect({ id: u.id, all_stores: u.all_stores, store_id: u.store_id }).toEqual({
          id: u.id,
          all_stores: u.role === 'manager' ? '1' : '0',
          store_id: null,
        });
    });

    it('gives each lead its stage: a closed one Closed (before stages), with no reason no one gave (no sale named a lead then), an open one with a contact Contacted', () => {
      const leads = rowsOf(after, 'leads');
      expect(leads.filter((l) => l.closed === '1').length).toBeGreaterThan(0);
      for (const l of leads) {
        const expected = l.closed === '1' ? ['closed', null] : l.first_contact_at !== null ? ['contacted', null] : [null, null];
        expect([l.stage, l.lost_reason], `lead ${l.id}`).toEqual(expected);
      }
      expect(rowsOf(after, 'sales').every((s) => s.lead_id === null)).toBe(true);
    });

    it('gives every lead, sale, log entry, API key, rules change and floor day store 1', () => {
      for (const t of PER_STORE) {
        const rows = rowsOf(after, t);
        expect(rows.length, t).toBe(rowsOf(before, t).length);
        expect(
          rows.filter((r) => r.store_id !== '1'),
          t,
        ).toEqual([]);
      }
    });

    it('leaves the rotation pointer where it was', () => {
      const state = (s: Snapshot) =>
        rowsOf(s, 'rotation_state').map(({ id, pointer_pos, last_assigned_to, last_assigned_at }) => ({ id, pointer_pos, last_assigned_to, last_assigned_at }));
      expect(state(before)).toHaveLength(1);
      expect(state(after)).toEqual(state(before));
    });

    it('lets the group grow after the upgrade: a second store, its own floor day and line', async () => {
      const { db } = dbh;
      const { id } = await db
        .insertInto('stores')
        .values({ code: 'NORTH', name: 'Lakeside North', timezone: 'America/Chicago', created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(Number(id)).toBe(2);
      const day = rowsOf(before, 'floor_days')[0].day ?? '';
      await db.insertInto('floor_days').values({ store_id: 2, day, closed_at: Date.now() }).execute();
      await expect(db.insertInto('floor_days').values({ store_id: 1, day, closed_at: Date.now() }).execute()).rejects.toThrow();
      // A salesman of store 1 joins store 2 at the place he has in store 1: places are unique per store.
      const someone = rowsOf(after, 'memberships')[0];
      await db
        .insertInto('memberships')
        .values({ user_id: someone.user_id ?? '', store_id: 2, position: Number(someone.position), created_at: Date.now() })
        .execute();
      expect(
        await db
          .selectFrom('memberships')
          .select('store_id')
          .where('user_id', '=', someone.user_id ?? '')
          .orderBy('store_id')
          .execute(),
      ).toEqual([{ store_id: 1 }, { store_id: 2 }]);
    });

    it('opens again without migrating twice', async () => {
      const again = await openDb({
        databaseUrl: fixture.url,
        dataDir: fixture.dataDir,
        firstStore: { name: 'Other', code: 'OTHER', timezone: 'UTC' },
        onConnectionError: () => undefined,
      });
      try {
        expect(await again.db.selectFrom('stores').select(['id', 'code']).orderBy('id').execute()).toEqual([
          { id: 1, code: FIRST_STORE.code },
          { id: 2, code: 'NORTH' },
        ]);
      } finally {
        await again.close();
      }
    });
  });
}
