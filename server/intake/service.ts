import crypto from 'node:crypto';
import { inStore, type Ctx } from '../context';
import { storeById } from '../stores/service';
import { dealerMap, park, storeFor } from '../dealers/service';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db';
import type { Database } from '../db/schema';
import { ApiError, badRequest, notFound, parse } from '../http/errors';
import { type Actor, type Assigned, type NewLead } from '../rotation/service';
import { handOut } from '../rotation/handout';
import type { Prospect } from './adf';
import { customerKey, isRepeat, prospectFields } from './lead';
import { leadSchema, type LeadInput } from '../../domain/schemas';
import type { Dealer } from '../../domain/dealers';

export interface ApiKey {
  /** 0 for a lead address (mail: server/mailin), whose scope names it instead. */
  id: number;
  /** What its prospect ids are scoped by; the key's id when unset. */
  scope?: string;
  name: string;
  /** The store its leads go to; null: a key for the whole group (its leads go by their dealer, server/dealers). */
  storeId: number | null;
  /** A lead address's mail: the address it came to (routing rules may name it). */
  mailbox?: string;
}

/**
 * Where a prospect id came from, as stored: the API key and the source that issued it. Two
 * integrations never share an id space, so one never gets back another's lead.
 */
const scopeOf = (key: ApiKey, source: string) => `${key.scope ?? key.id}:${source}`;

/** The lead as stored: the source defaults to the integration's name; a prospect id is scoped to its key and source. */
export function toNewLead(l: LeadInput, key: ApiKey, idSource?: string, resend = false, dealer?: Dealer): NewLead {
  const source = l.source || key.name;
  const lead: NewLead = {
    customer: l.customer,
    phone: l.phone,
    email: l.email,
    vehicle: l.vehicle,
    vin: l.vin,
    comments: l.comments,
    source,
    externalSource: l.externalId ? scopeOf(key, idSource || source) : null,
    externalId: l.externalId || null,
    customerKey: customerKey(l.customer),
    dealer: dealer ?? (l.dealer ? { name: l.dealer, id: '' } : undefined),
    // The key's name (a mail channel's: its lead address) for routing rules that name a key or an address.
    traits: { key: key.name, mailbox: key.mailbox ?? '' },
  };
  if (lead.externalSource && lead.externalId) lead.findRepeat = repeatFinder(lead.externalSource, lead.externalId, lead, resend);
  return lead;
}

/**
 * The earlier lead this one repeats, by the repeat rule (lead.ts): the same key and prospect id
 * and the same customer, or any lead under that id when the prospect says status="resend".
 */
const repeatFinder = (source: string, id: string, l: NewLead, resend: boolean) => async (trx: Db) => {
  const base = trx
    .selectFrom('leads')
    .select(['id', 'customer', 'assigned_to', 'assigned_to_name', 'phone', 'email', 'customer_key'])
    .where('external_source', '=', source)
    .where('external_id', '=', id);
  const key = l.customerKey ?? customerKey(l.customer);
  const same = await base.where('customer_key', '=', key).orderBy('id').limit(100).execute();
  const who = { key, phone: l.phone ?? null, email: l.email ?? null };
  const hit = same.find((r) => isRepeat({ key: r.customer_key ?? '', phone: r.phone, email: r.email }, who, false));
  if (hit || !resend) return hit;
  return base.orderBy('id', 'desc').executeTakeFirst();
};

/** One prospect of a document: a lead to hand out, or the reason it was refused. */
export type Planned = { lead: NewLead } | { refused: string; customer: string };

/** Each prospect on its own: a bad one is refused with its reason and the good ones still come in. */
export function prospectsToLeads(list: Prospect[], key: ApiKey): Planned[] {
  return list.map((p, i) => {
    const label = list.length > 1 ? `Prospect ${i + 1}: ` : '';
    const o = prospectFields(p, label);
    if (!o.ok) return { refused: o.error, customer: o.customer };
    try {
      const lead = toNewLead(parse(leadSchema, o.fields), key, o.idSource, o.resend, o.dealer.name || o.dealer.id ? o.dealer : undefined);
      return { lead: { ...lead, nameMissing: o.nameMissing, tradeIn: o.tradeIn ? JSON.stringify(o.tradeIn) : null, traits: { ...lead.traits, ...o.traits } } };
    } catch (err) {
      if (err instanceof ApiError) return { refused: label + err.message, customer: o.fields.customer };
      throw err;
    }
  });
}

/** The scope of leads made under an Idempotency-Key (a ':' can never follow the key id there). */
const idemScope = (key: ApiKey) => `${key.scope ?? key.id}#idempotency`;

/**
 * Under an Idempotency-Key, a lead without a prospect id gets one from the key, the request and
 * its place in it, so a retry after a crash finds the lead the first try made instead of making a
 * second (and a key used again after its 24 hours for another request still makes a new lead).
 */
export function underIdempotencyKey(planned: Planned[], key: ApiKey, idem: string, hash: string): Planned[] {
  return planned.map((p, i) =>
    !('lead' in p) || p.lead.externalId ? p : { lead: { ...p.lead, externalSource: idemScope(key), externalId: `${idem}#${i}#${hash.slice(0, 16)}` } },
  );
}

type Answer = { id: number | null; customer: string; status: 'assigned' | 'unassigned' | 'duplicate' | 'refused'; assignedTo: string | null; error?: string };

/**
 * Hands out what was waiting, then each new lead by the same round-robin transaction as a
 * manager's Assign. Answers per prospect; a repeat's answer names only the customer as sent now.
 * An ADF document is kept (for managers) with the leads it made.
 */
export async function intake(ctx: Ctx, planned: Planned[], key: ApiKey, document?: string) {
  const refused = planned.filter((p) => 'refused' in p);
  if (refused.length === planned.length) throw badRequest(refused.map((p) => p.refused).join(' '));
  const by: Actor = { id: null, name: key.name };
  const { db } = ctx.dbh;
  const documentId =
    document === undefined
      ? null
      : Number(
          (
            await db
              .insertInto('intake_documents')
              .values({ api_key_id: key.id, body: document, created_at: Date.now() })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
  const accepted = planned.flatMap((p) => ('lead' in p ? [{ ...p.lead, documentId }] : []));
  let made: Assigned[] = [];
  try {
    made = await deliver(ctx, accepted, key, by);
  } finally {
    // A document no lead came of is not kept (a lead a failed request still made keeps it).
    if (documentId !== null && !made.some((r) => !r.duplicate))
      await db
        .deleteFrom('intake_documents')
        .where('id', '=', documentId)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('leads').select('id').where('document_id', '=', documentId))))
        .execute();
  }
  const results = made.values();
  const answers: Answer[] = planned.map((p) => {
    if ('refused' in p) return { id: null, customer: p.customer, status: 'refused', assignedTo: null, error: p.refused };
    // One hand-out answer per accepted lead, in order: handOut answers each of them.
    const { value: r, done } = results.next();
    if (done) throw new Error('a lead that came in has no hand-out answer');
    // Found again under the same Idempotency-Key: the first try made it, and this answers for it.
    const again = r.duplicate && p.lead.externalSource === idemScope(key);
    return {
      id: r.leadId,
      customer: p.lead.customer,
      status: r.duplicate && !again ? 'duplicate' : r.assignedTo ? 'assigned' : 'unassigned',
      assignedTo: r.assignedTo?.name ?? null,
    };
  });
  const created = answers.some((a) => a.status === 'assigned' || a.status === 'unassigned');
  return { status: created ? 201 : 200, body: { leads: answers } };
}

/**
 * The hand-out of a request's leads, answered in their order: a store's key hands them out in its
 * store; the group's key in the store each one's dealer is mapped to, or parks it for a group
 * manager when none is.
 */
async function deliver(ctx: Ctx, leads: NewLead[], key: ApiKey, by: Actor): Promise<Assigned[]> {
  const { db } = ctx.dbh;
  if (key.storeId !== null) return handOut(inStore(ctx, await storeById(db, key.storeId)), leads, by, { keep: true });
  const mapped = await dealerMap(db);
  const byStore = new Map<number | null, number[]>();
  leads.forEach((l, i) => {
    const store = storeFor(mapped, l);
    byStore.set(store, [...(byStore.get(store) ?? []), i]);
  });
  const out: Assigned[] = [];
  for (const [store, at] of byStore) {
    const these = at.map((i) => leads[i]);
    const made = store === null ? await park(ctx, these, by) : await handOut(inStore(ctx, await storeById(db, store)), these, by, { keep: true });
    made.forEach((r, j) => (out[at[j]] = r));
  }
  return out;
}

/** The ADF document a lead came in, for a manager; null when it came in some other way. */
export async function leadDocument(db: Db, store: number, leadId: number) {
  const row = await db
    .selectFrom('leads')
    .leftJoin('intake_documents', 'intake_documents.id', 'leads.document_id')
    .select(['leads.id', 'intake_documents.body'])
    .where('leads.id', '=', leadId)
    .where('leads.store_id', '=', store)
    .executeTakeFirst();
  if (!row) throw notFound('Lead not found');
  return row.body ?? null;
}

// API keys: high-entropy random strings, so a plain SHA-256 is enough to store them safely.
const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex');

const toKey = (k: { id: number; name: string; prefix: string; created_at: number; last_used_at: number | null; revoked_at: number | null }) => ({
  id: Number(k.id),
  name: k.name,
  prefix: k.prefix,
  createdAt: new Date(Number(k.created_at)).toISOString(),
  lastUsedAt: k.last_used_at ? new Date(Number(k.last_used_at)).toISOString() : null,
  revokedAt: k.revoked_at ? new Date(Number(k.revoked_at)).toISOString() : null,
});

/** The keys of a store, or with null the group's. */
const ofStore = (store: number | null) => (eb: ExpressionBuilder<Database, 'api_keys'>) =>
  store === null ? eb('store_id', 'is', null) : eb('store_id', '=', store);

/** A key for a store (the leads sent with it are that store's), or with null for the whole group. */
export async function createKey(db: Db, store: number | null, name: string, by: string) {
  const key = `bdc_${crypto.randomBytes(24).toString('base64url')}`;
  const row = await db
    .insertInto('api_keys')
    .values({
      store_id: store,
      name,
      key_hash: hashKey(key),
      prefix: key.slice(0, 10),
      created_by: by,
      created_at: Date.now(),
      last_used_at: null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { key, apiKey: toKey(row) };
}

export const listKeys = async (db: Db, store: number | null) =>
  (
    await db
      .selectFrom('api_keys')
      .selectAll()
      .where(ofStore(store))
      .orderBy('revoked_at', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
  ).map(toKey);

export async function revokeKey(db: Db, store: number | null, id: number) {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).where(ofStore(store)).executeTakeFirst();
  if (!row) throw notFound('API key not found');
  if (!row.revoked_at) await db.updateTable('api_keys').set({ revoked_at: Date.now() }).where('id', '=', id).execute();
  return toKey(await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

/** The key behind a request, or a 401 that says what is wrong. */
export async function authenticate(db: Db, key: string | undefined): Promise<ApiKey> {
  if (!key) throw new ApiError(401, 'API key required: send it in the X-API-Key header or as Authorization: Bearer <key>.');
  const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', hashKey(key)).executeTakeFirst();
  if (!row) throw new ApiError(401, 'The API key is not valid.');
  if (row.revoked_at) throw new ApiError(401, 'This API key was revoked.');
  await db.updateTable('api_keys').set({ last_used_at: Date.now() }).where('id', '=', row.id).execute();
  return { id: Number(row.id), name: row.name, storeId: row.store_id === null ? null : Number(row.store_id) };
}

const IDEMPOTENCY_HOURS = 24;

/** What makes two requests the same request: the kind of body and its content. */
export const requestHash = (kind: 'json' | 'xml', body: unknown) =>
  crypto
    .createHash('sha256')
    .update(kind)
    .update('\n')
    .update(kind === 'xml' ? String(body) : JSON.stringify(body ?? null))
    .digest('hex');

/**
 * Claims an Idempotency-Key for this API key. Returns the stored answer when the request was
 * already done, null when the caller should do it now. The same key with another request is a
 * 422; a claim still running is a 409, until its lease ends: a claim that old was left by a
 * server that died, and this request takes it over.
 */
export async function claimIdempotency(db: Db, keyId: number, idem: string, hash: string, leaseMs: number) {
  const now = Date.now();
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', now - IDEMPOTENCY_HOURS * 3_600_000)
    .execute();
  const r = await db
    .insertInto('idempotency_keys')
    .values({ api_key_id: keyId, key: idem, created_at: now, status: null, body: null, request_hash: hash })
    .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows ?? 0) === 1) return null;
  const prior = await db.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', keyId).where('key', '=', idem).executeTakeFirst();
  if (prior?.request_hash && prior.request_hash !== hash) throw new ApiError(422, 'This Idempotency-Key was already used with a different request.');
  if (prior && prior.status !== null) {
    const body: unknown = JSON.parse(prior.body ?? 'null');
    return { status: prior.status, body };
  }
  if (prior && prior.created_at <= now - leaseMs) {
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ created_at: now, request_hash: hash })
      .where('api_key_id', '=', keyId)
      .where('key', '=', idem)
      .where('status', 'is', null)
      .where('created_at', '=', prior.created_at)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return null;
  }
  throw new ApiError(409, 'A request with this Idempotency-Key is still being processed. Try again in a moment.');
}

export const saveIdempotency = (db: Db, keyId: number, idem: string, status: number, body: unknown) =>
  db
    .updateTable('idempotency_keys')
    .set({ status, body: JSON.stringify(body) })
    .where('api_key_id', '=', keyId)
    .where('key', '=', idem)
    .execute();

/** A request that failed did nothing: the same key may be tried again. */
export const releaseIdempotency = (db: Db, keyId: number, idem: string) =>
  db.deleteFrom('idempotency_keys').where('api_key_id', '=', keyId).where('key', '=', idem).where('status', 'is', null).execute();
