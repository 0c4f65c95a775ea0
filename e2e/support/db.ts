import crypto from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { slotEnv } from './slot';

const open = () => new SQLite(path.join(slotEnv('DATA_DIR'), 'portal.sqlite'));

/** Time passes in the database: the lead's follow-up fell due an hour ago (no screen or API can do that). */
export function makePastDue(customer: string) {
  const db = open();
  try {
    db.prepare('update leads set follow_up_due = ? where customer = ?').run(Date.now() - 3_600_000, customer);
  } finally {
    db.close();
  }
}

/**
 * Sign-ins made earlier on other devices (each through a link, in the days before): their sessions,
 * the latest used first, `hoursApart` between each one's last use.
 */
export function earlierDevices(email: string, agents: string[], hoursApart = 5) {
  const db = open();
  try {
    const { id } = db.prepare('select id from users where email = ?').get(email) as { id: string };
    const insert = db.prepare(
      `insert into sessions (id_hash, sid, user_id, via, user_agent, ip, last_seen_at, created_at, expires_at) values (?, ?, ?, 'link', ?, '127.0.0.1', ?, ?, ?)`,
    );
    const now = Date.now();
    agents.forEach((agent, i) => {
      const seen = now - (i + 1) * hoursApart * 3_600_000;
      insert.run(crypto.randomBytes(32).toString('hex'), crypto.randomBytes(16).toString('hex'), id, agent, seen, seen - 60_000, now + 30 * 86_400_000);
    });
  } finally {
    db.close();
  }
}

/** What the portal holds of the notices to `email` (kind, channel, state, error): said when a push never came. */
export function noticesTo(email: string) {
  const db = open();
  try {
    return db
      .prepare('select n.kind, n.channel, n.state, n.attempts, n.error from notices n join users u on u.id = n.user_id where u.email = ? order by n.id')
      .all(email);
  } finally {
    db.close();
  }
}
