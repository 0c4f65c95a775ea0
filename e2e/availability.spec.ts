import { expect, test } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { layoutProblems } from './support/layout';
import { formatMonthDay } from '../domain/format';

const MANAGER = 'manager@e2e.test';

test('a salesman takes today off in Settings and the Routing screen shows him out of line, "Off <date>"', async ({ browser }) => {
  const name = unique('Vera');
  const rep = await personPage(browser, uniqueEmail('vera'), name);
  await rep.setViewportSize({ width: 375, height: 800 });
  await rep.goto('/dashboard/settings');
  const card = rep.getByRole('region', { name: 'Availability' });
  await expect(card.getByTestId('availability-now')).toHaveText('Available now');
  // Today on the store's clock: the earliest day the form offers.
  const first = card.getByLabel('First day off');
  const today = await first.getAttribute('min');
  expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await first.fill(today!);
  await card.getByLabel('Note').fill('Dentist');
  await card.getByRole('button', { name: 'Add time off' }).click();
  const off = `Off ${formatMonthDay(today!)}`;
  await expect(card.getByTestId('time-off')).toHaveText(`${off} · Dentist`);
  await expect(card.getByTestId('availability-now')).toHaveText(off);
  expect(await layoutProblems(rep)).toEqual([]);

  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await boss.goto('/dashboard/routing');
  const row = boss.getByTestId('team-row').filter({ hasText: name });
  await expect(row.getByTestId('place')).toHaveText(off);

  // The manager opens his availability from the row and gives the day back: he is in line again.
  await row.getByRole('button', { name: `Availability of ${name}` }).click();
  const dialog = boss.getByRole('dialog');
  await dialog.getByRole('button', { name: `Remove ${off}` }).click();
  await expect(dialog.getByTestId('availability-now')).toHaveText('Available now');
  await boss.keyboard.press('Escape');
  await expect(row.getByTestId('place')).toHaveText(/^#\d+$/);

  await rep.context().close();
  await boss.context().close();
});
