import { expect, test, type Page } from '@playwright/test';
import { makeNextUp, personPage, unique, uniqueEmail } from './support/people';
import { today } from './support/clock';

/**
 * Issue #29: Stats → Funnel. A salesman's lead is contacted and sold; his own funnel page follows
 * live to 1 sold, and the manager's funnel has his row with a closing ratio of 100% (1), its CSV
 * the same. Pictures at 375 and 1280 px, light and dark, when FUNNEL_SHOTS names a folder.
 */

const MANAGER = 'manager@e2e.test';
const SHOTS = process.env.FUNNEL_SHOTS;

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((s) => document.documentElement.setAttribute('data-mantine-color-scheme', s), scheme);
    await page.screenshot({ path: `${SHOTS}/funnel-${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
}

test("the funnel shows a sold lead: live on the salesman's page, in the manager's table, chart and CSV, on a phone too", async ({ browser }) => {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const name = unique('Fenna Funnel');
  const seller = await personPage(browser, uniqueEmail('fenna'), name);
  await makeNextUp(boss, name);
  const customer = unique('Funnel buyer');
  const handed = await boss.request.post('/api/rotation/assign', { data: { customer } });
  expect((await handed.json()).assignedTo.name).toBe(name);
  const lead = (await handed.json()).leadId as number;

  // His own funnel: one lead, none sold yet.
  await seller.goto('/dashboard/stats/funnel');
  await expect(seller.getByRole('heading', { name: 'Funnel', level: 1 })).toBeVisible();
  const mine = seller.getByTestId('funnel-row').filter({ hasText: name });
  await expect(mine).toContainText('0%');
  await expect(seller.getByRole('columnheader', { name: 'Closing ratio' })).toBeVisible();

  const contact = await seller.request.post(`/api/leads/${lead}/contact`, { data: { channel: 'Call', outcome: 'Talked' } });
  expect(contact.status(), await contact.text()).toBe(200);
  const sold = await seller.request.post(`/api/leads/${lead}/sold`, {
    data: { actionId: unique('sold').replace(/\W/g, ''), date: today(), frontGross: '2,000', vehicleType: 'new', split: 'full' },
  });
  expect(sold.status(), await sold.text()).toBe(200);

  // Live: the event stream refreshes his page to 1 sold of 1.
  const closing = mine.getByRole('cell').nth(5);
  await expect(closing).toHaveText('100%(1)');
  await expect(seller.getByTestId('funnel-summary')).toContainText('Sold 1');

  // The manager: Stats → Funnel from the menu, his row among everyone's; by source too.
  await boss.goto('/dashboard/overview');
  await boss.getByRole('button', { name: 'Stats' }).click();
  await boss.getByRole('link', { name: 'Funnel' }).click();
  await expect(boss).toHaveURL(/\/dashboard\/stats\/funnel$/);
  const row = boss.getByTestId('funnel-row').filter({ hasText: name });
  await expect(row.getByRole('cell').nth(1)).toHaveText('1');
  await expect(row.getByRole('cell').nth(5)).toHaveText('100%(1)');
  await expect(
    boss
      .getByRole('img', { name: /Sold \d+/ })
      .locator('svg')
      .first(),
  ).toBeVisible();
  await shoot(boss, '1280');

  const csvHref = await boss.getByRole('link', { name: 'CSV' }).getAttribute('href');
  const csv = await (await boss.request.get(csvHref!)).text();
  expect(csv.split('\r\n').find((l) => l.startsWith(name))).toMatch(/^[^,]+,1,1,100,0,0,0,0,1,100,/);

  await boss.getByText('By source').click();
  await expect(boss).toHaveURL(/by=source/);
  await expect(boss.getByRole('columnheader', { name: 'Source' })).toBeVisible();

  // A phone: cards, nothing sideways.
  await boss.getByText('By salesman').click();
  await boss.setViewportSize({ width: 375, height: 800 });
  const card = boss.getByTestId('funnel-row').filter({ hasText: name });
  await expect(card).toContainText('Closing ratio');
  await expect(card).toContainText('100%(1)');
  expect(await boss.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth)).toBeLessThanOrEqual(0);
  await shoot(boss, '375');

  // A period that is not one says so.
  await boss.goto('/dashboard/stats/funnel?from=2026-03-10&to=2026-03-01');
  await expect(boss.getByText('From must be on or before To')).toBeVisible();
  for (const p of [boss, seller]) await p.context().close();
});
