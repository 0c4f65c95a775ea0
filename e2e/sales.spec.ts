import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/session';
import { assignUntil, personPage, unique as uniqueName } from './support/people';
import { dayKey } from '../domain/time';

const MANAGER = 'manager@e2e.test';
const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@e2e.test`;

async function openTracker(page: Page, email: string) {
  await signIn(page, email);
  await page.goto('/dashboard/stats');
  await expect(page).toHaveURL(/\/dashboard\/stats\/sales$/);
  await expect(page.getByRole('heading', { name: 'Sales Tracker' })).toBeVisible();
}

const form = (page: Page) => page.getByRole('form', { name: 'Add Sale' });

async function addSale(page: Page, sale: { gross: string; used?: boolean; half?: boolean; date?: string }, viaEnter = false) {
  const f = form(page);
  if (sale.date) await f.getByLabel('Date').fill(sale.date);
  await f.getByRole('radio', { name: sale.used ? 'Used' : 'New' }).check();
  await f.getByRole('radio', { name: sale.half ? '50/50' : 'Full' }).check();
  await f.getByLabel('Front gross ($)').fill(sale.gross);
  if (viaEnter) await f.getByLabel('Front gross ($)').press('Enter');
  else await f.getByRole('button', { name: 'Add Sale' }).click();
  await expect(page.getByText('Sale saved.').last()).toBeVisible();
  await expect(f.getByLabel('Front gross ($)')).toHaveValue('');
}

test("the form refuses a date after today or before 2000 with the server's own message, and a field's focus throws nothing", async ({ page }) => {
  const thrown: string[] = [];
  page.on('pageerror', (e) => thrown.push(e.message));
  await openTracker(page, unique('dates'));
  const f = form(page);
  await f.getByLabel('Front gross ($)').fill('1500');
  await f.getByLabel('Date').fill('9999-12-31');
  await expect(f.getByLabel('Date')).toHaveAccessibleDescription('Date cannot be in the future.');
  await expect(f.getByRole('button', { name: 'Add Sale' })).toBeDisabled();
  await f.getByLabel('Date').fill('1999-12-31');
  await expect(f.getByText('Date cannot be before 2000.')).toBeVisible();
  await expect(f.getByRole('button', { name: 'Add Sale' })).toBeDisabled();
  await f.getByLabel('Date').fill('2000-01-01');
  await f.getByRole('button', { name: 'Add Sale' }).click();
  await expect(page.getByText('Sale saved.').last()).toBeVisible();
  expect(thrown).toEqual([]);
});

const todayRow = (page: Page, today: string) => page.getByRole('table', { name: 'Commission per day this month' }).getByRole('row', { name: today });

test('a salesman adds three sales and sees the list, MTD figures and the chart change', async ({ page }) => {
  await openTracker(page, unique('seller'));
  const today = dayKey(new Date(), process.env.APP_TIMEZONE || 'America/New_York');
  const f = form(page);
  await expect(f.getByLabel('Date')).toHaveValue(today);
  await expect(f.getByRole('radio', { name: 'New' })).toBeChecked();
  await expect(f.getByRole('radio', { name: 'Full' })).toBeChecked();
  await expect(f.getByRole('button', { name: 'Add Sale' })).toBeDisabled();
  await expect(page.getByText('No sales logged yet.')).toBeVisible();
  await expect(page.getByTestId('mtd-units')).toHaveText('0');
  await expect(todayRow(page, today)).toContainText('$0.00');

  await f.getByLabel('Front gross ($)').fill('2500');
  await f.getByRole('radio', { name: '50/50' }).check();
  await expect(page.getByTestId('add-preview')).toHaveText('Commission: $375.00 (30% · 50/50)');

  await addSale(page, { gross: '1500' });
  await expect(page.getByTestId('mtd-units')).toHaveText('1');
  await expect(todayRow(page, today)).toContainText('$100.00');

  await addSale(page, { gross: '2500', used: true, half: true }, true);
  await addSale(page, { gross: '800' });

  const rows = page.getByTestId('sale-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('$800.00');
  await expect(rows.nth(0).getByTestId('sale-plan')).toHaveText('Mini $75');
  await expect(rows.nth(0).getByTestId('sale-commission')).toHaveText('$75.00');
  await expect(rows.nth(1)).toContainText('Used');
  await expect(rows.nth(1).getByTestId('sale-plan')).toHaveText('30% · 50/50');
  await expect(rows.nth(1).getByTestId('sale-commission')).toHaveText('$375.00');
  await expect(rows.nth(2).getByTestId('sale-plan')).toHaveText('Mini $100');

  await expect(page.getByTestId('mtd-units')).toHaveText('3');
  await expect(page.getByTestId('mtd-gross')).toHaveText('$4,800.00');
  await expect(page.getByTestId('mtd-commission')).toHaveText('$550.00');
  await expect(page.getByTestId('ytd-units')).toHaveText('3');
  await expect(todayRow(page, today)).toContainText('$550.00');
  await expect(page.getByTestId('daily-summary')).toHaveText('Commission per day this month: $550.00 over 1 day with sales.');
  await expect(page.getByTestId('monthly-summary')).toHaveText('Front gross per month this year: $4,800.00 in total.');
  // The line is drawn: one dot per day of the month so far.
  await expect(page.locator('.recharts-line-dot')).toHaveCount(Number(today.slice(8)));
});

test('a refused sale says why under the field and keeps what was typed', async ({ page }) => {
  await openTracker(page, unique('typo'));
  const f = form(page);
  const gross = f.getByLabel('Front gross ($)');
  await gross.fill('12abc');
  await expect(page.getByTestId('add-preview')).toHaveText('Front gross must be a number like 1500 or 1500.50');
  await f.getByRole('button', { name: 'Add Sale' }).click();
  await expect(gross).toHaveAccessibleDescription('Front gross must be a number like 1500 or 1500.50');
  await expect(gross).toHaveAttribute('aria-invalid', 'true');
  await expect(gross).toHaveValue('12abc');
  // The server says the same of the same input, and names the field.
  const res = await page.request.post('/api/sales', { data: { date: '2025-01-05', frontGross: '12abc' } });
  expect([res.status(), await res.json()]).toEqual([400, { error: 'Front gross must be a number like 1500 or 1500.50', field: 'frontGross' }]);
  await gross.fill('1500');
  await f.getByRole('button', { name: 'Add Sale' }).click();
  await expect(page.getByText('Sale saved.').last()).toBeVisible();
  await expect(page.getByTestId('sale-row')).toHaveCount(1);

  // A front gross above the store's amount is asked about first: nothing saved until he says it is right.
  await gross.fill('99,999,999');
  await f.getByRole('button', { name: 'Add Sale' }).click();
  await expect(gross).toHaveAccessibleDescription('Front gross $99,999,999.00 is above $25,000.00. Check the amount, or save it as it is.');
  await expect(page.getByTestId('sale-row')).toHaveCount(1);
  // A question, not a failure: no red message beside it.
  await expect(page.getByText('Failed to save the sale')).toHaveCount(0);
  await f.getByRole('button', { name: 'The amount is right: save it' }).click();
  await expect(page.getByTestId('sale-row')).toHaveCount(2);
  await expect(f.getByRole('button', { name: 'The amount is right: save it' })).toHaveCount(0);
});

test('the CSV export has the exact header and rows', async ({ page }) => {
  await openTracker(page, unique('csv'));
  await addSale(page, { gross: '1,999.99', date: '2025-01-05' });
  await addSale(page, { gross: '2500.10', used: true, half: true, date: '2025-02-01' });
  await expect(page.getByTestId('sale-row')).toHaveCount(2);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('sales_records.csv');
  const text = fs.readFileSync(await download.path(), 'utf8');
  expect(text).toBe(
    'Date,FrontGross,Commission,VehicleType,PlanType,Percent,Flat,Split\r\n' +
      '2025-02-01,2500.1,375.02,used,percent,30,,0.5\r\n' +
      '2025-01-05,1999.99,500,new,percent,25,,1\r\n',
  );
});

test('a salesman corrects a typo in front gross and deletes a sale', async ({ page }) => {
  await openTracker(page, unique('editor'));
  await addSale(page, { gross: '15000' });
  const row = page.getByTestId('sale-row');
  await expect(row.getByTestId('sale-commission')).toHaveText('$5,250.00');

  await row.getByRole('button', { name: /^Edit sale of/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit sale' });
  await expect(dialog.getByLabel('Front gross ($)')).toHaveValue('15000.00');
  await dialog.getByLabel('Front gross ($)').fill('1500');
  await expect(dialog.getByText('Commission: $100.00 (Mini $100)')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('sale-gross')).toHaveText('$1,500.00');
  await expect(row.getByTestId('sale-commission')).toHaveText('$100.00');
  await expect(page.getByTestId('mtd-commission')).toHaveText('$100.00');

  await row.getByRole('button', { name: /^Delete sale of/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete sale' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Delete sale of/ }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No sales logged yet.')).toBeVisible();
  await expect(page.getByTestId('mtd-units')).toHaveText('0');
});

test('a manager views a salesman read-only; a salesman cannot open another tracker', async ({ page, browser }) => {
  const seller = unique('watched');
  await openTracker(page, seller);
  await addSale(page, { gross: '3000' });
  const sellerUrl = page.url();

  const boss = await browser.newPage();
  await openTracker(boss, MANAGER);
  await boss.getByRole('combobox', { name: 'Salesman' }).fill(seller);
  await boss.getByRole('option', { name: new RegExp(seller.replaceAll('.', '\\.')) }).click();
  await expect(boss.getByTestId('read-only')).toContainText(seller);
  await expect(boss.getByTestId('sale-row')).toHaveCount(1);
  await expect(boss.getByTestId('sale-commission')).toHaveText('$1,050.00');
  await expect(boss.getByRole('form', { name: 'Add Sale' })).toHaveCount(0);
  await expect(boss.getByRole('button', { name: /^(Edit|Delete) sale/ })).toHaveCount(0);
  const id = new URL(boss.url()).searchParams.get('user');
  expect(id).toBeTruthy();
  await boss.close();

  const other = await browser.newPage();
  await openTracker(other, unique('nosy'));
  await other.goto(`/dashboard/stats/sales?user=${id}`);
  await expect(other.getByText('You can only see your own sales.')).toBeVisible();
  await expect(other.getByTestId('sale-row')).toHaveCount(0);
  await other.close();
  expect(sellerUrl).toMatch(/\/dashboard\/stats\/sales$/);
});

test('the tracker is usable on a 375 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await openTracker(page, unique('phone'));
  await addSale(page, { gross: '2000', half: true });
  await expect(page.getByTestId('sale-commission')).toHaveText('$300.00');
  // The list comes after the figures and charts: down the page, never sideways.
  const edit = page.getByRole('button', { name: /^Edit sale of/ });
  await edit.scrollIntoViewIfNeeded();
  await expect(edit).toBeInViewport();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a salesman logs a sale from the tracker by choosing his open lead: the lead is Sold, and it is no longer offered', async ({ browser }) => {
  const manager = await personPage(browser, MANAGER, 'Sales Manager');
  const name = uniqueName('Lena');
  const rep = await personPage(browser, unique('lena'), name);
  const [customer, other] = await assignUntil(manager, name, 2, 'Buyer');
  await rep.goto('/dashboard/stats/sales');
  const f = form(rep);
  await rep.getByRole('combobox', { name: 'Lead (optional)' }).click();
  await rep.getByRole('option', { name: customer }).click();
  await expect(rep.getByText(`Customer: ${customer}`)).toBeVisible();
  await expect(f.getByLabel('Customer (optional)')).toHaveCount(0);
  await f.getByLabel('Front gross ($)').fill('1800');
  await f.getByRole('button', { name: 'Save sale' }).click();
  await expect(rep.getByText(`${customer} sold. The sale is in your tracker.`)).toBeVisible();
  await expect(rep.getByTestId('sale-customer').filter({ hasText: customer })).toBeVisible();
  // The lead is Sold: the form offers it no more and goes back to a typed customer.
  await expect(f.getByLabel('Customer (optional)')).toBeVisible();
  const mine = await (await rep.request.get('/api/leads/mine?open=0&limit=50')).json();
  expect(mine.leads.find((l: { customer: string }) => l.customer === customer)).toMatchObject({ stage: 'sold' });
  await rep.getByRole('combobox', { name: 'Lead (optional)' }).click();
  await expect(rep.getByRole('option', { name: other })).toBeVisible();
  await expect(rep.getByRole('option', { name: customer })).toHaveCount(0);
  for (const p of [rep, manager]) await p.context().close();
});
