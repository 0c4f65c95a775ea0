import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import type { Db } from './kit';

export default (dialect: Dialect): Migration => {
  return {
    // Search "customers or assignee" by any part of a name, fast over hundreds of thousands
    // of leads: a trigram index on PostgreSQL, an FTS5 trigram table on SQLite.
    async up(db: Db) {
      if (dialect === 'postgres') {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
        if (!rows[0]?.n) return;
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index leads_search_trgm on leads using gin ((lower(customer) || ' ' || lower(assigned_to_name)) gin_trgm_ops)`.execute(db);
        return;
      }
      await sql`create virtual table leads_fts using fts5(customer, assigned_to_name, content='leads', content_rowid='id', tokenize='trigram')`.execute(db);
      await sql`insert into leads_fts(rowid, customer, assigned_to_name) select id, customer, assigned_to_name from leads`.execute(db);
      await sql`create trigger leads_fts_ai after insert on leads begin
        insert into leads_fts(rowid, customer, assigned_to_name) values (new.id, new.customer, new.assigned_to_name); end`.execute(db);
      await sql`create trigger leads_fts_ad after delete on leads begin
        insert into leads_fts(leads_fts, rowid, customer, assigned_to_name) values ('delete', old.id, old.customer, old.assigned_to_name); end`.execute(db);
      await sql`create trigger leads_fts_au after update of customer, assigned_to_name on leads begin
        insert into leads_fts(leads_fts, rowid, customer, assigned_to_name) values ('delete', old.id, old.customer, old.assigned_to_name);
        insert into leads_fts(rowid, customer, assigned_to_name) values (new.id, new.customer, new.assigned_to_name); end`.execute(db);
    },
  };
};
