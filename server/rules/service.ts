import type { Db, StoreDb } from '../db';
import { withRotationLock } from '../db';
import { passClosingDue } from '../floor/service';
import type { Actor } from '../../domain/users';
import { readRules, ruleChanges, type Rules } from '../../domain/rules';
import { teamsNamed } from '../../domain/teams';
import { badRequest } from '../http/errors';
import { fieldChanges } from '../../domain/contract/answers';

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

async function storedRules(db: Db, store: number): Promise<Required<KnownRules>> {
  const row = await db.selectFrom('stores').select('rules').where('id', '=', store).executeTakeFirst();
  const text = row?.rules ?? '';
  return { rules: parseRules(text), text };
}

/** A store's rules. */
export const loadRules = async (db: Db, store: number): Promise<Rules> => (await storedRules(db, store)).rules;

const remembered = new WeakMap<Db, Map<number, Promise<Required<KnownRules>>>>();

/** The store's rules this app server read last (`reread`: read them again), for the assign, which checks them. */
export function rememberedRules(h: StoreDb, reread = false): Promise<Required<KnownRules>> {
  let byStore = remembered.get(h.db);
  if (!byStore) remembered.set(h.db, (byStore = new Map<number, Promise<Required<KnownRules>>>()));
  const mine = byStore;
  let known = mine.get(h.store);
  if (!known || reread) {
    const read = storedRules(h.db, h.store);
    mine.set(h.store, read);
    // A failed read is not remembered.
    read.catch(() => mine.get(h.store) === read && mine.delete(h.store));
    known = read;
  }
  return known;
}

/**
 * Saves a change to the rules and what changed, in the rotation transaction: turning the response window
 * off lets every lead still waiting for an Accept stay where it is; new hours pass over a closing
 * that fell before them.
 */
export function saveRules(h: StoreDb, change: Partial<Rules>, by: Actor, at: { tz: string; now?: number }) {
  const now = at.now ?? Date.now();
  return withRotationLock(h, async (trx) => {
    const before = await loadRules(trx, h.store);
    const rules = { ...before, ...change };
    const changes = ruleChanges(before, rules);
    if (!Object.keys(changes).length) return { rules: before, changed: false };
    // Routing names teams of this store only, checked under the same lock a team's deletion takes.
    if ('routing' in changes) {
      const teams = new Set((await trx.selectFrom('teams').select('id').where('store_id', '=', h.store).execute()).map((t) => Number(t.id)));
      const missing = teamsNamed(rules.routing).find((id) => !teams.has(id));
      if (missing !== undefined) throw badRequest(`No such team: ${missing}`);
    }
    const value = JSON.stringify(rules);
    await trx.updateTable('stores').set({ rules: value }).where('id', '=', h.store).execute();
    await trx
      .insertInto('rules_audit')
      .values({ store_id: h.store, actor_id: by.id, actor_name: by.name, changes: JSON.stringify(changes), at: now })
      .execute();
    if (rules.responseWindowMinutes === 0)
      await trx.updateTable('leads').set({ accept_due: null }).where('store_id', '=', h.store).where('accept_due', 'is not', null).execute();
    if ('businessHours' in changes) await passClosingDue(trx, h.store, rules.businessHours, new Date(now), at.tz);
    return { rules, changed: true };
  });
}

export async function rulesHistory(db: Db, store: number) {
  const rows = await db
    .selectFrom('rules_audit')
    .selectAll()
    .where('store_id', '=', store)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(HISTORY)
    .execute();
  return rows.map((r) => ({
    actorName: r.actor_name,
    at: new Date(Number(r.at)).toISOString(),
    changes: fieldChanges.parse(JSON.parse(r.changes)),
  }));
}
