import type { FastifyBaseLogger } from 'fastify';
import type { Ctx } from '../context';
import { signInVerdict } from './policy';
import { findUserByEmail, FIRST_STORE_ID, insertUser, type UserRow } from '../users/repo';
import { atStore, withRotationLock } from '../db';

/**
 * The person an address signs in as, whichever way he proved it (a link, single sign-on): his
 * record, made on his first sign-in when the policy admits a newcomer (signInVerdict); null when
 * the policy refuses him (the reason is logged, never shown). An address its provider has not
 * verified is looked up all the same, so that refusal takes as long as any other, but never admitted.
 */
export async function admitUser(ctx: Ctx, email: string, log: FastifyBaseLogger, { verified = true } = {}): Promise<UserRow | null> {
  const { db } = ctx.dbh;
  const now = Date.now();
  let user = await findUserByEmail(db, email);
  const verdict = signInVerdict(ctx.config, email, user);
  if (!verdict.allowed || !verified) {
    log.info({ email }, `sign-in refused: ${!verdict.allowed ? verdict.why : 'the provider has not verified the address'}`);
    return null;
  }
  if (!user) {
    // The place in line is taken under the rotation lock, so simultaneous first sign-ins get
    // distinct places; the same address twice at once finds the first one's row.
    // A newcomer by his domain joins the first store; a MANAGER_EMAILS address is a group manager.
    const made = await withRotationLock(
      atStore(ctx.dbh, FIRST_STORE_ID),
      async (trx) => (await findUserByEmail(trx, email)) ?? insertUser(trx, { email, role: verdict.role, signedIn: true }),
    );
    ctx.bus.publish({ topic: 'users' });
    ctx.bus.publish({ topic: 'rotation' });
    return made;
  }
  const patch: { signed_in_at?: number; role?: string; all_stores?: number; updated_at?: number } = {};
  if (!user.signed_in_at) patch.signed_in_at = now;
  if (verdict.role === 'manager' && (user.role !== 'manager' || !user.all_stores)) Object.assign(patch, { role: 'manager', all_stores: 1 });
  if (Object.keys(patch).length) {
    patch.updated_at = now;
    await db.updateTable('users').set(patch).where('id', '=', user.id).execute();
    user = { ...user, ...patch };
    ctx.bus.publish({ topic: 'users' });
  }
  return user;
}
