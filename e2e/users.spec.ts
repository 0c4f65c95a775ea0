import { expect, test, type Page } from '@playwright/test';
import { axe } from './support/axe';
import { signIn } from './support/session';
import { animationsDone } from './support/settle';

const MANAGER = 'manager@e2e.test';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const row = (page: Page, email: string) => page.getByTestId('user-row').filter({ hasText: email });
const note = (page: Page, text: string) => expect(page.getByText(text, { exact: true }).first()).toBeVisible();

async function openManagement(page: Page) {
  await signIn(page, MANAGER);
  await page.goto('/dashboard/management');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  // The list is in: a change made from here on reaches it live (one made while its first fetch
  // was under way could be missed: see the note in web/api/live.ts).
  await expect(page.getByTestId('user-row').first()).toBeVisible();
}

/** Adds someone through the API as the signed-in manager, for tests about what comes after. */
async function addUser(page: Page, body: { email: string; name?: string; role?: string }) {
  const res = await page.request.post('/api/users', { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).user as { id: string; email: string };
}

test('a manager adds a user, who signs in by link and appears as themselves', async ({ page, browser }) => {
  await openManagement(page);
  const email = `zoe.${stamp()}@outside.test`;
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('Email').fill(`  ${email.toUpperCase()} `);
  await expect(dialog.getByLabel('Name')).toHaveAttribute('placeholder', 'Display name');
  await dialog.getByLabel('Name').fill('  Zoe Zed ');
  await dialog.getByLabel('Role').selectOption('Staff');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await note(page, 'User profile updated.');
  await expect(dialog).toBeHidden();
  const r = row(page, email);
  await expect(r).toContainText('Zoe Zed');
  await expect(r).toContainText('Staff');
  await expect(r.getByText('Not signed in yet')).toBeVisible();
  await expect(r.getByRole('link', { name: `Email ${email}` })).toHaveAttribute('href', `mailto:${email}`);

  // The new person is outside the staff domain: only the manager's record lets them in.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await signIn(them, email);
  await expect(them.getByTestId('greeting')).toContainText('Zoe Zed');
  await expect(them.getByTestId('user-email')).toHaveText(email);
  // The manager's open list learns they signed in, without a reload.
  await expect(r.getByText('Not signed in yet')).toHaveCount(0);
  await theirs.close();
});

test('edit name and role; the dialog refuses a blank e-mail and shows the history', async ({ page }) => {
  await openManagement(page);
  const email = `edit.${stamp()}@e2e.test`;
  await addUser(page, { email, name: 'Eve Edit' });
  const r = row(page, email);
  await r.getByRole('button', { name: `Edit ${email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await expect(dialog.getByLabel('Email')).toHaveValue(email);
  await expect(dialog.getByLabel('Name')).toHaveValue('Eve Edit');
  await expect(dialog.getByLabel('Role')).toHaveValue('staff');
  await expect(dialog.getByText(`Added: Email ${email}; Name Eve Edit; Role staff`)).toBeVisible();

  await dialog.getByLabel('Email').fill('   ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByLabel('Email')).toHaveAccessibleDescription('Email is required.');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Name').fill('Eve Renamed');
  await dialog.getByLabel('Role').selectOption('Manager');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await note(page, 'User profile updated.');
  await expect(r).toContainText('Eve Renamed');
  await expect(r).toContainText('Manager');

  await r.getByRole('button', { name: `Edit ${email}` }).click();
  await expect(dialog.getByText('Edited: Name Eve Edit → Eve Renamed; Role staff → manager')).toBeVisible();
  await expect(dialog.getByText(new RegExp(`by .+ \\(${MANAGER}\\)`)).first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('a second person with the same e-mail is refused with a clear message', async ({ page }) => {
  await openManagement(page);
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('Email').fill(MANAGER);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await note(page, 'Failed to save: Another person already has this e-mail address.');
  await expect(dialog).toBeVisible();
  // The server's refusal is about the e-mail, so it stands under that field too.
  const field = dialog.getByLabel('Email');
  await expect(field).toHaveAccessibleDescription('Another person already has this e-mail address.');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  // Typing again clears it.
  await field.fill(`new.${stamp()}@e2e.test`);
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  // The try that works takes the red message down at once (it would stay 8 seconds by itself).
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Failed to save: Another person already has this e-mail address.', { exact: true })).toHaveCount(0, { timeout: 2000 });
});

test('Add User checks the e-mail before sending it, with the words the server would use', async ({ page }) => {
  await openManagement(page);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/users') sent.push(r.url());
  });
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  const field = dialog.getByLabel('Email');
  await field.fill('not-an-address');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(field).toHaveAccessibleDescription('Enter a valid e-mail address');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  // The same address sent straight to the server is refused with the same words, naming the field.
  const res = await page.request.post('/api/users', { data: { email: 'not-an-address' } });
  expect([res.status(), await res.json()]).toEqual([400, { error: 'Enter a valid e-mail address', field: 'email' }]);
  // A good address then saves, and the form's refusal was the only request the dialog did not send.
  const email = `valid.${stamp()}@e2e.test`;
  await field.fill(email);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await note(page, 'User profile updated.');
  await expect(row(page, email)).toBeVisible();
  expect(sent).toHaveLength(1);
});

test('soft delete asks first, hides the row until "Show deleted", and restore brings it back', async ({ page }) => {
  await openManagement(page);
  const email = `del.${stamp()}@e2e.test`;
  await addUser(page, { email, name: 'Dee Delete' });
  const r = row(page, email);
  await r.getByRole('button', { name: `Soft Delete ${email}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Soft Delete' });
  await expect(confirm.getByText(`Soft-delete ${email}? They will be hidden until restored.`)).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(r).toBeVisible();

  await r.getByRole('button', { name: `Soft Delete ${email}` }).click();
  await confirm.getByRole('button', { name: 'Soft Delete' }).click();
  await note(page, 'User soft-deleted.');
  await expect(r).toHaveCount(0);

  await page.getByLabel('Show deleted').check();
  await expect(r.getByText('Deleted', { exact: true })).toBeVisible();
  await expect(r.getByRole('button', { name: `Edit ${email}` })).toHaveCount(0);
  await r.getByRole('button', { name: `Restore ${email}` }).click();
  await note(page, 'User restored.');
  await expect(r.getByText('Deleted', { exact: true })).toHaveCount(0);
  await page.getByLabel('Show deleted').uncheck();
  await expect(r).toContainText('Dee Delete');
});

test("disable keeps the row with a Disabled badge and sends the person's open screen back to sign-in", async ({ page, browser }) => {
  await openManagement(page);
  const email = `off.${stamp()}@e2e.test`;
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await signIn(them, email);

  const r = row(page, email);
  await r.getByRole('button', { name: `Disable ${email}` }).click();
  // Disable asks first, as Soft Delete does; Cancel changes nothing.
  const ask = page.getByRole('dialog', { name: 'Disable' });
  await expect(ask).toContainText(`Disable ${email}?`);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(r.getByText('Disabled', { exact: true })).toHaveCount(0);
  await r.getByRole('button', { name: `Disable ${email}` }).click();
  await ask.getByRole('button', { name: 'Disable' }).click();
  await note(page, 'User disabled.');
  await expect(r.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(them).toHaveURL(/\/$/);
  await expect(them.getByLabel('Work Email')).toBeVisible();
  await expect(them.getByTestId('signed-out-why')).toHaveText('Your access was turned off. Ask a manager if this is a mistake.');

  await r.getByRole('button', { name: `Enable ${email}` }).click();
  await note(page, 'User enabled.');
  await expect(r.getByText('Disabled', { exact: true })).toHaveCount(0);
  await signIn(them, email);
  await theirs.close();
});

test('the list is live: a change made elsewhere appears without a reload', async ({ page, context }) => {
  await openManagement(page);
  const email = `live.${stamp()}@e2e.test`;
  const other = await context.newPage();
  await addUser(other, { email, name: 'Liv Live' });
  await expect(row(page, email)).toContainText('Liv Live');
  await other.close();
});

test('staff who navigate to /dashboard/management land on the overview', async ({ page }) => {
  await signIn(page, `rep.${stamp()}@e2e.test`);
  await page.goto('/dashboard/management');
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  const res = await page.request.get('/api/users');
  expect(res.status()).toBe(403);
});

test('on a 375-pixel phone every row and action fits the screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await openManagement(page);
  const email = `a.very.long.address.${stamp()}@phone.e2e.test`;
  await addUser(page, { email, name: 'Pat Phone' });
  const r = row(page, email);
  for (const name of ['Edit', 'Email', 'Disable', 'Soft Delete']) {
    const control = r.getByRole(name === 'Email' ? 'link' : 'button', { name: `${name} ${email}` });
    await control.scrollIntoViewIfNeeded();
    await expect(control).toBeInViewport();
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await r.getByRole('button', { name: `Edit ${email}` }).click();
  await expect(page.getByRole('dialog', { name: 'Edit User' }).getByRole('button', { name: 'Save' })).toBeInViewport();
});

test('on a desktop a 160-character name wraps: no sideways scroll, every action in reach', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openManagement(page);
  const email = `long.name.${stamp()}@e2e.test`;
  await addUser(page, { email, name: `Bartholomew${'x'.repeat(140)}${stamp()}`.slice(0, 160) });
  const r = row(page, email);
  for (const name of ['Edit', 'Email', 'Disable', 'Soft Delete']) {
    const control = r.getByRole(name === 'Email' ? 'link' : 'button', { name: `${name} ${email}` });
    await control.scrollIntoViewIfNeeded();
    await expect(control).toBeInViewport({ ratio: 1 });
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
});

test('the page and its dialog have no accessibility violations', async ({ page }) => {
  await openManagement(page);
  await addUser(page, { email: `axe.${stamp()}@e2e.test` });
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  // This screen's own content; the shell around it has its own checks.
  const scan = async (where: string) =>
    (await axe(page).include(where).withTags(['wcag2a', 'wcag2aa']).analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`);
  expect(await scan('main')).toEqual([]);
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog).toBeVisible();
  // Measure colours once the opening fade has finished: every finite animation and transition
  // on the page (the dialog's and the overlay's) has ended.
  await expect(dialog).toHaveCSS('opacity', '1');
  await animationsDone(page);
  expect(await scan('[role="dialog"]')).toEqual([]);
});
