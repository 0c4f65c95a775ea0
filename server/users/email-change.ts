import type { Ctx } from '../context';
import { escapeHtml, portalName } from '../mail/mailer';
import type { Db } from '../db';
import { ApiError } from '../http/errors';
import { hashToken, randomToken } from '../auth/tokens';
import { writeAudit } from './audit';
import { findUser, findUserByEmail, type UserRow } from './repo';
import { USER_MSG, type Actor } from '../../domain/users';

/** A confirmation link works for a day: the person may not read his mail at once. */
const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;
export const EMAIL_LINK_SPENT = 'This confirmation link was already used or expired. Ask a manager to change the address again.';

/**
 * A new address for someone is only asked for: it takes effect when its owner opens the link
 * mailed to it, and the old address is told at once. A newer request replaces an older one.
 */
export async function requestEmailChange(ctx: Ctx, trx: Db, user: UserRow, email: string, by: Actor, now = Date.now()) {
  const token = randomToken();
  await trx.updateTable('email_changes').set({ used_at: now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute();
  await trx
    .insertInto('email_changes')
    .values({
      token_hash: hashToken(ctx.secret, token),
      user_id: user.id,
      email,
      requested_by: by.name,
      expires_at: now + EMAIL_CHANGE_TTL_MS,
      used_at: null,
      created_at: now,
    })
    .execute();
  await writeAudit(trx, user.id, by, [{ action: 'email change', changes: { email: { from: user.email, to: email } } }]);
  const portal = portalName(ctx.config);
  const link = `${ctx.config.PUBLIC_URL}/confirm-email?t=${token}`;
  await ctx.outbox.enqueue(trx, [
    {
      kind: 'email',
      mail: {
        to: email,
        subject: `Confirm your e-mail address for ${portal}`,
        text: `Hello ${user.name},\n\n${by.name} asked to change your e-mail address for ${portal} to this one. Open this link to confirm it:\n\n${link}\n\nThe link works once and expires in 24 hours. Until then you keep signing in with your old address. If this is not you, ignore this e-mail.\n`,
        html: `<p>Hello ${escapeHtml(user.name)},</p><p>${escapeHtml(by.name)} asked to change your e-mail address for <b>${escapeHtml(portal)}</b> to this one.</p><p><a href="${link}">Confirm this address</a></p><p>The link works once and expires in 24 hours. Until then you keep signing in with your old address. If this is not you, ignore this e-mail.</p>`,
      },
      logLine: `E-mail confirmation link for ${email} (expires in 24 hours): ${link}`,
      expiresAt: now + EMAIL_CHANGE_TTL_MS,
    },
    {
      kind: 'email',
      mail: {
        to: user.email,
        subject: `Your e-mail address for ${portal} is being changed`,
        text: `Hello ${user.name},\n\n${by.name} asked to change your e-mail address for ${portal} to ${email}. It changes when that address confirms. If this is wrong, tell a manager.\n`,
        html: `<p>Hello ${escapeHtml(user.name)},</p><p>${escapeHtml(by.name)} asked to change your e-mail address for <b>${escapeHtml(portal)}</b> to ${escapeHtml(email)}. It changes when that address confirms. If this is wrong, tell a manager.</p>`,
      },
      expiresAt: now + EMAIL_CHANGE_TTL_MS,
    },
  ]);
}

/** The addresses waiting for their owners' confirmation, by person (one person's, when named). */
export async function pendingEmails(db: Db, userId?: string, now = Date.now()): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('email_changes')
    .select(['user_id', 'email'])
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .$if(userId !== undefined, (qb) => qb.where('user_id', '=', userId ?? ''))
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.email]));
}

/**
 * The owner of the new address opened the link: the address changes, if it is still free and
 * the person is still here. One UPDATE spends the link, so it works once.
 */
export async function confirmEmailChange(ctx: Ctx, trx: Db, token: string, managerEmails: readonly string[], now = Date.now()) {
  const hash = hashToken(ctx.secret, token);
  const row = await trx.selectFrom('email_changes').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  const spent = await trx
    .updateTable('email_changes')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row || Number(spent.numUpdatedRows) !== 1) throw new ApiError(400, EMAIL_LINK_SPENT, 'invalid-action-code');
  const user = await findUser(trx, row.user_id);
  if (!user || user.deleted_at !== null || user.disabled) throw new ApiError(400, EMAIL_LINK_SPENT, 'invalid-action-code');
  if (managerEmails.includes(user.email)) throw new ApiError(409, USER_MSG.configured);
  const other = await findUserByEmail(trx, row.email);
  if (other && other.id !== user.id) throw new ApiError(409, USER_MSG.duplicateEmail, undefined, 'email');
  await trx.updateTable('users').set({ email: row.email, updated_at: now }).where('id', '=', user.id).execute();
  await writeAudit(trx, user.id, { id: user.id, name: user.name }, [{ action: 'update', changes: { email: { from: user.email, to: row.email } } }]);
  return { ...user, email: row.email, updated_at: now };
}
