import type { Actor } from '../../domain/users';
import type { Db } from '../db';

export interface AuditEntry {
  action: string;
  /** Field name → { from, to }. */
  changes: Record<string, { from: unknown; to: unknown }>;
}

/** The one writer of the audit log: who changed which person's record, when, from what to what. */
export async function writeAudit(db: Db, userId: string, by: Actor, entries: AuditEntry[]) {
  if (!entries.length) return;
  const at = Date.now();
  await db
    .insertInto('audit_log')
    .values(entries.map((e) => ({ user_id: userId, actor_id: by.id, actor_name: by.name, action: e.action, changes: JSON.stringify(e.changes), at })))
    .execute();
}
