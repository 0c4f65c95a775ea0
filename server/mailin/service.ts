import crypto from 'node:crypto';
import type { Ctx } from '../context';
import { isUniqueViolation, type Db } from '../db';
import { ApiError, notFound } from '../http/errors';
import { sealer } from '../mail/seal';
import { FIRST_STORE_ID } from '../users/repo';
import { allStores } from '../stores/service';
import { MAIL_KEPT_DAYS } from '../../domain/mailin';

/** An address the portal takes lead mail for: a store's, or (storeId null) the group's, whose leads go by their dealer. */
export interface LeadAddress {
  id: number;
  address: string;
  storeId: number | null;
}

const DAY_MS = 86_400_000;
export const KEPT_MS = MAIL_KEPT_DAYS * DAY_MS;

/** The mail a lead address took in: sealed with its own purpose (customers' details, not sign-in links). */
export const mailSealer = (secret: string) => sealer(secret, 'lead-mail');

const toAddress = (r: { id: number | string; address: string; store_id: number | string | null }): LeadAddress => ({
  id: Number(r.id),
  address: r.address,
  storeId: r.store_id === null ? null : Number(r.store_id),
});

/**
 * Every lead address, kept a few seconds per app server (the receiver asks at every RCPT TO): one
 * added or removed on this server counts at once, on another within those seconds.
 */
const KEEP_MS = 5000;
const kept = new WeakMap<Db, { until: number; book: Promise<Map<string, LeadAddress>> }>();
const forget = (db: Db) => kept.delete(db);

/** The lead address a recipient names, if the portal takes mail for it. */
export async function leadAddress(db: Db, address: string): Promise<LeadAddress | null> {
  let k = kept.get(db);
  if (!k || k.until <= Date.now()) {
    const book = db
      .selectFrom('lead_addresses')
      .select(['id', 'address', 'store_id'])
      .execute()
      .then((rows) => new Map(rows.map((r) => [r.address, toAddress(r)])));
    kept.set(db, (k = { until: Date.now() + KEEP_MS, book }));
    // A failed read is not kept.
    book.catch(() => kept.get(db)?.book === book && forget(db));
  }
  return (await k.book).get(address.trim().toLowerCase()) ?? null;
}

/**
 * The addresses set in INBOUND_ADDRESSES (and the IMAP mailbox's) exist, each in its store: a bare
 * address is the first store's, `=CODE` a store's, `=GROUP` the group's. An address already
 * there keeps its store. An unknown store code is logged and passed over.
 */
export async function ensureAddresses(ctx: Ctx, wanted: { address: string; store: string }[]) {
  const stores = await allStores(ctx.dbh.db, true);
  for (const w of wanted) {
    const store = w.store === '' ? FIRST_STORE_ID : w.store === 'GROUP' ? null : (stores.find((s) => s.code === w.store)?.id ?? undefined);
    // A store an older release let take the code GROUP keeps it; =GROUP is still the group's.
    if (store === null && stores.some((s) => s.code === 'GROUP'))
      ctx.log.warn(`INBOUND_ADDRESSES names ${w.address}=GROUP, the group's own marker: its mail waits for a store by dealer, not for the store coded GROUP.`);
    if (store === undefined) {
      ctx.log.error(`INBOUND_ADDRESSES names ${w.address}=${w.store}, but no store has the code ${w.store}: mail to ${w.address} is refused until it does.`);
      continue;
    }
    await ctx.dbh.db
      .insertInto('lead_addresses')
      .values({ address: w.address, store_id: store, created_by: null, created_at: Date.now() })
      .onConflict((oc) => oc.column('address').doNothing())
      .execute();
  }
  forget(ctx.dbh.db);
}

export async function addAddress(db: Db, store: number, address: string, by: string): Promise<LeadAddress> {
  try {
    const row = await db
      .insertInto('lead_addresses')
      .values({ address: address.toLowerCase(), store_id: store, created_by: by, created_at: Date.now() })
      .returning(['id', 'address', 'store_id'])
      .executeTakeFirstOrThrow();
    forget(db);
    return toAddress(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, `${address} is already a lead address.`, undefined, 'address');
    throw err;
  }
}

/** Removes a store's address; its messages stay listed (30 days). One set in the configuration comes back at the next start, so it cannot be removed here. */
export async function removeAddress(db: Db, store: number, id: number, configured: string[]) {
  const row = await db.selectFrom('lead_addresses').select('address').where('id', '=', id).where('store_id', '=', store).executeTakeFirst();
  if (!row) throw notFound('Lead address not found');
  if (configured.includes(row.address))
    throw new ApiError(409, `${row.address} is set in INBOUND_ADDRESSES: take it out there, then restart the portal.`, 'configured');
  await db.deleteFrom('lead_addresses').where('id', '=', id).execute();
  forget(db);
}

/** A store's addresses (and the group's, for a group manager) with what came in: the last message, today's count, today's errors. */
export async function listAddresses(db: Db, store: number, withGroup: boolean, dayStart: number) {
  let q = db
    .selectFrom('lead_addresses as a')
    .select((eb) => [
      'a.id',
      'a.address',
      'a.store_id',
      eb
        .selectFrom('mail_messages as m')
        .select((e) => e.fn.max('m.received_at').as('x'))
        .whereRef('m.address_id', '=', 'a.id')
        .as('last_at'),
      eb
        .selectFrom('mail_messages as m')
        .select((e) => e.fn.countAll<number>().as('x'))
        .whereRef('m.address_id', '=', 'a.id')
        .where('m.received_at', '>=', dayStart)
        .as('today'),
      eb
        .selectFrom('mail_messages as m')
        .select((e) => e.fn.countAll<number>().as('x'))
        .whereRef('m.address_id', '=', 'a.id')
        .where('m.received_at', '>=', dayStart)
        .where('m.state', 'in', ['review', 'failed'])
        .as('errors'),
    ])
    .orderBy('a.address');
  q = withGroup ? q.where((eb) => eb.or([eb('a.store_id', '=', store), eb('a.store_id', 'is', null)])) : q.where('a.store_id', '=', store);
  return (await q.execute()).map((r) => ({
    ...toAddress(r),
    lastMessageAt: r.last_at == null ? null : new Date(Number(r.last_at)).toISOString(),
    today: Number(r.today ?? 0),
    errors: Number(r.errors ?? 0),
  }));
}

/** A header of a raw message, read from its header block only (unfolded); null when absent. */
export function headerOf(raw: Uint8Array, name: string): string | null {
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const end = buf.indexOf('\r\n\r\n');
  const head = buf
    .subarray(0, Math.min(end < 0 ? buf.indexOf('\n\n') : end, 64 * 1024))
    .toString('latin1')
    .replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:[ \t]*(.*?)[ \t]*\r?$`, 'im').exec(head)?.[1] ?? null;
}

/** The Message-ID of a raw message, else the SHA-256 of its bytes (`digest`, when the caller hashed them as they came): what makes a mail delivered twice one. */
function messageKey(raw: Uint8Array, digest?: string): string {
  const id = /^<?([^<>\s]{1,500})>?$/.exec(headerOf(raw, 'message-id') ?? '')?.[1];
  return id ? `id:${id}` : `sha256:${digest ?? crypto.createHash('sha256').update(raw).digest('hex')}`;
}

/** The header "Send a test lead" marks its mail with: only this portal can write it, so no sender can pass a real lead off as a test. */
export const TEST_HEADER = 'X-Lead-Test';
export const testMark = (secret: string) => crypto.createHmac('sha256', secret).update('lead-mail-test').digest('hex');

const PART = 256 * 1024;
/** A turn of the event loop: what else is waiting (a request, another mail) goes between two parts. */
const turn = () => new Promise<void>((r) => setImmediate(r));

/**
 * Stores a message for an address, sealed, before anyone is told it arrived: the receiver
 * answers 250 only after this. Its parts go first, each sealed and written on its own (with the
 * event loop free between them), then its row in one short write: a row always has its parts,
 * and parts a crash left without a row are pruned. The same message again for the same address
 * is stored once ('again').
 */
export async function keepMail(
  ctx: Ctx,
  m: { raw: Uint8Array; address: LeadAddress; via: 'smtp' | 'imap'; sender: string; digest?: string },
): Promise<'kept' | 'again'> {
  const { db } = ctx.dbh;
  const box = mailSealer(ctx.secret);
  const key = crypto.randomBytes(16).toString('hex');
  const now = Date.now();
  for (let part = 0, at = 0; at < m.raw.byteLength || part === 0; part++, at += PART) {
    if (part) await turn();
    await db
      .insertInto('mail_raw')
      .values({ raw_key: key, part, bytes: box.seal(m.raw.subarray(at, at + PART)), created_at: now })
      .execute();
  }
  const row = await db
    .insertInto('mail_messages')
    .values({
      address_id: m.address.id,
      store_id: m.address.storeId,
      message_key: messageKey(m.raw, m.digest),
      via: m.via,
      sender: m.sender.slice(0, 320),
      subject: '',
      raw_key: key,
      size: m.raw.byteLength,
      state: 'received',
      attempts: 0,
      next_at: now,
      lease_until: null,
      outcome: '',
      detail: '',
      handled_by: null,
      received_at: now,
      done_at: null,
    })
    .onConflict((oc) => oc.columns(['address_id', 'message_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (row) return 'kept';
  await dropRaw(db, key);
  return 'again';
}

/** A stored message as it came; null when its parts are gone (it was handled). */
export async function readRaw(db: Db, secret: string, key: string): Promise<Buffer | null> {
  const parts = await db.selectFrom('mail_raw').select('bytes').where('raw_key', '=', key).orderBy('part').execute();
  if (!parts.length) return null;
  const box = mailSealer(secret);
  const out: Buffer[] = [];
  for (const p of parts) {
    if (out.length) await turn();
    out.push(box.open(p.bytes));
  }
  return Buffer.concat(out);
}

/** The message of a mail no longer needed (it was read into leads, a test, or dismissed). */
export const dropRaw = (db: Db, key: string) => db.deleteFrom('mail_raw').where('raw_key', '=', key).execute();

export const pruneMail = (db: Db, now = Date.now()) =>
  db
    .deleteFrom('mail_messages')
    .where('received_at', '<', now - KEPT_MS)
    .executeTakeFirst();
