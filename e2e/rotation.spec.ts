import { expect, test, type Page } from '@playwright/test';
import { makeNextUp, personPage, unique } from './support/people';

const MANAGER = 'manager@e2e.test';

async function managerOnRouting(page: Page) {
  await page.goto('/dashboard/routing');
  await expect(page.getByRole('heading', { name: 'Round Robin (Manager)' })).toBeVisible();
}

test('a manager assigns the next customer and everyone sees it live', async ({ browser }) => {
  const repName = unique('Rita');
  const rep = await personPage(browser, `rita.${Date.now()}@e2e.test`, repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await managerOnRouting(boss);

  // The salesman's overview is open in another browser and is not reloaded.
  await rep.goto('/dashboard/overview');
  await expect(rep.getByRole('heading', { name: 'Round Robin' })).toBeVisible();
  await expect(rep.getByTestId('your-position')).toHaveText(/^#\d+$/);

  const assign = boss.getByRole('button', { name: 'Assign next' });
  await expect(assign).toBeDisabled();
  // Others may be on the floor of the shared database: hand out walk-ins until ours is Next Up,
  // and both open screens say so without a reload.
  await makeNextUp(boss, repName);
  await expect(rep.getByTestId('next-up')).toHaveText(repName);
  await expect(rep.getByTestId('your-position')).toHaveText('#1');
  await expect(boss.locator('[aria-current="true"]')).toContainText(repName);

  const customer = unique('Customer');
  await boss.getByLabel('Customer name').fill(customer);
  await expect(assign).toBeEnabled();
  await assign.click();
  await expect(boss.getByTestId('log-entry').first()).toContainText(`${repName} → ${customer}`);
  await expect(rep.getByTestId('log-entry').filter({ hasText: `${repName} → ${customer}` })).toBeVisible();
  await rep.context().close();
  await boss.context().close();
});

test('a skip with a reason shows "(reason)" and the salesman leaves the queue', async ({ browser }) => {
  const name = unique('Sid');
  const rep = await personPage(browser, `sid.${Date.now()}@e2e.test`, name);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await managerOnRouting(boss);
  await expect(boss.getByTestId('team-row').filter({ hasText: name })).toBeVisible();

  await boss.getByRole('button', { name: 'Skip' }).click();
  await expect(boss.getByText('Select a user to skip')).toBeVisible();
  await expect(boss.getByText('Reason required')).toBeVisible();

  await boss.getByRole('combobox', { name: 'Salesman to skip' }).fill(name);
  await boss.getByRole('option', { name }).click();
  await boss.getByLabel('Reason').fill('At lunch');
  await boss.getByRole('button', { name: 'Skip' }).click();
  await expect(boss.getByTestId('log-entry').first()).toHaveText(new RegExp(`${name} \\(At lunch\\)`));
  await expect(boss.getByTestId('team-row').filter({ hasText: name })).toContainText('Snoozed until');

  await rep.goto('/dashboard/overview');
  await expect(rep.getByTestId('your-position')).toHaveText('Not in rotation');
  await expect(rep.getByTestId('queue-row').filter({ hasText: name })).toHaveCount(0);
  await rep.context().close();
  await boss.context().close();
});

test('an arrow moves a salesman one place in the line; toggling on duty takes a salesman out and back in', async ({ browser }) => {
  const a = unique('Ava');
  const b = unique('Bo');
  const repA = await personPage(browser, `ava.${Date.now()}@e2e.test`, a);
  const repB = await personPage(browser, `bo.${Date.now()}@e2e.test`, b);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  // Ava is Next Up, Bo (who clocked in after her) second.
  await makeNextUp(boss, a);
  await managerOnRouting(boss);
  const rows = boss.getByTestId('team-row');
  const names = async () => (await rows.allTextContents()).map((t) => (t.includes(a) ? 'A' : t.includes(b) ? 'B' : '')).filter(Boolean);
  await expect.poll(names).toEqual(['A', 'B']);
  await boss.getByRole('button', { name: `Move ${b} up` }).click();
  await expect(boss.getByText(`${b} is now #1`)).toBeVisible();
  await expect.poll(names).toEqual(['B', 'A']);
  await expect(boss.locator('[aria-current="true"]')).toContainText(b);

  const onDuty = boss.getByRole('switch', { name: `On duty: ${a}` });
  // From the keyboard: with a long line the switch can sit under the move's notification.
  await onDuty.focus();
  await boss.keyboard.press('Space');
  await expect(onDuty).not.toBeChecked();
  await expect(rows.filter({ hasText: a })).toContainText('Off duty');
  await repA.goto('/dashboard/overview');
  await expect(repA.getByTestId('your-position')).toHaveText('Not in rotation');
  await onDuty.focus();
  await boss.keyboard.press('Space');
  await expect(onDuty).toBeChecked();
  await expect(repA.getByTestId('your-position')).toHaveText(/^#\d+$/);
  for (const p of [repA, repB, boss]) await p.context().close();
});

test('staff see the read-only routing view', async ({ browser }) => {
  const rep = await personPage(browser, `reader.${Date.now()}@e2e.test`, unique('Reader'));
  await rep.goto('/dashboard/routing');
  await expect(rep.getByRole('heading', { name: 'Round Robin', exact: true })).toBeVisible();
  await expect(rep.getByTestId('my-place')).toHaveText(/^You are #\d+$/);
  await expect(rep.getByRole('button', { name: 'Assign next' })).toHaveCount(0);
  await expect(rep.getByRole('heading', { name: 'Recent actions' })).toBeVisible();
  const res = await rep.request.post('/api/rotation/assign', { data: { customer: 'Sneaky' } });
  expect(res.status()).toBe(403);
  await rep.context().close();
});
