import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../index';

// Frozen with the migrations that use it: change nothing here; a new migration that needs
// something else brings it along.

/**
 * What a migration may rely on: only the columns its own statements read or write, never the
 * app's current schema (which later migrations change). Table DDL goes through db.schema.
 */
interface Then {
  users: { id: string; position: number };
  rotation_state: { id: number; pointer_pos: number };
}
export type Db = Kysely<Then>;

/** Column types and the id column on each dialect. */
export function kit(dialect: Dialect) {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const idCol = (t: CreateTableBuilder<string, never>) =>
    dialect === 'postgres' ? t.addColumn('id', serial, (c) => c.primaryKey()) : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return { big, idCol } as const;
}
