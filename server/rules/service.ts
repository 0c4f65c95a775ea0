import type { Db, DbHandle } from '../db';
import { withRotationLock } from '../db';
import { passClosingDue } from '../floor/service';
import type { Actor } from '../../domain/users';
import { readRules, ruleChanges, type Rules } from '../../domain/rules';
import { fieldChanges } from '../../domain/contract/answers';

const KEY = 'rules';
const HISTORY = 10;

/**
 * The rules and their stored text ('' when none are stored: the defaults). A rotation transaction
 * given the text checks it under the lock, so rules kept in memory are never acted on once changed.
 */
export interface KnownRules {
  rules: Rules;
  /** Absent: read just now by the caller, not checked. */
  text?: string;
}

let lastRead: Required<KnownRules> | null = null;

function parseRules(text: string): Rules {
  if (lastRead?.text === text) return lastRead.rules;
  let rules: Rules;
  try {
    rules = readRules(text ? JSON.parse(text) : null);
  } catch {
    rules = readRules(null);
  }
  lastRead = { rules, text };
  return rules;
}

async function storedRules(db: Db): Promise<Required<KnownRules>> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  const text = row?.value ?? '';
  return { rules: parseRules(text), text };
}

export const loadRules = async (db: Db): Promise<Rules> => (await storedRules(db)).rules;

const remembered = new WeakMap<DbHandle, Promise<Required<KnownRules>>>();

/** The rules this app server read last (`reread`: read them again), for the assign, which checks them. */
export function rememberedRules(h: DbHandle, reread = false): Promise<Required<KnownRules>> {
  let known = remembered.get(h);
  if (!known || reread) {
    known = storedRules(h.db);
    remembered.set(h, known);
    // A failed read is not remembered.
    known.catch(() => remembered.get(h) === known && remembered.delete(h));
  }
  return known;
}

/**
 * Saves a change to the rules and what changed, in the rotation transaction: turning the response window
 * off lets every lead still waiting for an Accept stay where it is; new hours pass over a closing
 * that fell before them.
 */
export function saveRules(h: DbHandle, change: Partial<Rules>, by: Actor, at: { tz: string; now?: number }) {
  const now = at.now ?? Date.now();
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
    if ('businessHours' in changes) await passClosingDue(trx, rules.businessHours, new Date(now), at.tz);
    return { rules, changed: true };
  });
}

export async function rulesHistory(db: Db) {
  const rows = await db.selectFrom('rules_audit').selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(HISTORY).execute();
  return rows.map((r) => ({
    actorName: r.actor_name,
    at: new Date(Number(r.at)).toISOString(),
    changes: fieldChanges.parse(JSON.parse(r.changes)),
  }));
}
