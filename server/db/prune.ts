import { optimize, type Db, type DbHandle } from './index';
import { pruneMail } from '../mailin/service';

const DAY_MS = 24 * 60 * 60 * 1000;
export const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * Deletes what can no longer be used: expired link tokens, e-mail confirmations, sessions and sign-in ceremonies, idempotency claims
 * and manager action ids older than a day, mail sent (or given up) more than a day ago, lead
 * mail past its 30 days, ended rate-limit windows, notices about no lead after 30 days and Accept
 * tokens a day past their expiry, a text's early status kept a day for an id never stored. Inbound texts' ids
 * (sms_inbound) are kept: a replay is refused however late.
 * Idempotent, so every app server may run it.
 */
async function prune(db: Db, now = Date.now()) {
  const counts = await Promise.all([
    db.deleteFrom('login_tokens').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('email_changes').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('auth_flows').where('expires_at', '<', now).executeTakeFirst(),
    // A device's notifications end with the session that turned them on (server/auth/sessions).
    db
      .deleteFrom('push_subscriptions')
      .where('session_sid', 'is not', null)
      .where('session_sid', 'not in', (eb) => eb.selectFrom('sessions').select('sid'))
      .executeTakeFirst(),
    db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', now - DAY_MS)
      .executeTakeFirst(),
    db
      .deleteFrom('outbox')
      .where('state', '!=', 'waiting')
      .where('done_at', '<', now - DAY_MS)
      .executeTakeFirst(),
    db.deleteFrom('rate_limits').where('reset_at', '<', now).executeTakeFirst(),
    db
      .deleteFrom('rotation_actions')
      .where('created_at', '<', now - DAY_MS)
      .executeTakeFirst(),
    pruneMail(db, now),
    // A lead's notices are its timeline's; the rest (You're up next) are done with after 30 days.
    db
      .deleteFrom('notices')
      .where('lead_id', 'is', null)
      .where('state', '!=', 'queued')
      .where('created_at', '<', now - 30 * DAY_MS)
      .executeTakeFirst(),
    db
      .deleteFrom('accept_tokens')
      .where('expires_at', '<', now - DAY_MS)
      .executeTakeFirst(),
    // A text's status kept for its id, which the sender stores within seconds or never.
    db
      .deleteFrom('sms_early_status')
      .where('received_at', '<', now - DAY_MS)
      .executeTakeFirst(),
  ]);
  const [tokens, emailChanges, sessions, flows, devices, idempotency, outbox, limits, actions, mail, notices, acceptTokens, smsStatuses] = counts.map((r) =>
    Number(r.numDeletedRows),
  );
  return { tokens, emailChanges, sessions, flows, devices, idempotency, outbox, limits, actions, mail, notices, acceptTokens, smsStatuses };
}

/** Prunes now and then every `everyMs`, and keeps SQLite's planner statistics fresh (optimize); returns the stop function. */
export function schedulePrune(dbh: Pick<DbHandle, 'db' | 'dialect'>, log: { error: (o: object, m: string) => void }, everyMs = PRUNE_EVERY_MS) {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = prune(dbh.db)
      .then(() => optimize(dbh))
      .catch((err: unknown) => log.error({ err }, 'pruning expired rows failed; trying again later'));
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
