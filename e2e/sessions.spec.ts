import { expect, test, type Page } from '@playwright/test';
import { signInByMail as signIn } from './support/session';
import { uniqueEmail } from './support/people';
import { layoutProblems } from './support/layout';
import { MSG } from '../domain/auth-messages';
import { earlierDevices } from './support/db';

const MANAGER = 'manager@e2e.test';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const onSignInPage = async (page: Page) => {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel('Work Email')).toBeVisible();
};

test('a salesman signs his other device out from Settings: that device lands on the sign-in page at once and stays there', async ({ page, browser }) => {
  const email = uniqueEmail('two.devices');
  await signIn(page, email);
  const phone = await (await browser.newContext({ userAgent: IPHONE })).newPage();
  await signIn(phone, email);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/dashboard/settings');
  const card = page.getByRole('region', { name: 'Signed-in devices' });
  const rows = card.getByTestId('device-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('This device');
  await expect(rows.nth(0)).toContainText('E-mail link · Address 127.0.0.1');
  await expect(rows.nth(1)).toContainText('Safari on iPhone');
  await expect(rows.nth(1)).toContainText(/Last seen Today \d/);
  await expect(rows.nth(1)).not.toContainText('This device');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await layoutProblems(page)).toEqual([]);
  }

  await card.getByRole('button', { name: 'Sign out Safari on iPhone' }).click();
  await expect(page.getByText('That device is signed out.')).toBeVisible();
  await expect(rows).toHaveCount(1);
  // The phone's open overview hears it on its live stream and goes to sign in, saying why.
  await onSignInPage(phone);
  await expect(phone.getByText(MSG.signedOut)).toBeVisible();
  await phone.goto('/dashboard/settings');
  await onSignInPage(phone);
  expect((await (await phone.request.get('/api/auth/me')).json()).user).toBeNull();
  // This device is still signed in.
  await page.reload();
  await expect(rows).toHaveCount(1);
  await phone.context().close();
});

test('a salesman signed in on many devices sees this one and the latest four, and all of them when he asks', async ({ page }) => {
  const email = uniqueEmail('many.devices');
  await signIn(page, email);
  const agents = [
    IPHONE,
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  ];
  earlierDevices(email, agents);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/dashboard/settings');
  const card = page.getByRole('region', { name: 'Signed-in devices' });
  const rows = card.getByTestId('device-row');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(0)).toContainText('This device');
  await expect(rows.nth(1)).toContainText('Safari on iPhone');
  await expect(card).not.toContainText('Firefox');
  expect(await layoutProblems(page)).toEqual([]);

  await card.getByRole('button', { name: 'Show all 8 devices' }).click();
  await expect(rows).toHaveCount(8);
  await expect(rows.nth(7)).toContainText('Firefox on Windows');
  // The oldest, shown only on asking, signs out like any other.
  await card.getByRole('button', { name: 'Sign out Firefox on Windows' }).click();
  await expect(page.getByText('That device is signed out.')).toBeVisible();
  await expect(rows).toHaveCount(7);
  await card.getByRole('button', { name: 'Show fewer' }).click();
  await expect(rows).toHaveCount(5);
});

test('"Sign out everywhere" in Settings ends this device too, after a confirm', async ({ page, browser }) => {
  const email = uniqueEmail('everywhere');
  await signIn(page, email);
  const other = await (await browser.newContext()).newPage();
  await signIn(other, email);
  await page.goto('/dashboard/settings');
  const card = page.getByRole('region', { name: 'Signed-in devices' });
  await expect(card.getByTestId('device-row')).toHaveCount(2);
  await card.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByRole('dialog', { name: 'Sign out everywhere' }).getByRole('button', { name: 'Sign out everywhere' }).click();
  await onSignInPage(page);
  await onSignInPage(other);
  await other.context().close();
});

test('a manager signs a salesman out everywhere from his record; the salesman lands on the sign-in page', async ({ page, browser }) => {
  const email = uniqueEmail('lost.phone');
  const rep = await (await browser.newContext()).newPage();
  await signIn(rep, email);
  await signIn(page, MANAGER);
  await page.goto('/dashboard/management');
  await page
    .getByTestId('user-row')
    .filter({ hasText: email })
    .getByRole('button', { name: `Edit ${email}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  const confirm = page.getByRole('dialog', { name: 'Sign out everywhere' });
  await expect(confirm).toContainText(`Sign ${email} out on every device?`);
  await confirm.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByText('Signed out on 1 device.')).toBeVisible();
  await expect(dialog.getByTestId('history')).toContainText('Signed out everywhere (1 device)');
  await onSignInPage(rep);
  await rep.context().close();
});
