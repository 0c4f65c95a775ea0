import type { Db, DbHandle } from '../db';
import { withRotationLock } from '../db';
import type { Actor } from '../../domain/users';
import { readRules, ruleChanges, type Rules } from '../../domain/rules';

const KEY = 'rules';
const HISTORY = 10;

export async function loadRules(db: Db): Promise<Rules> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  if (!row) return readRules(null);
  try {
    return readRules(JSON.parse(row.value));
  } catch {
    return readRules(null);
  }
}

/**
 * Saves a change to the rules and what changed, in the rotation transaction: turning the response window
 * off lets every lead still waiting for an Accept stay where it is.
 */
export function saveRules(h: DbHandle, change: Partial<Rules>, by: Actor, now = Date.now()) {
  return withRotationLock(h, async (trx) => {
    const before = await loadRules(trx);
    const rules = { ...before, ...change };
    const changes = ruleChanges(before, rules);
    if (!Object.keys(changes).length) return { rules: before, changed: false };
    const value = JSON.stringify(rules);
    await trx
      .insertInto('settings')
      .values({ key: KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
    await trx
      .insertInto('rules_audit')
      .values({ actor_id: by.id, actor_name: by.name, changes: JSON.stringify(changes), at: now })
      .execute();
    if (rules.responseWindowMinutes === 0) await trx.updateTable('leads').set({ accept_due: null }).where('accept_due', 'is not', null).execute();
    return { rules, changed: true };
  });
}

export async function rulesHistory(db: Db) {
  const rows = await db.selectFrom('rules_audit').selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(HISTORY).execute();
  return rows.map((r) => ({
    actorName: r.actor_name,
    at: new Date(Number(r.at)).toISOString(),
    changes: JSON.parse(r.changes) as Record<string, { from: unknown; to: unknown }>,
  }));
}
