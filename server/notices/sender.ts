import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DbHandle } from '../db';
import type { Outbox } from '../mail/outbox';
import { claim, rounds } from '../db/rounds';
import { sealer } from '../mail/seal';
import { messageOf } from '../../domain/errors';
import { backoffMs } from '../../domain/notices';
import type { Route } from '../../domain/notice-kinds';
import type { Channel, NoticeBody, Sent } from './channels';
import { applyKeptStatus } from './sms-status';

export interface NoticeTiming {
  /** How often each server looks for due notices when nothing woke it. */
  pollMs: number;
  /** First retry delay; it doubles per failed attempt up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** How long a claimed row belongs to one sender before another may take it. */
  leaseMs: number;
}

export const NOTICE_TIMING: NoticeTiming = { pollMs: 1000, backoffMs: 1000, maxBackoffMs: 5 * 60_000, leaseMs: 60_000 };
const BATCH = 20;
/** Kinds that ask him to accept: pointless once he did, or once the lead is someone else's. */
const WAITING: ReadonlySet<string> = new Set(['time_left', 'escalation']);

export type Channels = Partial<Record<Route, Channel>>;

export interface Notices {
  wake(): void;
  start(): void;
  stop(): Promise<void>;
}

/** What a row's body holds, sealed: customers' names and an Accept token; emptied once done. */
export const noticeBox = (secret: string) => sealer(secret, 'notices');

/** Mail for a notice that has no mail of its own (up next, time running out): through the outbox. */
export const mailChannel = (outbox: Outbox): Channel => ({
  async send(n) {
    await outbox.queue([
      {
        kind: 'email',
        mail: { to: n.target, subject: n.body.title, text: [n.body.text, '', n.body.url].join('\n') },
        logLine: `${n.kind} notice to ${n.target}`,
        expiresAt: Date.now() + 60 * 60_000,
      },
    ]);
    return { ok: true };
  },
});

/**
 * Sends queued notices (server/notices/service.ts stores them): claims due rows with a lease so
 * each goes out once across app servers, hands each to its channel and records what became of it:
 * sent (with the provider's id), failed with the reason (a device that is gone loses its
 * subscription), or tried again with backoff until it expires.
 */
export function createNoticeSender(dbh: DbHandle, channels: Channels, secret: string, log: FastifyBaseLogger, timing: NoticeTiming = NOTICE_TIMING): Notices {
  const { db } = dbh;
  const box = noticeBox(secret);

  const finish = (id: number, set: { state: 'sent' | 'failed'; error?: string | null; provider_id?: string | null; sent_at?: number }) =>
    db
      .updateTable('notices')
      .set({ ...set, body: '', lease_until: null })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();

  async function one(
    r: {
      id: number;
      user_id: string;
      lead_id: number | null;
      kind: string;
      channel: Route;
      target: string;
      body: string;
      attempts: number;
      expires_at: number;
    },
    now: number,
  ) {
    const id = Number(r.id);
    if (Number(r.expires_at) <= now) return finish(id, { state: 'failed', error: 'Expired before it could be sent.' });
    if (r.lead_id !== null && WAITING.has(r.kind)) {
      const lead = await db.selectFrom('leads').select(['assigned_to', 'accepted_at']).where('id', '=', Number(r.lead_id)).executeTakeFirst();
      if (!lead || lead.accepted_at !== null || lead.assigned_to !== r.user_id)
        return finish(id, { state: 'failed', error: 'Not sent: the lead was accepted or handed on before it could go.' });
    }
    if (r.channel === 'sms') {
      // STOP from the phone, or a number removed or changed, since it was queued: no text goes.
      const u = await db.selectFrom('users').select(['mobile', 'mobile_confirmed_at', 'sms_stopped_at']).where('id', '=', r.user_id).executeTakeFirst();
      if (!u || u.mobile !== r.target || u.mobile_confirmed_at === null || u.sms_stopped_at !== null)
        return finish(id, { state: 'failed', error: 'Not sent: texts to this number were stopped or it was removed.' });
    }
    const channel = channels[r.channel];
    if (!channel) return finish(id, { state: 'failed', error: `${r.channel === 'sms' ? 'Texts are' : 'This channel is'} not set up on this portal.` });
    let sent: Sent;
    try {
      const body = box.openJson<NoticeBody>(r.body);
      sent = await channel.send({ id, userId: r.user_id, leadId: r.lead_id === null ? null : Number(r.lead_id), kind: r.kind, target: r.target, body });
    } catch (err) {
      sent = { ok: false, error: messageOf(err) };
    }
    if (sent.ok) {
      await finish(id, { state: 'sent', provider_id: sent.providerId ?? null, sent_at: Date.now(), error: null });
      // The provider may have reported on it before its id was stored here.
      if (r.channel === 'sms' && sent.providerId) await applyKeptStatus(db, sent.providerId);
      return;
    }
    if (sent.gone) {
      if (r.channel === 'push' && /^\d+$/.test(r.target)) await db.deleteFrom('push_subscriptions').where('id', '=', Number(r.target)).execute();
      log.info({ notice: id, user: r.user_id }, `${r.channel} target gone: ${sent.error}`);
      return finish(id, { state: 'failed', error: sent.error });
    }
    if (sent.permanent) {
      log.warn({ notice: id, user: r.user_id }, `gave up on a ${r.kind} ${r.channel} notice: ${sent.error}`);
      return finish(id, { state: 'failed', error: sent.error });
    }
    const wait = backoffMs(r.attempts, timing.backoffMs, timing.maxBackoffMs);
    log.warn(
      { notice: id, user: r.user_id, attempt: r.attempts },
      `could not send a ${r.kind} ${r.channel} notice (${sent.error}); trying again in ${wait} ms`,
    );
    await db
      .updateTable('notices')
      .set({ next_at: Math.min(Date.now() + wait, Number(r.expires_at)), lease_until: null, error: sent.error })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();
  }

  async function round(): Promise<number> {
    const now = Date.now();
    const rows = await claim(dbh, { table: 'notices', now, batch: BATCH }, (db, due) =>
      db
        .updateTable('notices')
        .set({ lease_until: now + timing.leaseMs, attempts: sql`attempts + 1` })
        .where('id', 'in', due)
        .where('state', '=', 'queued')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .returning(['id', 'user_id', 'lead_id', 'kind', 'channel', 'target', 'body', 'attempts', 'expires_at'])
        .execute(),
    );
    await Promise.all(rows.map((r) => one(r, now)));
    return rows.length;
  }

  const loop = rounds(round, { batch: BATCH, pollMs: timing.pollMs, failed: (err) => log.error({ err }, 'notice sender failed; it tries again shortly') });
  return { wake: loop.wake, start: loop.start, stop: loop.stop };
}
