import { expect, test } from '@playwright/test';
import { signInByMail as signIn } from './support/session';
import { mailsTo, nextLink } from './support/mail';
import { uniqueEmail } from './support/people';

const MANAGER = 'manager@e2e.test';

test('a manager requests a link, receives the real e-mail, and lands signed in', async ({ page }) => {
  const seen = mailsTo(MANAGER).length;
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'BDC Portal' })).toBeVisible();
  await page.getByLabel('Work Email').fill('  Manager@E2E.test ');
  await page.getByRole('button', { name: 'Send Sign-in Link' }).click();
  await expect(page.getByText('Link Sent!')).toBeVisible();
  await expect(page.getByText('manager@e2e.test')).toBeVisible();
  await expect(page.getByText(/Spam or Promotions/)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('emailForSignIn'))).toBe(MANAGER);

  const link = await nextLink(MANAGER, seen);
  await page.goto(link);
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  expect(await page.evaluate(() => localStorage.getItem('emailForSignIn'))).toBeNull();
  // The name is "User" until the manager sets one (other specs may have named this manager already).
  await expect(page.getByTestId('greeting')).toContainText(/^Good (morning|afternoon|evening), \S/);
  await expect(page.getByTestId('user-email')).toHaveText(MANAGER);
  await expect(page.getByTestId('weather')).toHaveText('72°F · Partly cloudy');
  for (const entry of ['Overview', 'Salesman', 'Stats', 'Manager', 'Routing', 'Leads', 'Settings', 'Logout']) {
    await expect(page.getByRole('navigation').getByText(entry, { exact: true }).filter({ visible: true })).toBeVisible();
  }
  // Going back must not return to the spent link.
  await page.goBack();
  await expect(page).not.toHaveURL(/finish-login/);
});

test('a used link says so and offers the way back', async ({ page, browser }) => {
  const link = await signIn(page, uniqueEmail('twice'));
  const other = await browser.newPage();
  await other.goto(link);
  await expect(other.getByText('This link was already used or expired.')).toBeVisible();
  await other.getByRole('link', { name: 'Go Back' }).click();
  await expect(other).toHaveURL(/\/$/);
  await other.close();
});

test('an expired link says so', async ({ page }) => {
  await page.goto('/finish-login?e=ghost%40e2e.test&t=not-a-real-token');
  await expect(page.getByText('This link was already used or expired.')).toBeVisible();
});

test('a link without an e-mail shows the specification message', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => localStorage.removeItem('emailForSignIn'));
  await page.goto('/finish-login?t=sometoken');
  await expect(page.getByText('Missing email for sign-in. Try requesting a new link.')).toBeVisible();
});

test('signed-out visitors to the dashboard are sent to sign-in', async ({ page }) => {
  await page.goto('/dashboard/overview');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel('Work Email')).toBeVisible();
});

test('staff who open a manager page land on the overview, and see no manager entries', async ({ page }) => {
  await signIn(page, uniqueEmail('rep.one'));
  await expect(page.getByRole('navigation').getByText('Routing', { exact: true })).toHaveCount(0);
  for (const path of ['/dashboard/management', '/dashboard/leads']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
  }
});

test('logout ends the session: the old cookie no longer works', async ({ page, context }) => {
  await signIn(page, uniqueEmail('leaver'));
  const old = (await context.cookies()).find((c) => c.name === 'bdc_session')!;
  expect(old.httpOnly).toBe(true);
  await page.getByRole('navigation').getByText('Logout').click();
  await expect(page).toHaveURL(/\/$/);
  const res = await page.request.get('/api/auth/me', { headers: { cookie: `bdc_session=${old.value}` } });
  expect(await res.json()).toEqual({ user: null });
  await page.goto('/dashboard/overview');
  await expect(page).toHaveURL(/\/$/);
});

test('dark mode survives a reload', async ({ page }) => {
  await signIn(page, uniqueEmail('night'));
  await page.goto('/dashboard/settings');
  await expect(page.getByRole('heading', { name: 'Appearance' })).toBeVisible();
  const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');
  const before = await scheme();
  await page.getByRole('button', { name: /Switch to (dark|light) mode/ }).click();
  const after = before === 'dark' ? 'light' : 'dark';
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', after);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', after);
});

test('the profile name is edited in settings and shows in the header', async ({ page }) => {
  await signIn(page, uniqueEmail('named'));
  await page.goto('/dashboard/settings');
  await page.getByLabel('Name').fill('   ');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await page.getByLabel('Name').fill('Nora Named');
  await page.getByLabel('Custom greeting').fill('Sell sell sell');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByTestId('greeting')).toHaveText('Sell sell sell, Nora Named');
});

test('an unknown path shows Page Not Found with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go Back Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a dashboard address named like a built-in of JavaScript is just an unknown screen', async ({ page }) => {
  await signIn(page, uniqueEmail('proto'));
  for (const name of ['constructor', '__proto__', 'toString']) {
    await page.goto(`/dashboard/${name}`);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  }
});

test('the menu slides over on a 375-pixel-wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page, uniqueEmail('phone'));
  const nav = page.getByRole('navigation');
  await expect(nav.getByText('Settings')).not.toBeInViewport();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(nav.getByText('Settings')).toBeInViewport();
  await nav.getByText('Settings').click();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await expect(nav.getByText('Settings')).not.toBeInViewport();
});

test('Stats expands to Sales and Leads and /dashboard/stats goes to Sales', async ({ page }) => {
  await signIn(page, uniqueEmail('stats'));
  await page.goto('/dashboard/stats');
  await expect(page).toHaveURL(/\/dashboard\/stats\/sales$/);
  await expect(page.getByRole('navigation').getByText('Sales', { exact: true })).toBeVisible();
});
