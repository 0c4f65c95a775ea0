import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../index';
import { kit } from './kit';

interface Then {
  stores: { id: number; rules: string };
  teams: { id: number; store_id: number; name: string };
}

/** What no short text may hold since this release: control characters, bidi controls, line separators, a byte-order mark. */
const SPACE_LIKE = /[\p{Cc}\u2028\u2029]+/gu;
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\uFEFF]/gu;
const clean = (s: string, max: number) => s.replace(SPACE_LIKE, ' ').replace(HIDDEN, '').replace(/ {2,}/g, ' ').trim().slice(0, max).trim();
const MATCH_TEXTS = { source: 100, key: 100, mailbox: 254, make: 40, keyword: 60 } as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** A store's rules record with its lost reasons and routing texts cleaned; null when nothing changed. */
function cleanRules(text: string): string | null {
  let rules: unknown;
  try {
    rules = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(rules)) return null;
  const before = JSON.stringify(rules);
  if (Array.isArray(rules.lostReasons)) {
    const seen = new Set<string>();
    const reasons = (rules.lostReasons as unknown[])
      .map((r) => (typeof r === 'string' ? clean(r, 60) : r))
      .filter((r) => typeof r !== 'string' || (r && !seen.has(r.toLowerCase()) && seen.add(r.toLowerCase())));
    // None left: the record reads the default list.
    if (reasons.length) rules.lostReasons = reasons;
    else delete rules.lostReasons;
  }
  const routing = rules.routing;
  if (isObject(routing) && Array.isArray(routing.rules))
    routing.rules.forEach((rule: unknown, i) => {
      if (!isObject(rule)) return;
      if (typeof rule.name === 'string') rule.name = clean(rule.name, 60) || `Rule ${i + 1}`;
      const when = rule.when;
      if (!isObject(when)) return;
      for (const [k, max] of Object.entries(MATCH_TEXTS)) {
        const v = when[k];
        if (typeof v !== 'string') continue;
        const c = clean(v, max);
        if (c) when[k] = c;
        else delete when[k];
      }
    });
  const after = JSON.stringify(rules);
  return after === before ? null : after;
}

export default (dialect: Dialect): Migration => {
  const { big } = kit(dialect);
  return {
    async up(raw: Kysely<unknown>) {
      const db = raw as Kysely<Then>;
      // The SMS provider's inbound texts acted on, by its message id: a webhook sent again is
      // answered and ignored (the key refuses the second, whatever the timing).
      await db.schema
        .createTable('sms_inbound')
        .addColumn('message_sid', 'text', (c) => c.primaryKey())
        .addColumn('received_at', big, (c) => c.notNull())
        .execute();
      // A text's final status that came before its id was stored on the notice: applied when it is.
      await db.schema
        .createTable('sms_early_status')
        .addColumn('provider_id', 'text', (c) => c.primaryKey())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('received_at', big, (c) => c.notNull())
        .execute();
      // Time off a store's manager set holds in that store alone; null: everywhere (his own, a group manager's).
      await db.schema.alterTable('time_off').addColumn('store_id', big).execute();

      // One text rule for every short text: stored lost reasons, routing texts and team names are
      // cleaned to it, so reading them with today's rules keeps them instead of their defaults.
      for (const s of await db.selectFrom('stores').select(['id', 'rules']).execute()) {
        const rules = s.rules ? cleanRules(s.rules) : null;
        if (rules !== null) await db.updateTable('stores').set({ rules }).where('id', '=', s.id).execute();
      }
      const teams = await db.selectFrom('teams').select(['id', 'store_id', 'name']).orderBy('id').execute();
      const taken = new Set(teams.map((t) => `${t.store_id}:${t.name}`));
      for (const t of teams) {
        let name = clean(t.name, 40) || `Team ${t.id}`;
        if (name === t.name) continue;
        for (let n = 2; taken.has(`${t.store_id}:${name}`); n++) name = `${clean(t.name, 36) || 'Team'} ${n}`;
        taken.add(`${t.store_id}:${name}`);
        await db.updateTable('teams').set({ name }).where('id', '=', t.id).execute();
      }
    },
  };
};
