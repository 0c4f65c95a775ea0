import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import type { Db } from './kit';

export default (dialect: Dialect): Migration => {
  return {
    // Search matches inside the customer or inside the assignee, as SQLite's full-text table
    // does; the index on both joined together also matched across the two.
    async up(db: Db) {
      if (dialect !== 'postgres') return;
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
      if (!rows[0]?.n) return;
      await sql`drop index if exists leads_search_trgm`.execute(db);
      await sql`create index leads_customer_trgm on leads using gin (lower(customer) gin_trgm_ops)`.execute(db);
      await sql`create index leads_assignee_trgm on leads using gin (lower(assigned_to_name) gin_trgm_ops)`.execute(db);
    },
  };
};
