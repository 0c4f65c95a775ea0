import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { uniqueCode } from './support/store';
import { E2E_TZ, today } from './support/clock';
import { animationsDone, noSidewaysScroll } from './support/settle';
import { formatDay } from '../domain/format';

const MANAGER = 'manager@e2e.test';
const SHOTS = path.join('test-results', 'payplans');

/** A code nobody else in the run uses. */

const HIDE_OVERLAYS = 'header, .mantine-Notifications-root { visibility: hidden !important; }';

/** The page at 375 and 1280 px, light and dark: no sideways scroll on the phone; a screenshot of each. */
async function shoot(page: Page, name: string, section: Locator) {
  for (const mode of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: mode, reducedMotion: 'reduce' });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await animationsDone(page);
      if (width === 375) await noSidewaysScroll(page);
      // The section alone, without the header or a notification laid over it.
      await section.screenshot({ path: path.join(SHOTS, `${name}-${mode}-${width}.png`), animations: 'disabled', style: HIDE_OVERLAYS });
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

// A store of the spec's own: a plan set here pays no other spec's sales.
test('a manager sets a pay plan from today; his salesman sees it on his Sales page and his next sale is paid by it', async ({ browser }) => {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const home: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  const store = { name: unique('Payplan Ford'), code: uniqueCode('P'), timezone: E2E_TZ };
  expect((await boss.request.post('/api/stores', { data: store })).status()).toBe(201);
  const repName = unique('Paula');
  const repEmail = uniqueEmail('paula');
  const made = await boss.request.post('/api/users', {
    data: { email: repEmail, name: repName, role: 'staff', stores: [store.code] },
    headers: { 'x-store': store.code },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const rep = await personPage(browser, repEmail, repName);
  try {
    await boss.goto(`/s/${store.code}/dashboard/management`);
    const section = boss.getByRole('region', { name: 'Pay plan' });
    await expect(section.getByText('Paying now (the standard plan)')).toBeVisible();
    const form = section.getByRole('form', { name: 'Pay plan' });
    await expect(form.getByLabel('Effective from')).toHaveValue(today());

    // A tier that starts below the one before it: the server's own words (the same schema), at the tier.
    await form.getByRole('group', { name: 'Tier 1' }).getByLabel('Amount ($)').fill('150');
    await form.getByLabel('Tier 3 from ($)').fill('900');
    await form.getByRole('button', { name: 'Save pay plan' }).click();
    await expect(form.getByText('Tier 3 must start above tier 2 ($1,000.00): tiers go up')).toBeVisible();
    await form.getByLabel('Tier 3 from ($)').fill('1701');
    await form.getByRole('button', { name: 'Save pay plan' }).click();
    await expect(boss.getByText('Pay plan saved.').last()).toBeVisible();
    await expect(section.getByText(`Paying now (since ${formatDay(today())})`)).toBeVisible();
    await expect(section.getByRole('table', { name: 'Plan paying now' }).getByRole('row', { name: 'Up to $999.99 $150' })).toBeVisible();
    await expect(section.getByTestId('plan-set')).toHaveCount(1);
    await shoot(boss, 'manager', section);

    // The salesman's Sales page: his plan, live, and the preview and the sale under it.
    await rep.goto(`/s/${store.code}/dashboard/stats/sales`);
    const card = rep.getByTestId('pay-plan');
    await expect(card.getByRole('heading', { name: 'Your pay plan' })).toBeVisible();
    await expect(card).toContainText(`Since ${formatDay(today())}`);
    await expect(card.getByRole('row', { name: 'Up to $999.99 $150' })).toBeVisible();
    await expect(card.getByRole('row', { name: '$3,000.00 and up 35%' })).toBeVisible();
    const add = rep.getByRole('form', { name: 'Add Sale' });
    await add.getByLabel('Front gross ($)').fill('500');
    await expect(add.getByTestId('add-preview')).toHaveText('Commission: $150.00 (Mini $150)');
    await add.getByRole('button', { name: 'Add Sale' }).click();
    await expect(rep.getByText('Sale saved.').last()).toBeVisible();
    await expect(rep.getByTestId('mtd-commission')).toContainText('$150.00');
    await shoot(rep, 'salesman', card);
    await rep.setViewportSize({ width: 375, height: 800 });
    await animationsDone(rep);
    await noSidewaysScroll(rep);
    await rep.screenshot({ path: path.join(SHOTS, 'salesman-page-375.png'), fullPage: true });

    // A salesman may not change the plan: the server refuses.
    const refused = await rep.request.post('/api/payplans', {
      data: { effectiveFrom: today(), tiers: [{ fromCents: 0, type: 'flat', flat: 1000 }], splitPercent: 50 },
      headers: { 'x-store': store.code },
    });
    expect(refused.status()).toBe(403);
  } finally {
    await boss.request.put('/api/profile/store', { data: { code: home } });
    await boss.context().close();
    await rep.context().close();
  }
});
