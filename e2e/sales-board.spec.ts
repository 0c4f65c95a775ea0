import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { uniqueCode } from './support/store';
import { formatCents } from '../domain/commission';
import { dayKey } from '../domain/time';

const MANAGER = 'manager@e2e.test';
const TZ = 'America/New_York';

/** A code nobody else in the run uses: 2 to 8 capitals and digits. */

/** Logs a sale through the real API in the store; answers its commission in cents. */
async function sell(page: Page, store: string, frontGross: string): Promise<number> {
  const res = await page.request.post('/api/sales', {
    data: { date: dayKey(new Date(), TZ), vehicleType: 'new', frontGross, split: 'full' },
    headers: { 'x-store': store },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).commissionCents as number;
}

test('a manager sees his salesmen on the team board with the right totals, drills into one, the showroom TV follows a new sale live, and a TV by its own link shows the board until revoked', async ({
  browser,
}) => {
  // A store of the spec's own, so the board holds these two salesmen and no one else's sales.
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const home: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  const code = uniqueCode('B');
  const made = await boss.request.post('/api/stores', { data: { name: unique('Board Motors'), code, timezone: TZ } });
  expect(made.status(), await made.text()).toBe(201);
  const reps: { name: string; page: Page }[] = [];
  for (const first of ['Abe', 'Bea']) {
    const name = unique(first);
    const email = uniqueEmail(first.toLowerCase());
    const res = await boss.request.post('/api/users', { data: { email, name, role: 'staff', stores: [code] }, headers: { 'x-store': code } });
    expect(res.ok(), await res.text()).toBe(true);
    reps.push({ name, page: await personPage(browser, email, name, { onFloor: false }) });
  }
  const [abe, bea] = reps;
  let wall: BrowserContext | undefined;
  try {
    const abeCommission = (await sell(abe.page, code, '3000')) + (await sell(abe.page, code, '1800'));
    const beaCommission = await sell(bea.page, code, '2200');

    await boss.goto(`/s/${code}/dashboard/stats/sales`);
    const board = boss.getByTestId('team-board');
    await expect(board.getByRole('heading', { name: 'Team board' })).toBeVisible();
    const rows = board.getByTestId('board-row');
    await expect(rows).toHaveCount(2);
    // Most units first.
    await expect(rows.nth(0)).toContainText(abe.name);
    await expect(rows.nth(0).getByTestId('board-mtd-units')).toHaveText('2');
    await expect(rows.nth(0).getByTestId('board-mtd-gross')).toHaveText('$4,800.00');
    await expect(rows.nth(0).getByTestId('board-mtd-commission')).toHaveText(formatCents(abeCommission));
    await expect(rows.nth(0).getByTestId('board-since')).toHaveText('Today');
    await expect(rows.nth(1)).toContainText(bea.name);
    await expect(rows.nth(1).getByTestId('board-mtd-units')).toHaveText('1');
    const total = board.getByTestId('board-total');
    await expect(total).toContainText('Team total');
    await expect(total.getByTestId('board-mtd-units')).toHaveText('3');
    await expect(total.getByTestId('board-mtd-gross')).toHaveText('$7,000.00');
    await expect(total.getByTestId('board-mtd-commission')).toHaveText(formatCents(abeCommission + beaCommission));
    await expect(total.getByTestId('board-ytd-units')).toHaveText('3');
    // The team's figures and charts, as a salesman's tracker shows his own.
    await expect(boss.getByTestId('mtd-units')).toHaveText('3');
    await expect(boss.getByTestId('daily-summary')).toHaveText(
      `Commission per day this month: ${formatCents(abeCommission + beaCommission)} over 1 day with sales.`,
    );
    await expect(board.getByRole('link', { name: 'CSV' })).toHaveAttribute('href', `/api/sales/board.csv?store=${code}`);

    // Drill into a salesman: his own tracker, read-only.
    await rows
      .nth(1)
      .getByRole('button', { name: `${bea.name}: open his tracker` })
      .click();
    await expect(boss).toHaveURL(/\?user=/);
    await expect(boss.getByTestId('read-only')).toContainText(bea.name);
    await expect(boss.getByTestId('sale-row')).toHaveCount(1);
    await expect(boss.getByTestId('mtd-commission')).toHaveText(formatCents(beaCommission));
    // And back to the board through the picker.
    await boss.getByRole('combobox', { name: 'Salesman' }).click();
    await boss.getByRole('option', { name: 'Team board' }).click();
    await expect(board.getByTestId('board-row')).toHaveCount(2);

    // The showroom TV: salesmen by units this month, live.
    await board.getByRole('link', { name: 'Showroom TV' }).click();
    await expect(boss).toHaveURL(new RegExp(`/s/${code}/tv/sales$`));
    const tv = boss.getByTestId('sales-tv');
    await expect(tv.getByRole('heading', { name: 'Sales leaderboard' })).toBeVisible();
    await expect(boss.getByRole('navigation')).toHaveCount(0);
    const tvRows = tv.getByTestId('tv-row');
    await expect(tvRows).toHaveCount(2);
    await expect(tvRows.nth(0).getByTestId('tv-name')).toHaveText(abe.name);
    await expect(tvRows.nth(0).getByTestId('tv-units')).toHaveText('2');
    await expect(tv.getByTestId('tv-total').getByTestId('tv-units')).toHaveText('3');

    // Bea sells twice: she leads, with no reload.
    await sell(bea.page, code, '2500');
    await sell(bea.page, code, '900');
    await expect(tvRows.nth(0).getByTestId('tv-name')).toHaveText(bea.name);
    await expect(tvRows.nth(0).getByTestId('tv-units')).toHaveText('3');
    await expect(tvRows.nth(0).getByTestId('tv-since')).toHaveText('Today');
    await expect(tv.getByTestId('tv-total').getByTestId('tv-units')).toHaveText('5');

    // The wall's TV by its own link: made by the manager, opened where no one is signed in.
    await boss.getByRole('link', { name: 'Back to the board' }).click();
    await board.getByRole('button', { name: 'TV links' }).click();
    const dialog = boss.getByRole('dialog', { name: 'Showroom TV links' });
    await expect(dialog.getByLabel('Name')).toHaveValue('Showroom TV');
    await dialog.getByRole('button', { name: 'Make link' }).click();
    const url = await dialog.getByTestId('tv-link-url').inputValue();
    expect(url).toMatch(/\/tv#[\w-]{40,}$/);
    await expect(dialog.getByTestId('tv-link-row')).toContainText('Showroom TV');
    wall = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const screen = await wall.newPage();
    await screen.goto(url);
    const onWall = screen.getByTestId('sales-tv');
    await expect(onWall.getByRole('heading', { name: 'Sales leaderboard' })).toBeVisible();
    await expect(onWall.getByTestId('tv-row').nth(0).getByTestId('tv-name')).toHaveText(bea.name);
    await expect(onWall.getByTestId('tv-total').getByTestId('tv-units')).toHaveText('5');
    expect(await wall.cookies()).toEqual([]);
    // Live on its own stream: Abe's sale shows with no reload.
    await sell(abe.page, code, '1200');
    await expect(onWall.getByTestId('tv-total').getByTestId('tv-units')).toHaveText('6');
    // A floor of twelve and the total fit a 1920 × 1080 TV, no scrolling.
    for (let i = 0; i < 10; i++) {
      const res = await boss.request.post('/api/users', {
        data: { email: uniqueEmail(`floor${i}`), name: unique(`Floor Person ${i}`), role: 'staff', stores: [code] },
        headers: { 'x-store': code },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }
    await screen.reload();
    await expect(onWall.getByTestId('tv-row')).toHaveCount(12);
    await expect(onWall.getByTestId('tv-total')).toBeInViewport({ ratio: 1 });
    if (process.env.TV_SHOT) await screen.screenshot({ path: process.env.TV_SHOT });
    // Revoked: the TV says so at once, and shows no board.
    await dialog.getByRole('button', { name: 'Revoke Showroom TV' }).click();
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await expect(dialog.getByTestId('tv-link-row')).toContainText('Revoked');
    await expect(screen.getByTestId('tv-gone')).toHaveText('This TV link was revoked. Ask a manager for a new one.');
    await expect(screen.getByTestId('tv-row')).toHaveCount(0);
  } finally {
    await boss.request.put('/api/profile/store', { data: { code: home } });
    for (const p of [...reps.map((r) => r.page), boss]) await p.context().close();
    await wall?.close();
  }
});
