import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbHandle } from '../db';
import type { Mail, Mailer } from './mailer';
import { batched } from '../db/batch';
import { claim, PENDING, rounds } from '../db/rounds';
import { messageOf } from '../../domain/errors';
import { isRecord } from '../../domain/guards';
import { sealer } from './seal';

interface QueuedMail {
  kind: 'signin' | 'lead' | 'report' | 'email';
  mail: Mail;
  /** What the log shows instead when no SMTP server is set. */
  logLine?: string;
  /** The sender gives up after this time (a sign-in link: when the link expires). */
  expiresAt: number;
  /** Set when nothing is to be sent: the row records why and is done at once. */
  dropped?: string;
}

export interface OutboxTiming {
  /** How often each server looks for due mail when nothing woke it. */
  pollMs: number;
  /** First retry delay; it doubles per failed attempt up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** How long a claimed row belongs to one sender before another may take it. */
  leaseMs: number;
}

export const OUTBOX_TIMING: OutboxTiming = { pollMs: 1000, backoffMs: 1000, maxBackoffMs: 5 * 60_000, leaseMs: 5 * 60_000 };
/**
 * A round claims up to BATCH mails and sends SENDS_AT_ONCE at a time, each send over in 50 s at
 * most (the mailer's timeouts): five waves fit the lease. Claiming ten a round, a busy floor's
 * lead mails took four rounds of five statements per 40 mails, most of the portal's statements.
 */
const BATCH = 50;
const SENDS_AT_ONCE = 10;
/**
 * Mail queued after a commit (a salesman's new lead) waits this long for others: under load the
 * outbox then stores, claims and marks many mails per statement instead of one each.
 */
const QUEUE_GATHER_MS = 20;

export interface Outbox {
  /** Stores mail in db (a transaction or the database); call wake() after it commits. */
  enqueue(db: Db, mails: QueuedMail[]): Promise<void>;
  /**
   * Stores mail outside any transaction, gathered with the mail queued within QUEUE_GATHER_MS
   * (db/batch.ts), and wakes the sender.
   */
  queue(mails: QueuedMail[]): Promise<void>;
  wake(): void;
  /** Mail waiting to go, and how long the oldest has waited. */
  backlog(): Promise<{ waiting: number; oldestWaitingMs: number }>;
  start(): void;
  stop(): Promise<void>;
}

/** What a row holds, sealed (./seal.ts): the body holds sign-in links; it is emptied once sent. */
interface Sealed {
  mail: Mail;
  logLine?: string;
}

/** SMTP refused the message itself (5xx): trying again would not help. */
const permanent = (err: unknown) => {
  const code = isRecord(err) ? err.responseCode : undefined;
  return typeof code === 'number' && code >= 500 && code < 600;
};

export function createOutbox(dbh: DbHandle, mailer: Mailer, secret: string, log: FastifyBaseLogger, timing: OutboxTiming = OUTBOX_TIMING): Outbox {
  const { db } = dbh;
  const box = sealer(secret, 'outbox');

  /**
   * Claims due rows with a lease (other servers skip them), sends them, and records the outcome:
   * what was sent in one statement once the round's sends are over (a crash before it sends those
   * again when their lease ends, as a crash during a send always could).
   */
  async function round(): Promise<number> {
    const now = Date.now();
    const rows = await claim(dbh, { table: 'outbox', now, batch: BATCH }, (db, due) =>
      db
        .updateTable('outbox')
        .set({ lease_until: now + timing.leaseMs, attempts: sql`attempts + 1` })
        .where('id', 'in', due)
        .where('state', '=', 'waiting')
        .returning(['id', 'kind', 'recipient', 'body', 'attempts', 'expires_at'])
        .execute(),
    );
    const sent: number[] = [];
    const done = (ids: number[], state: 'sent' | 'failed', error: string | null) =>
      db.updateTable('outbox').set({ state, done_at: Date.now(), body: '', lease_until: null, last_error: error }).where('id', 'in', ids).execute();
    const sendOne = async (r: (typeof rows)[number]) => {
      if (Number(r.expires_at) <= now) {
        log.warn({ outbox: Number(r.id), to: r.recipient }, `gave up on ${r.kind} mail: it expired before it could be sent`);
        return done([r.id], 'failed', 'expired before it could be sent');
      }
      try {
        const { mail, logLine } = box.openJson<Sealed>(r.body);
        await mailer.send(mail, logLine);
        sent.push(r.id);
      } catch (err) {
        const msg = messageOf(err);
        if (permanent(err)) {
          log.error({ err, outbox: Number(r.id), to: r.recipient }, `gave up on ${r.kind} mail: the mail server refused it`);
          return done([r.id], 'failed', msg);
        }
        const wait = Math.min(timing.backoffMs * 2 ** (r.attempts - 1), timing.maxBackoffMs);
        log.warn({ err, outbox: Number(r.id), to: r.recipient, attempt: r.attempts }, `could not send ${r.kind} mail; trying again in ${wait} ms`);
        await db
          .updateTable('outbox')
          .set({ next_at: Math.min(Date.now() + wait, Number(r.expires_at)), lease_until: null, last_error: msg })
          .where('id', '=', r.id)
          .execute();
      }
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(SENDS_AT_ONCE, rows.length) }, async () => {
        while (next < rows.length) await sendOne(rows[next++]);
      }),
    );
    if (sent.length) await done(sent, 'sent', null);
    return rows.length;
  }

  const loop = rounds(round, { batch: BATCH, pollMs: timing.pollMs, failed: (err) => log.error({ err }, 'mail sender failed; it tries again shortly') });

  async function enqueue(tx: Db, mails: QueuedMail[]) {
    if (!mails.length) return;
    const now = Date.now();
    await tx
      .insertInto('outbox')
      .values(
        mails.map((m) => ({
          kind: m.kind,
          recipient: m.mail.to,
          body: m.dropped ? '' : box.sealJson({ mail: m.mail, logLine: m.logLine } satisfies Sealed),
          state: m.dropped ? ('dropped' as const) : ('waiting' as const),
          attempts: 0,
          next_at: now,
          lease_until: null,
          expires_at: m.expiresAt,
          last_error: m.dropped ?? null,
          created_at: now,
          done_at: m.dropped ? now : null,
        })),
      )
      .execute();
  }
  const { wake } = loop;
  const queue = batched<QueuedMail>(async (mails) => {
    await enqueue(db, mails);
    wake();
  }, QUEUE_GATHER_MS);

  return {
    enqueue,
    queue,
    wake,
    async backlog() {
      const row = await db
        .selectFrom('outbox')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('state', '=', sql.lit(PENDING.outbox))
        .executeTakeFirst();
      const oldest = row?.oldest == null ? null : Number(row.oldest);
      return { waiting: Number(row?.n ?? 0), oldestWaitingMs: oldest === null ? 0 : Math.max(0, Date.now() - oldest) };
    },
    start: loop.start,
    async stop() {
      await loop.stop();
      // Mail still gathering is stored; a later start (or another server) sends it.
      await queue.settled();
    },
  };
}
