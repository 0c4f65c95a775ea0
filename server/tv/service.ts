import type { Db } from '../db';
import { ApiError, notFound } from '../http/errors';
import { hashToken, randomToken } from '../auth/tokens';
import { MAX_TV_LINKS, TOO_MANY_TV_LINKS, TV_REVOKED, TV_UNKNOWN, tokenInHash } from '../../domain/tv';
import type { TvLinkInfo } from '../../domain/tv-schema';

/** A TV writes when it was last seen at most once a minute, not at every read of its board. */
const SEEN_EVERY_MS = 60_000;

/** The link a TV holds: its store, and when it was last seen. */
export interface TvLinkRow {
  id: number;
  storeId: number;
  lastSeenAt: number | null;
}

interface Row {
  id: number;
  name: string;
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const toLink = (r: Row): TvLinkInfo => ({
  id: Number(r.id),
  name: r.name,
  createdAt: new Date(Number(r.created_at)).toISOString(),
  lastSeenAt: iso(r.last_seen_at),
  revokedAt: iso(r.revoked_at),
});
const COLUMNS = ['id', 'name', 'created_at', 'last_seen_at', 'revoked_at'] as const;

/** A store's links, the live ones first, newest first. */
export async function listLinks(db: Db, store: number) {
  const rows = await db
    .selectFrom('tv_links')
    .select(COLUMNS)
    .where('store_id', '=', store)
    .orderBy((eb) => eb.case().when('revoked_at', 'is', null).then(0).else(1).end())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toLink);
}

/** A new link of the store: its secret, stored as a keyed hash only, and the link. */
export async function createLink(db: Db, secret: string, store: number, name: string, by: string) {
  const live = await db
    .selectFrom('tv_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('store_id', '=', store)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(live.n) >= MAX_TV_LINKS) throw new ApiError(409, TOO_MANY_TV_LINKS, 'too_many_tv_links');
  const token = randomToken();
  const row = await db
    .insertInto('tv_links')
    .values({
      store_id: store,
      name,
      token_hash: hashToken(secret, `tv:${token}`),
      created_by: by,
      created_at: Date.now(),
      last_seen_at: null,
      revoked_at: null,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { token, link: toLink(row) };
}

/** Revokes a link of the store (again: no change); another store's is not found. */
export async function revokeLink(db: Db, store: number, id: number) {
  const found = await db.selectFrom('tv_links').select('id').where('id', '=', id).where('store_id', '=', store).executeTakeFirst();
  if (!found) throw notFound('TV link not found');
  await db.updateTable('tv_links').set({ revoked_at: Date.now() }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  return toLink(await db.selectFrom('tv_links').select(COLUMNS).where('id', '=', id).executeTakeFirstOrThrow());
}

/**
 * The live link behind a secret, or a 401 that says what the TV shows: revoked, or not a link.
 * The hash is another than a session's (tv: before the secret), so no secret is both.
 */
export async function linkOf(db: Db, secret: string, token: unknown): Promise<TvLinkRow> {
  const t = typeof token === 'string' ? tokenInHash(token) : null;
  const row = t
    ? await db
        .selectFrom('tv_links')
        .select(['id', 'store_id', 'last_seen_at', 'revoked_at'])
        .where('token_hash', '=', hashToken(secret, `tv:${t}`))
        .executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError(401, TV_UNKNOWN, 'tv_unknown');
  if (row.revoked_at !== null) throw new ApiError(401, TV_REVOKED, 'tv_revoked');
  return { id: Number(row.id), storeId: Number(row.store_id), lastSeenAt: row.last_seen_at === null ? null : Number(row.last_seen_at) };
}

/** Whether a link is still live (an open TV's stream asks when its store's links change). */
export async function stillLive(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('tv_links').select('revoked_at').where('id', '=', id).executeTakeFirst();
  return !!row && row.revoked_at === null;
}

/** Notes that the TV read its board, at most once a minute. */
export async function seen(db: Db, link: TvLinkRow, now = Date.now()) {
  if (link.lastSeenAt !== null && now - link.lastSeenAt < SEEN_EVERY_MS) return;
  await db.updateTable('tv_links').set({ last_seen_at: now }).where('id', '=', link.id).execute();
}
