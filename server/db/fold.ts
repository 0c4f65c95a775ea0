import { sql } from 'kysely';
import { FOLD_FROM, FOLD_TO } from '../../domain/text';

/**
 * A column as a search reads it on PostgreSQL: lower case, accents off (domain/text.ts
 * fold), written out in full so the planner matches it to the trigram index made on the same
 * expression (migration 042; a change to the letters needs a new index).
 */
export const foldedSql = (column: string) => sql`translate(lower(${sql.ref(column)}), ${sql.lit(FOLD_FROM)}, ${sql.lit(FOLD_TO)})`;
