import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { mailsTo } from './support/mail';
import { ownStore } from './support/store';
import { SHARED_PERSON } from '../domain/users';

const MANAGER = 'manager@e2e.test';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** The confirmation link in the newest mail to `address`, once it has come. */
async function confirmLink(address: string) {
  await expect.poll(() => mailsTo(address).some((m) => m.text.includes('/confirm-email?t=')), { timeout: 15_000 }).toBe(true);
  const text = mailsTo(address).findLast((m) => m.text.includes('/confirm-email?t='))!.text;
  return /(https?:\/\/\S+\/confirm-email\?t=[A-Za-z0-9_-]+)/.exec(text)![1];
}

test('a new e-mail address waits for its owner: the manager sees it waiting, the old address is told, the link makes it so once', async ({ page, browser }) => {
  await signIn(page, MANAGER);
  const old = `mover.${stamp()}@e2e.test`;
  const fresh = `mover.new.${stamp()}@e2e.test`;
  expect((await page.request.post('/api/users', { data: { email: old, name: 'Mo Mover' } })).status()).toBe(200);
  await page.goto('/dashboard/management');
  const row = page.getByTestId('user-row').filter({ hasText: old });
  await row.getByRole('button', { name: `Edit ${old}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await dialog.getByLabel('Email').fill(fresh);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`User profile updated. A confirmation link went to ${fresh}: the address changes when it is opened.`)).toBeVisible();
  await expect(row).toContainText(`New address ${fresh} waits for its confirmation.`);

  await expect.poll(() => mailsTo(old).some((m) => m.text.includes(`to ${fresh}`)), { timeout: 15_000 }).toBe(true);
  const link = await confirmLink(fresh);

  // The owner opens the link, signed in or not.
  const theirs = await (await browser.newContext()).newPage();
  await theirs.goto(link);
  await expect(theirs.getByRole('status')).toHaveText(`Your e-mail address is now ${fresh}. Sign in with it from now on.`);
  // The manager's open list follows, live.
  const moved = page.getByTestId('user-row').filter({ hasText: fresh });
  await expect(moved).toContainText('Mo Mover');
  await expect(moved).not.toContainText('waits for its confirmation');
  // A second visit finds the link spent.
  await theirs.goto(link);
  await expect(theirs.getByRole('alert')).toHaveText('This confirmation link was already used or expired. Ask a manager to change the address again.');
  await theirs.context().close();
});

test("a MANAGER_EMAILS manager's address cannot be edited here", async ({ page }) => {
  await signIn(page, MANAGER);
  await page.goto('/dashboard/management');
  const row = page.getByTestId('user-row').filter({ hasText: MANAGER });
  await row.getByRole('button', { name: `Edit ${MANAGER}` }).click();
  const field = page.getByRole('dialog', { name: 'Edit User' }).getByLabel('Email');
  await expect(field).toBeDisabled();
  await expect(field).toHaveAccessibleDescription('Set by configuration (MANAGER_EMAILS).');
});

test("a store manager sees only what she may change of a salesman shared with another store, and an address she changes waits for its owner's own link", async ({
  browser,
}) => {
  const north = await ownStore(browser, 'North Motors');
  const bay = await ownStore(browser, 'Bay Motors');
  const sharon = await north.add('sharon', 'Sharon Shared');
  const both = await north.boss.request.patch(`/api/users/${sharon.id}`, {
    data: { email: sharon.email, stores: [north.code, bay.code] },
    headers: north.there,
  });
  expect(both.ok(), await both.text()).toBeTruthy();
  const oscar = await north.add('oscar', 'Oscar Own');
  const grace = await north.person('grace', 'Grace North', 'manager');
  await grace.goto(north.at('/dashboard/management'));

  await grace.getByRole('button', { name: `Edit ${sharon.email}` }).click();
  const dialog = grace.getByRole('dialog', { name: 'Edit User' });
  for (const field of ['Email', 'Name', 'Role']) await expect(dialog.getByLabel(field)).toBeDisabled();
  await expect(dialog.getByTestId('shared-note')).toHaveText(`${SHARED_PERSON} They work at ${north.code}, ${bay.code}.`);
  await expect(dialog.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Sign out everywhere' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const fresh = `oscar.new.${stamp()}@e2e.test`;
  await grace.getByRole('button', { name: `Edit ${oscar.email}` }).click();
  await expect(dialog.getByText(`A new address takes effect when Oscar Own opens the link we mail to ${oscar.email}.`)).toBeVisible();
  await dialog.getByLabel('Email').fill(fresh);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(grace.getByText(`User profile updated. A confirmation link went to ${oscar.email}: the address changes when it is opened.`)).toBeVisible();
  const row = grace.getByTestId('user-row').filter({ hasText: oscar.email });
  await expect(row).toContainText(`New address ${fresh} waits for its confirmation.`);

  // The link is his, at the address he has; the one she typed has nothing to open.
  const link = await confirmLink(oscar.email);
  expect(mailsTo(fresh)).toEqual([]);
  const his = await (await browser.newContext()).newPage();
  await his.goto(link);
  await expect(his.getByRole('status')).toHaveText(`Your e-mail address is now ${fresh}. Sign in with it from now on.`);
  await expect(grace.getByTestId('user-row').filter({ hasText: fresh })).toContainText('Oscar Own');
  await his.context().close();
});
