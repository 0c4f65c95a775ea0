import path from 'node:path';
import SQLite from 'better-sqlite3';

/** Time passes in the database: the lead's follow-up fell due an hour ago (no screen or API can do that). */
export function makePastDue(customer: string) {
  const db = new SQLite(path.join(process.env.E2E_DATA_DIR!, 'portal.sqlite'));
  try {
    db.prepare('update leads set follow_up_due = ? where customer = ?').run(Date.now() - 3_600_000, customer);
  } finally {
    db.close();
  }
}
