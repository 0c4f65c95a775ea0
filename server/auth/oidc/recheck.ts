import * as client from 'openid-client';
import type { Ctx } from '../../context';
import { providerOf, providerRefused, RECHECK_MS } from './client';
import { seal, unseal } from './seal';
import { endSessions } from '../sessions/service';

/** While the provider cannot be reached, a session is asked about again after this long (and kept meanwhile). */
const RETRY_MS = 60 * 1000;
/** One question to the provider at a time per session on this app server. */
const inFlight = new Map<string, Promise<boolean>>();

/**
 * Asks the provider whether a single sign-on session may go on (a refresh-token grant): a refusal
 * (the account disabled or removed there, the grant revoked) ends the session here; a provider that
 * cannot be reached keeps it until its own end, so an outage does not sign everyone out.
 * Answers whether the session goes on.
 */
export function recheckSession(ctx: Ctx, session: Session, sealed: string, due: number): Promise<boolean> {
  let running = inFlight.get(session.hash);
  if (!running) {
    running = ask(ctx, session, sealed, due).finally(() => inFlight.delete(session.hash));
    inFlight.set(session.hash, running);
  }
  return running;
}

/** The session asked about: its cookie's hash, its public id and whose it is. */
interface Session {
  hash: string;
  sid: string;
  userId: string;
}

async function ask(ctx: Ctx, { hash, sid, userId }: Session, sealed: string, due: number): Promise<boolean> {
  const { db } = ctx.dbh;
  // Claimed by one app server: the others go on meanwhile. Until it is done the claim stands for
  // RETRY_MS, which is also how long an unreachable provider is left alone for this session.
  const claimed = await db
    .updateTable('sessions')
    .set({ recheck_at: Date.now() + RETRY_MS })
    .where('id_hash', '=', hash)
    .where('recheck_at', '=', due)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return true;
  const end = async (why: string) => {
    ctx.log.info(`single sign-on session ended: ${why}`);
    // As any sign-out: its open screens go to the sign-in page at once, its notifications stop.
    await endSessions(db, ctx.bus, userId, { sid });
    return false;
  };
  let refresh: string;
  try {
    refresh = unseal(ctx.secret, sealed);
  } catch {
    return end('its refresh token cannot be opened with this secret');
  }
  try {
    const tokens = await client.refreshTokenGrant(await providerOf(ctx.config), refresh);
    await db
      .updateTable('sessions')
      .set({ recheck_at: Date.now() + RECHECK_MS, oidc_refresh: tokens.refresh_token ? seal(ctx.secret, tokens.refresh_token) : sealed })
      .where('id_hash', '=', hash)
      .execute();
    return true;
  } catch (err) {
    if (providerRefused(err)) return end(`the provider refused its refresh token (${(err as client.ResponseBodyError).error})`);
    ctx.log.warn({ err }, 'single sign-on: the provider could not be reached to re-check a session; it is kept and asked again in a minute');
    return true;
  }
}
