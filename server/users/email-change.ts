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
/** The old address may take a change back for a week. */
const UNDO_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const EMAIL_LINK_SPENT = 'This confirmation link was already used or expired. Ask a manager to change the address again.';

type Kind = 'new' | 'old' | 'undo';
const DAY = '24 hours';

async function newLink(ctx: Ctx, trx: Db, user: UserRow, email: string, kind: Kind, by: Actor, now: number) {
  const token = randomToken();
  const ttl = kind === 'undo' ? UNDO_TTL_MS : EMAIL_CHANGE_TTL_MS;
  await trx
    .insertInto('email_changes')
    .values({
      token_hash: hashToken(ctx.secret, token),
      user_id: user.id,
      email,
      kind,
      requested_by: by.name,
      expires_at: now + ttl,
      used_at: null,
      created_at: now,
    })
    .execute();
  return { link: `${ctx.config.PUBLIC_URL}/confirm-email?t=${token}`, expiresAt: now + ttl };
}

/** One mail of this flow, in text and the same words in HTML (paragraphs; the link its own). */
function mail(to: string, subject: string, paragraphs: string[], link?: { href: string; label: string }) {
  const text = `${paragraphs.join('\n\n')}\n`.replace('{link}', link?.href ?? '');
  const html = paragraphs
    .map((p) => (p === '{link}' && link ? `<p><a href="${link.href}">${escapeHtml(link.label)}</a></p>` : `<p>${escapeHtml(p)}</p>`))
    .join('');
  return { to, subject, text, html };
}

/**
 * A new address for someone is only asked for. Whose link makes it take effect is `kind`
 * (domain/users.ts confirmedBy): the new address's owner ('new'; the old address is told at
 * once), or the person from his current address ('old'). A newer request replaces an older one.
 */
export async function requestEmailChange(ctx: Ctx, trx: Db, user: UserRow, email: string, by: Actor, kind: 'new' | 'old', now = Date.now()) {
  await trx
    .updateTable('email_changes')
    .set({ used_at: now })
    .where('user_id', '=', user.id)
    .where('used_at', 'is', null)
    .where('kind', '!=', 'undo')
    .execute();
  const { link, expiresAt } = await newLink(ctx, trx, user, email, kind, by, now);
  await writeAudit(trx, user.id, by, [{ action: 'email change', changes: { email: { from: user.email, to: email } } }]);
  const portal = portalName(ctx.config);
  const hello = `Hello ${user.name},`;
  const until = `The link works once and expires in ${DAY}. Until then you keep signing in with ${user.email}.`;
  if (kind === 'old') {
    const m = mail(
      user.email,
      `Confirm the new e-mail address for ${portal}`,
      [
        hello,
        `${by.name} asked to change the address you sign in to ${portal} with to ${email}. If that is right, open this link to make the change:`,
        '{link}',
        until,
        'If you did not ask for this, ignore this e-mail: nothing changes.',
      ],
      { href: link, label: 'Make the change' },
    );
    await ctx.outbox.enqueue(trx, [
      { kind: 'email', mail: m, logLine: `E-mail change approval link for ${user.email} (expires in ${DAY}): ${link}`, expiresAt },
    ]);
    return;
  }
  await ctx.outbox.enqueue(trx, [
    {
      kind: 'email',
      mail: mail(
        email,
        `Confirm your e-mail address for ${portal}`,
        [
          hello,
          `${by.name} asked to change your e-mail address for ${portal} to this one. Open this link to confirm it:`,
          '{link}',
          until,
          'If this is not you, ignore this e-mail.',
        ],
        { href: link, label: 'Confirm this address' },
      ),
      logLine: `E-mail confirmation link for ${email} (expires in ${DAY}): ${link}`,
      expiresAt,
    },
    {
      kind: 'email',
      mail: mail(user.email, `Your e-mail address for ${portal} is being changed`, [
        hello,
        `${by.name} asked to change your e-mail address for ${portal} to ${email}. It changes when that address confirms. If this is wrong, tell a manager.`,
      ]),
      expiresAt,
    },
  ]);
}

/** The addresses waiting for their links, by person (one person's, when named): the address and where its link went. */
export async function pendingEmails(db: Db, userId?: string, now = Date.now()): Promise<Map<string, { email: string; kind: 'new' | 'old' }>> {
  const rows = await db
    .selectFrom('email_changes')
    .select(['user_id', 'email', 'kind'])
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('kind', '!=', 'undo')
    .$if(userId !== undefined, (qb) => qb.where('user_id', '=', userId ?? ''))
    .execute();
  return new Map(rows.map((r) => [r.user_id, { email: r.email, kind: r.kind === 'old' ? 'old' : 'new' }]));
}

/** A changed address ends every session, device and passkey of the person: whoever held the old one holds nothing now. */
async function signOutAll(trx: Db, userId: string) {
  const sids = (await trx.deleteFrom('sessions').where('user_id', '=', userId).returning('sid').execute()).map((r) => r.sid);
  if (sids.length) await trx.deleteFrom('push_subscriptions').where('session_sid', 'in', sids).execute();
  await trx.deleteFrom('passkeys').where('user_id', '=', userId).execute();
}

/**
 * A link of this flow was opened: the address changes (to the new one, or back to the old one on
 * an undo), if it is still free and the person is still here. One UPDATE spends the link, so it
 * works once. Every change signs the person out everywhere; a change (not an undo) mails the old
 * address a link that takes it back within a week.
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
  if (!user || user.deleted_at !== null || (user.disabled && row.kind !== 'undo')) throw new ApiError(400, EMAIL_LINK_SPENT, 'invalid-action-code');
  if (managerEmails.includes(user.email) && row.kind !== 'undo') throw new ApiError(409, USER_MSG.configured);
  const other = await findUserByEmail(trx, row.email);
  if (other && other.id !== user.id) throw new ApiError(409, USER_MSG.duplicateEmail, undefined, 'email');
  await trx.updateTable('users').set({ email: row.email, updated_at: now }).where('id', '=', user.id).execute();
  await writeAudit(trx, user.id, { id: user.id, name: user.name }, [
    { action: row.kind === 'undo' ? 'email undo' : 'update', changes: { email: { from: user.email, to: row.email } } },
  ]);
  await signOutAll(trx, user.id);
  if (row.kind === 'undo') {
    // Taken back: no other link of this person's may move it again.
    await trx.updateTable('email_changes').set({ used_at: now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute();
  } else {
    const { link, expiresAt } = await newLink(ctx, trx, user, user.email, 'undo', { id: user.id, name: user.name }, now);
    const portal = portalName(ctx.config);
    const m = mail(
      user.email,
      `Your e-mail address for ${portal} was changed`,
      [
        `Hello ${user.name},`,
        `The address you sign in to ${portal} with changed from ${user.email} to ${row.email}. Every device was signed out and your passkeys were removed.`,
        'If this was not you, open this link within 7 days to change it back:',
        '{link}',
      ],
      { href: link, label: 'Change it back' },
    );
    await ctx.outbox.enqueue(trx, [{ kind: 'email', mail: m, logLine: `E-mail undo link for ${user.email} (expires in 7 days): ${link}`, expiresAt }]);
  }
  return { ...user, email: row.email, updated_at: now };
}
