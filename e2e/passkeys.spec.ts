import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { linkIn, startSmtp } from '../server/test/smtp';
import { freePort, startServerProcess, type ServerProcess } from '../server/test/process';
import { layoutProblems } from './support/layout';
import { PASSKEY_MSG } from '../domain/passkey-messages';

/**
 * A passkey is bound to a site's domain, and an IP address is none: this spec runs a portal of its
 * own at http://localhost:<port> (a secure context, a valid RP ID) rather than the shared one at
 * 127.0.0.1. Chromium's virtual authenticator stands in for the device's fingerprint reader.
 */
let server: ServerProcess;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let base: string;
let dir: string;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-passkeys-'));
  smtp = await startSmtp();
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = await startServerProcess(
    {
      PUBLIC_URL: base,
      DATA_DIR: dir,
      DATABASE_URL: '',
      SMTP_URL: smtp.url,
      MANAGER_EMAILS: 'boss@passkeys.test',
      ALLOWED_EMAIL_DOMAINS: 'passkeys.test',
      WEATHER_URL: 'http://127.0.0.1:9',
      SIGNIN_LINKS_PER_MINUTE: '1000',
      SIGNIN_LINKS_PER_ADDRESS: '1000',
    },
    port,
    // The built portal, as the browser tests' own (npm run build comes first).
    ['build/main.js'],
  );
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** This page's browser gets a platform authenticator that keeps discoverable passkeys and verifies the user. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

async function signInByLink(page: Page, email: string) {
  const seen = smtp.count(email);
  await page.goto(`${base}/`);
  await page.getByLabel('Work Email').fill(email);
  await page.getByRole('button', { name: 'Send Sign-in Link' }).click();
  await expect(page.getByText('Link Sent!')).toBeVisible();
  await page.goto(linkIn(await smtp.mailTo(email, 10_000, seen)).toString());
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
}

async function signOut(page: Page) {
  await page.getByRole('navigation').getByText('Logout').click();
  await expect(page).toHaveURL(`${base}/`);
}

test('add a passkey in Settings, sign out, sign in with it; removed, it no longer signs in and says why', async ({ page }) => {
  const device = await virtualAuthenticator(page);
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  // The sign-in page brings no WebAuthn code until the passkey button is pressed.
  await page.goto(`${base}/`);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((s) => /webauthn/.test(s))).toEqual([]);
  await signInByLink(page, 'pat@passkeys.test');

  await page.goto(`${base}/dashboard/settings`);
  const card = page.getByTestId('passkeys-card');
  await expect(card.getByText('You have no passkeys yet.')).toBeVisible();
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  // The name starts as the device's, and may be changed.
  await expect(card.getByLabel('Passkey name')).toHaveValue('Chrome on Windows');
  await card.getByLabel('Passkey name').fill('Desk PC');
  await card.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page.getByText('Passkey added.', { exact: false })).toBeVisible();
  await expect(card.getByTestId('passkey-row')).toHaveCount(1);
  await expect(card.getByTestId('passkey-row')).toContainText('Desk PC');
  await expect(card.getByTestId('passkey-row')).toContainText('Not used yet');
  const [held] = await device.credentials();
  expect(held).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  expect(scripts.filter((s) => /webauthn/.test(s))).toHaveLength(1);
  await expect(page.getByRole('navigation')).toBeVisible();

  await page.goto(`${base}/dashboard/settings`);
  await expect(card.getByTestId('passkey-row')).toContainText(/Last used Today/);
  await card.getByRole('button', { name: 'Remove Desk PC' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove passkey' });
  await expect(confirm).toContainText('Remove the passkey "Desk PC"?');
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(card.getByText('You have no passkeys yet.')).toBeVisible();

  // The device still holds it; the portal no longer takes it.
  expect(await device.credentials()).toHaveLength(1);
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByTestId('passkey-error')).toHaveText(PASSKEY_MSG.unknown);
  await expect(page).toHaveURL(`${base}/`);
  expect((await (await page.request.get(`${base}/api/auth/me`)).json()).user).toBeNull();
});

test('the Passkeys card fits a 375 px phone, light and dark, with a long name; a passkey is renamed', async ({ page }) => {
  await virtualAuthenticator(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await signInByLink(page, 'phone@passkeys.test');
  await page.goto(`${base}/dashboard/settings`);
  const card = page.getByTestId('passkeys-card');
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  const name = 'Salesfloor desk PC by the front door, second from left';
  await card.getByLabel('Passkey name').fill(name);
  expect(await layoutProblems(page)).toEqual([]);
  await card.getByRole('button', { name: 'Add passkey' }).click();
  await expect(card.getByTestId('passkey-row')).toContainText(name);
  await expect(page.getByText('Passkey added.', { exact: false })).toBeVisible();
  await expect(card.getByRole('button', { name: `Remove ${name}` })).toHaveText('Remove');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await card.scrollIntoViewIfNeeded();
    // Polled: the "Passkey added" toast slides in from beyond the right edge before it settles.
    await expect.poll(() => layoutProblems(page), { message: scheme }).toEqual([]);
  }

  // Renamed: a blank name is refused where it is typed, a new one replaces the old.
  await card.getByRole('button', { name: `Rename ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename passkey' });
  await dialog.getByLabel('Passkey name').fill('   ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Name the passkey')).toBeVisible();
  await dialog.getByLabel('Passkey name').fill('My phone');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByTestId('passkey-row')).toContainText('My phone');
});
