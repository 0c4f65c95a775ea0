import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import type { Db } from './kit';
import { foldedSql } from '../fold';

export default (dialect: Dialect): Migration => ({
  // Search reads names without their accents ("maria" finds "María", domain/text.ts fold). On
  // SQLite the full-text table strips them itself; on PostgreSQL the trigram indexes are on the
  // folded names, the expression the search asks for (server/db/fold.ts).
  async up(db: Db) {
    if (dialect === 'postgres') {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
      if (!rows[0]?.n) return;
      await sql`drop index if exists leads_customer_trgm`.execute(db);
      await sql`drop index if exists leads_assignee_trgm`.execute(db);
      await sql`create index leads_customer_folded on leads using gin (${foldedSql('customer')} gin_trgm_ops)`.execute(db);
      await sql`create index leads_assignee_folded on leads using gin (${foldedSql('assigned_to_name')} gin_trgm_ops)`.execute(db);
      return;
    }
    await sql`drop table leads_fts`.execute(db);
    await sql`create virtual table leads_fts using fts5(customer, assigned_to_name, content='leads', content_rowid='id', tokenize='trigram remove_diacritics 2')`.execute(
      db,
    );
    await sql`insert into leads_fts(leads_fts) values ('rebuild')`.execute(db);
  },
});
