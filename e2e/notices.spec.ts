import { expect, test, type Locator, type Page } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';

const MANAGER = 'manager@e2e.test';

/** Picks an option of a Mantine select by its label. */
async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a salesman chooses what reaches him per kind, or follows the default his manager sets under Dealership rules', async ({ browser }) => {
  const rep = await personPage(browser, uniqueEmail('choices'), unique('Cho'), { onFloor: false });
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  try {
    await rep.goto('/dashboard/settings');
    const mine = rep.getByTestId('notice-choices');
    await expect(mine.getByRole('heading', { name: 'What reaches you' })).toBeVisible();
    for (const label of ['New lead', 'You’re up next', 'Time running out', 'Appointments'])
      await expect(mine.getByRole('combobox', { name: label })).toHaveValue('Push');
    await expect(mine.getByText('The dealership’s choices.')).toBeVisible();

    await choose(rep, mine, 'New lead', 'Text');
    await expect(rep.getByText('Saved: this is what reaches you now.')).toBeVisible();
    await rep.reload();
    await expect(mine.getByRole('combobox', { name: 'New lead' })).toHaveValue('Text');
    await expect(mine.getByText('Your own choices.')).toBeVisible();

    // The manager's default: what those who follow it get.
    await boss.goto('/dashboard/management');
    const rules = boss.getByRole('form', { name: 'Dealership rules' });
    await choose(boss, rules, 'You’re up next', 'None');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(boss.getByText('Dealership rules saved.')).toBeVisible();
    await expect(boss.getByTestId('rule-change').first()).toContainText('What reaches salesmen');
    await expect(boss.getByTestId('rule-change').first()).toContainText('You’re up next None');

    await mine.getByRole('button', { name: 'Use the dealership’s' }).click();
    await expect(rep.getByText('Back to the dealership’s choices.')).toBeVisible();
    await expect(mine.getByRole('combobox', { name: 'New lead' })).toHaveValue('Push');
    await expect(mine.getByRole('combobox', { name: 'You’re up next' })).toHaveValue('None');
  } finally {
    // Other specs find the default as it was.
    await boss.request.patch('/api/rules', { data: { notify: { lead: 'push', up_next: 'push', time_left: 'push', appointment: 'push' } } });
    await rep.context().close();
    await boss.context().close();
  }
});
