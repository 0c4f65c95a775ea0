import { CompiledQuery, type Compilable } from 'kysely';
import type { Db, Dialect } from '../db';

/** The plan the database makes for a query, as one text (PostgreSQL's EXPLAIN, SQLite's EXPLAIN QUERY PLAN). */
export async function planOf(db: Db, dialect: Dialect, q: Compilable<unknown>) {
  const c = q.compile();
  const explain = dialect === 'postgres' ? 'explain (costs off) ' : 'explain query plan ';
  const { rows } = await db.executeQuery(CompiledQuery.raw(explain + c.sql, [...c.parameters]));
  return rows.map((r) => Object.values(r as object).join(' ')).join('\n');
}
