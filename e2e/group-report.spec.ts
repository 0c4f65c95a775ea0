import { axe } from './support/axe';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { uniqueCode } from './support/store';
import { dayKey } from '../domain/time';

const MANAGER = 'manager@e2e.test';

/** A code nobody else in the run uses: 2 to 8 capitals and digits. */

/** Where to keep pictures of the report (GROUP_REPORT_SHOTS=/tmp/shots), for a person to look at; unset, none. */
const SHOTS = process.env.GROUP_REPORT_SHOTS;

/** What axe finds serious or critical in the group report. */
async function seriousProblems(page: Page) {
  const scanned = await axe(page).include('[aria-labelledby="group-report-title"]').analyze();
  return scanned.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Two new stores of the spec's own on clocks a day apart, a salesman of each on its floor; in
 * the east store two ups, one sold for $2,500, in the west one up and a $900 sale of no lead.
 */
async function twoStores(browser: Browser) {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const home: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  const stores = [
    { name: unique('Eastgate Honda'), code: uniqueCode('E'), timezone: 'Pacific/Kiritimati', gross: '2500', ups: 2 },
    { name: unique('Westgate Kia'), code: uniqueCode('W'), timezone: 'America/Chicago', gross: '900', ups: 1 },
  ];
  const reps: Page[] = [];
  for (const [i, s] of stores.entries()) {
    const made = await boss.request.post('/api/stores', { data: { name: s.name, code: s.code, timezone: s.timezone } });
    expect(made.status(), await made.text()).toBe(201);
    const name = unique(['Evan', 'Wes'][i]);
    const email = uniqueEmail(name.split(' ')[0].toLowerCase());
    const res = await boss.request.post('/api/users', { data: { email, name, role: 'staff', stores: [s.code] }, headers: { 'x-store': s.code } });
    expect(res.ok(), await res.text()).toBe(true);
    const rep = await personPage(browser, email, name);
    reps.push(rep);
    const leads: number[] = [];
    for (let n = 0; n < s.ups; n++) {
      const up = await boss.request.post('/api/rotation/assign', { data: { customer: unique('Report') }, headers: { 'x-store': s.code } });
      expect(up.ok(), await up.text()).toBe(true);
      leads.push((await up.json()).leadId);
    }
    // In the east the sale closes a lead (its Sold); in the west it is a walk-in's, with no lead.
    const data = { date: dayKey(new Date(), s.timezone), vehicleType: 'new', frontGross: s.gross, split: 'full' };
    const sale =
      s.ups > 1
        ? await rep.request.post(`/api/leads/${leads[0]}/sold`, { data: { ...data, actionId: `report-${leads[0]}` }, headers: { 'x-store': s.code } })
        : await rep.request.post('/api/sales', { data, headers: { 'x-store': s.code } });
    expect(sale.ok(), await sale.text()).toBe(true);
  }
  const done = async () => {
    await boss.request.put('/api/profile/store', { data: { code: home } });
    for (const p of [...reps, boss]) await p.context().close();
  };
  return { boss, east: stores[0], west: stores[1], done };
}

test('a group manager filters the group report to his stores: each store a row, the group total their sum, one store alone its own total', async ({
  browser,
}) => {
  const { boss, east, west, done } = await twoStores(browser);
  try {
    await boss.goto('/group');
    const report = boss.getByRole('region', { name: 'Group report' });
    await expect(report.getByRole('heading', { name: 'Lead KPIs' })).toBeVisible();
    const filter = report.getByRole('combobox', { name: 'Stores' });
    await expect(filter).toHaveAttribute('placeholder', 'All stores');

    // The two new stores, chosen in the filter.
    for (const s of [east, west]) {
      await filter.click();
      await filter.fill(s.code);
      await boss.getByRole('option', { name: `${s.name} (${s.code})` }).click();
    }
    const rows = (part: string) => report.getByTestId(`group-report-${part}-row`);
    const total = (part: string) => report.getByTestId(`group-report-${part}-total`);
    const cell = (row: ReturnType<typeof total>, key: string) => row.getByTestId(new RegExp(`^group-report-\\w+-${key}$`));
    await expect(rows('kpis')).toHaveCount(2);
    await expect(rows('kpis').nth(0)).toHaveAttribute('data-store', east.code);
    await expect(rows('kpis').nth(1)).toHaveAttribute('data-store', west.code);
    await expect(cell(total('kpis'), 'received')).toHaveText('3');
    await expect(cell(total('kpis'), 'closed')).toHaveText('1');
    await expect(cell(total('kpis'), 'closePct')).toHaveText('33%');
    await expect(total('kpis')).toContainText('Group total');
    await expect(cell(total('floor'), 'ups')).toHaveText('3');
    await expect(cell(total('sales'), 'units')).toHaveText('2');
    // $2,500 at 30% and $900 at the $75 mini.
    await expect(cell(total('sales'), 'commission')).toHaveText('$825.00');
    await expect(cell(total('sales'), 'gross')).toHaveText('$3,400.00');
    await expect(report.getByTestId('group-report-salesman')).toHaveCount(2);
    // The funnel: this month's leads of each store (two and one, none contacted yet), the total their
    // sum; the one sold is the close the lead figures count: one meaning of a close.
    await expect(report.getByRole('heading', { name: 'Funnel' })).toBeVisible();
    await expect(cell(rows('funnel').nth(0), 'leads')).toHaveText('2');
    await expect(cell(rows('funnel').nth(1), 'leads')).toHaveText('1');
    await expect(cell(total('funnel'), 'leads')).toHaveText('3');
    await expect(cell(total('funnel'), 'contacted')).toHaveText('0% (0)');
    await expect(cell(total('funnel'), 'sold')).toHaveText('33.3% (1)');
    await expect(cell(total('funnel'), 'firstContact')).toHaveText('—');
    // The CSV link names the chosen stores.
    await expect(report.getByRole('link', { name: 'CSV' })).toHaveAttribute('href', `/api/group/report.csv?stores=${east.code}%2C${west.code}`);

    // Nothing serious for a screen reader or the eye in the report.
    expect(await seriousProblems(boss)).toEqual([]);

    // Live: an up in the west store, assigned elsewhere, reaches the total.
    const up = await boss.request.post('/api/rotation/assign', { data: { customer: unique('Live') }, headers: { 'x-store': west.code } });
    expect(up.ok()).toBe(true);
    await expect(cell(total('kpis'), 'received')).toHaveText('4');
    await expect(cell(total('kpis'), 'closePct')).toHaveText('25%');
    await expect(cell(total('funnel'), 'leads')).toHaveText('4');

    // The funnel of other days: none received then; the CSV asks for the same days; a period that is not one says so.
    const from = report.getByLabel('Funnel from');
    const to = report.getByLabel('Funnel to');
    await from.fill('2020-01-01');
    await to.fill('2020-01-31');
    await expect(cell(total('funnel'), 'leads')).toHaveText('0');
    await expect(cell(total('kpis'), 'received')).toHaveText('4');
    await expect(rows('funnel').nth(0)).toContainText('Jan 1, 2020');
    await expect(report.getByRole('link', { name: 'CSV' })).toHaveAttribute('href', /from=2020-01-01&to=2020-01-31/);
    await from.fill('2020-02-15');
    await expect(report.getByText('From must be on or before To')).toBeVisible();
    await from.fill('');
    await to.fill('');
    await expect(cell(total('funnel'), 'leads')).toHaveText('4');

    if (SHOTS)
      for (const width of [1280, 375])
        for (const mode of ['light', 'dark'] as const) {
          await boss.setViewportSize({ width, height: 900 });
          await boss.emulateMedia({ colorScheme: mode });
          await boss.evaluate((m) => localStorage.setItem('mantine-color-scheme-value', m), mode);
          await boss.reload();
          await expect(report.getByRole('heading', { name: 'Lead KPIs' })).toBeVisible();
          for (const s of [east, west]) {
            await filter.click();
            await filter.fill(s.code);
            await boss.getByRole('option', { name: `${s.name} (${s.code})` }).click();
          }
          await expect(cell(total('kpis'), 'received')).toHaveText('4');
          await boss.keyboard.press('Escape');
          await boss.screenshot({ path: `${SHOTS}/group-report-${width}-${mode}.png`, fullPage: true });
        }

    // The west store taken out: the east alone, and the total is the east's.
    await filter.click();
    await boss.keyboard.press('Backspace');
    await boss.keyboard.press('Escape');
    await expect(rows('kpis')).toHaveCount(1);
    await expect(rows('kpis')).toHaveAttribute('data-store', east.code);
    await expect(cell(total('kpis'), 'received')).toHaveText('2');
    await expect(cell(total('kpis'), 'closePct')).toHaveText('50%');
    await expect(cell(total('sales'), 'commission')).toHaveText('$750.00');
    await expect(report.getByTestId('group-report-salesman')).toHaveCount(1);

    // On a phone: cards, and nothing wider than the screen.
    await boss.setViewportSize({ width: 375, height: 740 });
    await expect(report.getByRole('table')).toHaveCount(0);
    await expect(cell(total('kpis'), 'received')).toHaveText('2');
    // (The navigation slides away as the window narrows: the page settles within a moment.)
    await expect.poll(() => boss.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // The cards in the dark, as a screen reader and the eye meet them.
    await boss.emulateMedia({ colorScheme: 'dark' });
    await boss.evaluate(() => localStorage.setItem('mantine-color-scheme-value', 'dark'));
    await boss.reload();
    await expect(total('kpis')).toBeVisible();
    expect(await seriousProblems(boss)).toEqual([]);
  } finally {
    await done();
  }
});

test('a salesman of two stores turns on All my stores: his sales of both, each with its store, summed, read-only', async ({ browser }) => {
  const { boss, east, west, done } = await twoStores(browser);
  const name = unique('Bea Both');
  const email = uniqueEmail('bea');
  const made = await boss.request.post('/api/users', {
    data: { email, name, role: 'staff', stores: [east.code, west.code] },
    headers: { 'x-store': east.code },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const bea = await personPage(browser, email, name, { onFloor: false });
  try {
    for (const [s, gross] of [
      [east, '3000'],
      [west, '1500'],
    ] as const) {
      const sale = await bea.request.post('/api/sales', {
        data: { date: dayKey(new Date(), s.timezone), vehicleType: 'used', frontGross: gross, split: 'full' },
        headers: { 'x-store': s.code },
      });
      expect(sale.status(), await sale.text()).toBe(201);
    }
    await bea.goto(`/s/${east.code}/dashboard/stats/sales`);
    await expect(bea.getByTestId('sale-row')).toHaveCount(1);
    await bea.getByRole('switch', { name: 'All my stores' }).click();
    await expect(bea).toHaveURL(/\?stores=all$/);
    await expect(bea.getByTestId('all-stores')).toContainText(east.name);
    await expect(bea.getByTestId('sale-row')).toHaveCount(2);
    await expect.poll(async () => (await bea.getByTestId('sale-store').allTextContents()).sort()).toEqual([east.code, west.code].sort());
    // $3,000 at 35% and $1,500 at the $100 mini.
    await expect(bea.getByTestId('mtd-units')).toHaveText('2');
    await expect(bea.getByTestId('mtd-commission')).toHaveText('$1,150.00');
    await expect(bea.getByRole('heading', { name: 'Add Sale' })).toHaveCount(0);
    await expect(bea.getByRole('button', { name: /^Edit / })).toHaveCount(0);
    await expect(bea.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/sales/export.csv?store=*');
    if (SHOTS)
      for (const width of [1280, 375]) {
        await bea.setViewportSize({ width, height: 900 });
        await expect(bea.getByTestId('sale-store')).toHaveCount(2);
        await bea.screenshot({ path: `${SHOTS}/all-my-stores-${width}.png`, fullPage: true });
      }
  } finally {
    await bea.context().close();
    await done();
  }
});
