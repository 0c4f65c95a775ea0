import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { axe } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startServerProcess, type ServerProcess } from '../server/test/process';
import { OIDC_CLIENT, startOidcProvider, type OidcProvider } from '../server/test/oidc-provider';
import { layoutProblems } from './support/layout';

const BOSS = 'sso.boss@e2e-sso.test';
const LABEL = 'Sign in with Contoso';
/** The words a refused link uses (web/signin, domain/auth-messages.ts): single sign-on's refusal says the same. */
const REFUSAL = 'This link was already used or expired.';

// A portal of its own with single sign-on set up, and the provider it trusts.
let idp: OidcProvider;
let portal: ServerProcess;
let base: string;
let dir: string;
test.beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  idp = await startOidcProvider([`${base}/auth/oidc/callback`]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-sso-'));
  portal = await startServerProcess(
    {
      PUBLIC_URL: base,
      DATA_DIR: dir,
      DATABASE_URL: '',
      SMTP_URL: '',
      MANAGER_EMAILS: BOSS,
      ALLOWED_EMAIL_DOMAINS: '',
      WEATHER_URL: 'http://127.0.0.1:9',
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_LABEL: LABEL,
    },
    port,
    // The built portal, as the browser tests' own (npm run build comes first).
    ['build/main.js'],
  );
});
test.afterAll(async () => {
  await portal?.stop();
  await idp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Serious and critical axe violations on the page as it is, in light and dark (as e2e/a11y.spec.ts counts them). */
async function axeProblems(page: Page, what: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const v of (await axe(page).analyze()).violations) {
      if (v.impact === 'serious' || v.impact === 'critical') found.push(`${what} (${scheme}): ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  }
  return found;
}

/** From the portal's sign-in page, through the provider's own login page, as `email`. */
async function signInAtProvider(page: Page, email: string) {
  await page.goto(`${base}/`);
  await page.getByRole('link', { name: LABEL }).click();
  await expect(page.getByRole('heading', { name: 'Test provider sign-in' })).toBeVisible();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Sign in at the provider' }).click();
}

test('a manager signs in with the single sign-on button and lands on the overview', async ({ page }) => {
  await signInAtProvider(page, BOSS);
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  await expect(page.getByRole('button', { name: LABEL })).toHaveCount(0);
  const me = await (await page.request.get(`${base}/api/auth/me`)).json();
  expect(me.user).toMatchObject({ email: BOSS, role: 'manager' });
});

test('an unknown address comes back to the sign-in page with the same refusal as a link', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signInAtProvider(page, 'stranger@elsewhere.test');
  await expect(page).toHaveURL(`${base}/?signin=refused`);
  await expect(page.getByRole('alert')).toHaveText(REFUSAL);
  // The e-mail form is still there, and the button, on a phone, without sideways scroll.
  await expect(page.getByLabel('Work Email')).toBeVisible();
  await expect(page.getByRole('link', { name: LABEL })).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
  expect(await axeProblems(page, 'sign-in page with the refusal')).toEqual([]);
  expect((await (await page.request.get(`${base}/api/auth/me`)).json()).user).toBeNull();
});

test('Manager → Sign-in shows the redirect address; turning the e-mail link off leaves the sign-in page with the button only', async ({ page, browser }) => {
  await signInAtProvider(page, BOSS);
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  await page.goto(`${base}/dashboard/management`);
  const section = page.getByRole('region', { name: 'Sign-in' });
  await expect(section.getByTestId('oidc-redirect')).toHaveText(`${base}/auth/oidc/callback`);
  await expect(section.getByText('Set up', { exact: true })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Copy the redirect address' })).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 375, height: 740 });
    await section.scrollIntoViewIfNeeded();
    // Polled: the screen lays itself out for a phone's width after the resize (it read 536 px wide once, before it had).
    await expect.poll(() => layoutProblems(page), { message: scheme }).toEqual([]);
  }
  expect(await axeProblems(page, 'Manager → Sign-in')).toEqual([]);

  const link = section.getByRole('switch', { name: 'E-mail link sign-in' });
  await expect(link).toBeChecked();
  // By keyboard: the notice of each change may lie over the switch on a phone's width.
  await link.focus();
  await page.keyboard.press('Space');
  await expect(link).not.toBeChecked();

  const visitor = await browser.newPage();
  await visitor.goto(`${base}/`);
  await expect(visitor.getByRole('link', { name: LABEL })).toBeVisible();
  await expect(visitor.getByLabel('Work Email')).toHaveCount(0);

  await link.focus();
  await page.keyboard.press('Space');
  await expect(link).toBeChecked();
  await visitor.reload();
  await expect(visitor.getByLabel('Work Email')).toBeVisible();
  await visitor.close();
});
