import { expect, test, type Page } from '@playwright/test';
import { makeNextUp, personPage, unique, uniqueEmail } from './support/people';
import { today } from './support/clock';

/**
 * Issue #29: Stats → Funnel. A salesman's lead is contacted and sold; his own funnel page follows
 * live to 1 sold, and the manager's funnel has his row with a closing ratio of 100% (1), its CSV
 * the same. Tiny numbers read plainly in the chart. Pictures at 375 and 1280 px, light and dark,
 * when FUNNEL_SHOTS names a folder.
 */

const MANAGER = 'manager@e2e.test';
const SHOTS = process.env.FUNNEL_SHOTS;

/** What the chart shows: each step's name and figure, and whether it has a bar. */
async function chart(page: Page) {
  const steps = page.getByTestId('funnel-step');
  const out: [string, string, boolean][] = [];
  for (const step of await steps.all())
    out.push([
      (await step.locator('p').first().innerText()).trim(),
      (await step.getByTestId('funnel-step-figure').innerText()).trim(),
      (await step.getByTestId('funnel-bar').count()) === 1,
    ]);
  return out;
}

/**
 * Every step's name and figure inside the chart's frame, side by side without touching, every bar
 * drawn visible, and no NaN or Infinity on the page (measured at once: the page may still be
 * settling into a new width).
 */
async function readsCleanly(page: Page) {
  const problems = () =>
    page.evaluate(() => {
      const out: string[] = [];
      const box = (e: Element | null) => e!.getBoundingClientRect();
      const frame = box(document.querySelector('[data-testid="funnel-plot"]'));
      for (const step of document.querySelectorAll('[data-testid="funnel-step"]')) {
        const name = box(step.querySelector('p'));
        const figure = box(step.querySelector('[data-testid="funnel-step-figure"]'));
        const what = step.textContent;
        if (name.left < frame.left || figure.right > frame.right + 0.5) out.push(`${what}: outside the frame`);
        if (name.right > figure.left) out.push(`${what}: name and figure overlap`);
        const bar = step.querySelector('[data-testid="funnel-bar"]');
        if (bar && box(bar).width < 6) out.push(`${what}: bar too thin`);
      }
      if (/NaN|Infinity/.test(document.body.innerText)) out.push('NaN or Infinity on the page');
      return out;
    });
  await expect.poll(problems).toEqual([]);
}

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

  // His own funnel: one lead, none contacted yet: a full bar for the lead, none for the steps, no NaN.
  await seller.goto('/dashboard/stats/funnel');
  await expect(seller.getByRole('heading', { name: 'Funnel', level: 1 })).toBeVisible();
  const mine = seller.getByTestId('funnel-row').filter({ hasText: name });
  await expect(mine).toContainText('0%');
  await expect(seller.getByRole('columnheader', { name: 'Closing ratio' })).toBeVisible();
  await expect(seller.getByTestId('funnel-summary')).toHaveText('Leads 1; Contacted 0; Appointment set 0; Shown 0; Sold 0. Closing ratio 0%.');
  const oneLead: [string, string, boolean][] = [
    ['Leads', '1', true],
    ['Contacted', '0 · 0%', false],
    ['Appointment set', '0 · 0%', false],
    ['Shown', '0 · 0%', false],
    ['Sold', '0 · 0%', false],
  ];
  await expect.poll(() => chart(seller)).toEqual(oneLead);
  for (const width of [1280, 375]) {
    await seller.setViewportSize({ width, height: 800 });
    await readsCleanly(seller);
  }
  await seller.setViewportSize({ width: 1280, height: 800 });

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
  await expect
    .poll(() => chart(seller))
    .toEqual([
      ['Leads', '1', true],
      ['Contacted', '1 · 100%', true],
      ['Appointment set', '0 · 0%', false],
      ['Shown', '0 · 0%', false],
      ['Sold', '1 · 100%', true],
    ]);

  // The manager: Stats → Funnel from the menu, his row among everyone's; by source too.
  await boss.goto('/dashboard/overview');
  // The Stats group opens first: a click on its link before it has lands nowhere.
  const stats = boss.getByRole('button', { name: 'Stats' });
  await stats.click();
  await expect(stats).toHaveAttribute('aria-expanded', 'true');
  await boss.locator('a[href$="/dashboard/stats/funnel"]').click();
  await expect(boss).toHaveURL(/\/dashboard\/stats\/funnel$/);
  const row = boss.getByTestId('funnel-row').filter({ hasText: name });
  await expect(row.getByRole('cell').nth(1)).toHaveText('1');
  await expect(row.getByRole('cell').nth(5)).toHaveText('100%(1)');
  await expect(boss.getByTestId('funnel-summary')).toContainText(/Sold \d+/);
  await readsCleanly(boss);
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
  // (The navigation slides away as the window narrows: the page settles within a moment.)
  await expect.poll(() => boss.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth)).toBeLessThanOrEqual(0);
  await readsCleanly(boss);
  await shoot(boss, '375');

  // A period with no leads says so, and draws no funnel.
  await boss.goto('/dashboard/stats/funnel?from=2020-01-01&to=2020-01-31');
  await expect(boss.getByText('No leads were received in this period.')).toBeVisible();
  await expect(boss.getByTestId('funnel-plot')).toHaveCount(0);

  // A period that is not one says so.
  await boss.goto('/dashboard/stats/funnel?from=2026-03-10&to=2026-03-01');
  await expect(boss.getByText('From must be on or before To')).toBeVisible();
  for (const p of [boss, seller]) await p.context().close();
});
