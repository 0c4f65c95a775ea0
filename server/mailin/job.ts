import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Ctx } from '../context';
import { ApiError } from '../http/errors';
import { GROUP_ONLY } from '../events/bus';
import { claim, rounds } from '../db/rounds';
import { createIntakeParser } from '../intake/parser';
import { intake, prospectsToLeads, underIdempotencyKey, type ApiKey } from '../intake/service';
import type { ReadMail } from './read';
import { dropRaw, headerOf, mailSealer, readRaw, TEST_HEADER, testMark } from './service';
import { messageOf } from '../../domain/errors';
import { labelledFields, senderDomain, type Prefill } from '../../domain/mailin';

export interface MailTiming {
  pollMs: number;
  backoffMs: number;
  maxBackoffMs: number;
  leaseMs: number;
}
// A short lease: a server killed mid-mail holds it 20 s; one still reading past it is harmless, since a mail's leads are made once (under ids drawn from the mail).
export const MAIL_TIMING: MailTiming = { pollMs: 2000, backoffMs: 1000, maxBackoffMs: 5 * 60_000, leaseMs: 20_000 };
const BATCH = 16;
/** A message that cannot be handled after this many tries (the database kept failing) is marked failed for a manager to see. */
const MAX_ATTEMPTS = 10;
/** Tries the reader gets on one mail before it goes to review with the reader's reason. */
const READ_TRIES = 3;

/** One lead a message made, as listed with it. */
export interface MadeLead {
  id: number | null;
  customer: string;
  status: 'assigned' | 'unassigned' | 'duplicate' | 'refused';
  assignedTo: string | null;
  error?: string;
}

/** What a person reads of a message, sealed in its row. */
export interface MailDetail {
  from: string;
  fromName: string;
  text: string;
  problems: string[];
  prefill: Prefill;
}

/**
 * Reads each stored lead mail once across app servers (a lease, as the outbox sends), on the
 * intake's worker threads: every ADF document in it goes through the HTTP intake's path (the same
 * dedupe, repeat rule, hand-out and mail); a message that makes no lead waits in Mail to review.
 * Leads are made under an id drawn from the message, so a server that dies after making them and
 * before marking the message done makes none twice when another takes the message again.
 */
export function createMailJob(ctx: Ctx, timing: MailTiming = MAIL_TIMING) {
  const { db } = ctx.dbh;
  const box = mailSealer(ctx.secret);
  const parser = createIntakeParser({ threads: 1, log: ctx.log });

  async function handle(row: { id: number; address_id: number; store_id: number | null; attempts: number; raw_key: string }) {
    const raw = await readRaw(db, ctx.secret, row.raw_key);
    // Another server whose lease ran out finished it meanwhile.
    if (!raw) return;
    const test = headerOf(raw, TEST_HEADER) === testMark(ctx.secret);
    let mail: ReadMail;
    try {
      mail = await parser.readMail(raw);
    } catch (err) {
      // The reader gave up on this mail (it took too long, or it crashed the reader): tried again
      // (a reader starting up on a busy machine can be slow), then a person looks at it.
      if (!(err instanceof ApiError) || row.attempts < READ_TRIES) throw err;
      return finish(row, 'review', [], { from: '', fromName: '', text: '', problems: [err.message], prefill: labelledFields('') }, '', '');
    }
    if (test) {
      const names = mail.documents.flatMap((d) => d.prospects.map((p) => p.customer));
      const reason = `A test: ${names.length === 1 ? '1 prospect' : `${names.length} prospects`} read (${names.join(', ') || 'none'}); nothing handed out.`;
      await finish(row, 'test', { reason }, detailOf(mail, mail.problems), mail.from, mail.subject);
      return ctx.bus.publish({ topic: 'leads', storeId: row.store_id ?? GROUP_ONLY });
    }
    const domain = senderDomain(mail.from);
    const mailbox = await ctx.dbh.db.selectFrom('lead_addresses').select('address').where('id', '=', row.address_id).executeTakeFirst();
    const channel: ApiKey = { id: 0, scope: `mail-${row.address_id}`, name: domain || 'E-mail', storeId: row.store_id, mailbox: mailbox?.address ?? '' };
    const made: MadeLead[] = [];
    const problems = [...mail.problems];
    for (const [d, doc] of mail.documents.entries()) {
      const planned = underIdempotencyKey(prospectsToLeads(doc.prospects, channel), channel, `mail-${row.id}-${d}`, sha256(doc.xml));
      try {
        const { body } = await intake(ctx, planned, channel, doc.xml);
        made.push(...body.leads);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        problems.push(err.message);
      }
    }
    const taken = made.some((l) => l.status !== 'refused');
    await finish(row, taken ? 'taken' : 'review', made, detailOf(mail, problems), mail.from, mail.subject);
    if (!taken) ctx.bus.publish({ topic: 'leads', storeId: row.store_id ?? GROUP_ONLY });
  }

  async function finish(
    { id, raw_key: key }: { id: number; raw_key: string },
    state: 'taken' | 'review' | 'test',
    outcome: MadeLead[] | { reason: string },
    detail: MailDetail,
    sender: string,
    subject: string,
  ) {
    await db
      .updateTable('mail_messages')
      .set({
        state,
        outcome: JSON.stringify(outcome),
        detail: box.sealJson(detail),
        lease_until: null,
        done_at: Date.now(),
        ...(sender ? { sender: oneLine(sender).slice(0, 320) } : {}),
        subject: oneLine(subject).slice(0, 500),
      })
      .where('id', '=', id)
      .execute();
    // What a person may still act on keeps its message; the rest is read and done.
    if (state !== 'review') await dropRaw(db, key);
  }

  async function round(): Promise<number> {
    const now = Date.now();
    const rows = await claim(ctx.dbh, { table: 'mail_messages', now, batch: BATCH }, (db, due) =>
      db
        .updateTable('mail_messages')
        .set({ lease_until: now + timing.leaseMs, attempts: sql`attempts + 1` })
        .where('id', 'in', due)
        .where('state', '=', 'received')
        .returning(['id', 'address_id', 'store_id', 'attempts', 'raw_key'])
        .execute(),
    );
    await Promise.all(
      rows.map(async (r) => {
        const row = { ...r, id: Number(r.id), address_id: Number(r.address_id), store_id: r.store_id === null ? null : Number(r.store_id) };
        try {
          await handle(row);
        } catch (err) {
          const failed = row.attempts >= MAX_ATTEMPTS;
          const wait = Math.min(timing.backoffMs * 2 ** (row.attempts - 1), timing.maxBackoffMs);
          ctx.log.warn(
            { err, mail: row.id },
            failed ? `gave up on a lead mail after ${row.attempts} tries` : `could not handle a lead mail; trying again in ${wait} ms`,
          );
          await db
            .updateTable('mail_messages')
            .set(
              failed
                ? { state: 'failed', lease_until: null, done_at: Date.now(), outcome: JSON.stringify({ reason: `It could not be handled: ${messageOf(err)}` }) }
                : { next_at: Date.now() + wait, lease_until: null },
            )
            .where('id', '=', row.id)
            .execute()
            .catch((e: unknown) => ctx.log.warn({ err: e, mail: row.id }, 'could not record a lead mail failure; its lease ends and it is tried again'));
        }
      }),
    );
    return rows.length;
  }

  const loop = rounds(round, {
    batch: BATCH,
    pollMs: timing.pollMs,
    failed: (err) => ctx.log.error({ err }, 'the lead mail reader failed; it tries again shortly'),
  });

  return {
    /** A message was stored: read it now. */
    wake: loop.wake,
    start: loop.start,
    async stop() {
      await loop.stop();
      await parser.close();
    },
  };
}
export type MailJob = ReturnType<typeof createMailJob>;

const detailOf = (mail: ReadMail, problems: string[]): MailDetail => ({
  from: mail.from,
  fromName: mail.fromName,
  text: mail.text,
  problems,
  prefill: labelledFields(mail.text),
});

/** A header as one line: no control characters (the reader already took out NUL and lone surrogates). */
const oneLine = (s: string) => s.replace(/\p{Cc}+/gu, ' ').trim();

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
