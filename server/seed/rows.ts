import { sql, type Insertable } from 'kysely';
import type { Db, Dialect } from '../db';
import type { Database } from '../db/schema';

/** Rows a statement inserts. */
const BATCH = 1000;

/**
 * Rows into a table, a batch a statement, each batch one JSON parameter the database unpacks
 * (PostgreSQL by the table's own row type, SQLite by position): a statement of a thousand rows
 * costs no more to build than one of a row. Every row has the first one's columns. Answers the
 * ids made, in the rows' order (each database numbers a statement's rows in the order it takes them).
 */
export async function insertRows<T extends keyof Database>(db: Db, dialect: Dialect, table: T, rows: Insertable<Database[T]>[], returning = false) {
  const ids: number[] = [];
  if (!rows.length) return ids;
  const columns = Object.keys(rows[0]);
  const names = sql.join(columns.map((c) => sql.ref(c)));
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH) as Record<string, unknown>[];
    const from =
      dialect === 'postgres'
        ? sql`select ${names} from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(batch)}::json)`
        : sql`select ${sql.join(columns.map((_, k) => sql`value ->> ${sql.lit(k)}`))} from json_each(${JSON.stringify(batch.map((r) => columns.map((c) => r[c])))})`;
    const made = await sql<{ id: number | string }>`insert into ${sql.table(table)} (${names}) ${from}${returning ? sql` returning id` : sql``}`.execute(db);
    if (returning) ids.push(...made.rows.map((r) => Number(r.id)).sort((a, b) => a - b));
  }
  return ids;
}
