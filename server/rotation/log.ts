import type { Db } from '../db';
import type { Database } from '../db/schema';
import type { Actor } from '../../domain/users';

/** One line of the rotation's log: what happened, to whom, by whom, and where the pointer stands after it. */
export interface LogEntry {
  store: number;
  type: Database['rotation_log']['type'];
  target: { id: string; name: string };
  by: Actor;
  pointer: number;
  at: number;
  customer?: string | null;
  reason?: string | null;
  leadId?: number | null;
}

/** Writes one line of the rotation's log (the overview's Recent actions, the skip reasons of the KPIs). */
export const logRotation = (db: Db, e: LogEntry) =>
  db
    .insertInto('rotation_log')
    .values({
      store_id: e.store,
      type: e.type,
      customer: e.customer ?? null,
      target_id: e.target.id,
      target_name: e.target.name,
      reason: e.reason ?? null,
      manager_id: e.by.id,
      manager_name: e.by.name,
      pointer_pos_after: e.pointer,
      lead_id: e.leadId ?? null,
      created_at: e.at,
    })
    .execute();
