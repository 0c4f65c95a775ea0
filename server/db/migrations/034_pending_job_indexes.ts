import { sql, type Migration } from 'kysely';
import type { Db } from './kit';

/** Each job table, the state its rows wait in, and the index this replaces. */
const JOBS = [
  { table: 'outbox', pending: 'waiting', index: 'outbox_waiting', was: 'outbox_due' },
  { table: 'notices', pending: 'queued', index: 'notices_queued', was: 'notices_due' },
  { table: 'mail_messages', pending: 'received', index: 'mail_messages_received', was: 'mail_messages_due' },
] as const;

export default (): Migration => {
  return {
    // Each round of a job (the mail sender, the notice sender, mail intake) asks for the rows
    // still waiting. By (state, next_at), PostgreSQL read the index entries of every row that
    // had stopped waiting and not yet been vacuumed away: a row's state changes with each send,
    // so each send left one behind. With 10,000 mails sent, one round read 10,000 entries and
    // visited 900 pages to find none due (1.8 ms, growing with each mail). An index of the
    // waiting rows alone, in the order a round takes them, is walked in order; PostgreSQL marks
    // the entries of rows gone as it passes, so the next round skips them. Rounds name the state
    // as a literal (server/db/rounds.ts), so SQLite sees that the index covers them too.
    async up(db: Db) {
      for (const j of JOBS) {
        await db.schema.dropIndex(j.was).execute();
        await db.schema.createIndex(j.index).on(j.table).column('id').where(sql.ref('state'), '=', sql.lit(j.pending)).execute();
      }
    },
  };
};
