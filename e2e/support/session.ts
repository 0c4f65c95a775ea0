import crypto from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { expect, type Page } from '@playwright/test';
import { hashToken, LINK_TTL_MS } from '../../server/auth/tokens';
import { mailsTo, nextLink } from './mail';
import { slot } from './slot';

/** Signs in through the real page, the real mail and the real link; ends on the overview. For the tests of sign-in itself. */
export async function signInByMail(page: Page, email: string) {
  const seen = mailsTo(email).length;
  await page.goto('/');
  await page.getByLabel('Work Email').fill(email);
  await page.getByRole('button', { name: 'Send Sign-in Link' }).click();
  await expect(page.getByText('Link Sent!')).toBeVisible();
  const link = await nextLink(email, seen);
  await page.goto(link);
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  return link;
}

/**
 * A sign-in link made for the test: its token stored as the link route stores it (keyed with the
 * worker's portal's secret), without the mail. Completing it is the real route: the newcomer is
 * admitted and gets his place, the session and its cookie are the real ones.
 */
function linkToken(email: string, n = slot()) {
  const token = crypto.randomBytes(32).toString('base64url');
  const db = new SQLite(path.join(process.env[`E2E_DATA_DIR_${n}`]!, 'portal.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const now = Date.now();
    db.prepare('insert into login_tokens (token_hash, email, expires_at, used_at, created_at) values (?, ?, ?, null, ?)').run(
      hashToken(process.env[`E2E_SESSION_SECRET_${n}`]!, token),
      email,
      now + LINK_TTL_MS,
      now,
    );
  } finally {
    db.close();
  }
  return token;
}

/** Signs the page's browser in by a link made for the test (no mail, no sign-in page); opens nothing. */
export async function signInQuietly(page: Page, email: string) {
  const res = await page.request.post('/api/auth/complete', { data: { email, token: linkToken(email) } });
  if (!res.ok()) throw new Error(`could not sign ${email} in: ${res.status()} ${await res.text()}`);
}

/** Signs in by a link made for the test and ends on the overview. */
export async function signIn(page: Page, email: string) {
  await signInQuietly(page, email);
  await page.goto('/dashboard/overview');
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
}

/** The same outside a browser: the session cookie for `email` on the portal of slot `n`. */
export async function signInAs(base: string, email: string, n: number) {
  const res = await fetch(`${base}/api/auth/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, token: linkToken(email, n) }),
  });
  if (!res.ok) throw new Error(`could not sign ${email} in: ${res.status} ${await res.text()}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}
