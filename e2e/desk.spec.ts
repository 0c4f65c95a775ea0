import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { makeNextUp, personPage, unique, uniqueEmail } from './support/people';
import { animationsDone, noSidewaysScroll } from './support/settle';

const MANAGER = 'manager@e2e.test';
const SHOTS = path.join('test-results', 'desk');

/** The desk screen at 375 and 1280 px, light and dark: no sideways scroll on the phone; a screenshot of each. */
async function shoot(page: Page) {
  for (const mode of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: mode, reducedMotion: 'reduce' });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await animationsDone(page);
      if (width === 375) await noSidewaysScroll(page);
      await page.screenshot({ path: path.join(SHOTS, `desk-${mode}-${width}.png`), fullPage: true, animations: 'disabled' });
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("the desk manager logs an up: it goes to Next Up and shows in the log; T.O. and Out reach a second manager's open desk live", async ({ browser }) => {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const home: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  const people: { email: string; name: string; role: string }[] = [
    { email: uniqueEmail('desk.rep'), name: unique('Dana Desk'), role: 'staff' },
    { email: uniqueEmail('desk.mgr'), name: unique('Tony Over'), role: 'manager' },
  ];
  for (const p of people) {
    const made = await boss.request.post('/api/users', { data: { ...p, stores: [home] }, headers: { 'x-store': home } });
    expect(made.ok(), await made.text()).toBe(true);
  }
  const [rep, second] = people;
  const repPage = await personPage(browser, rep.email, rep.name);
  const other = await personPage(browser, second.email, second.name);
  try {
    const desk = `/s/${home}/dashboard/desk`;
    await other.goto(desk);
    await boss.goto(desk);
    await expect(boss.getByRole('heading', { name: 'Desk log' })).toBeVisible();
    await makeNextUp(boss, rep.name);
    await expect(boss.getByText(`Next up: ${rep.name}`)).toBeVisible();

    const customer = unique('Walt Walkin');
    const form = boss.getByRole('form', { name: 'Log an up' });
    await form.getByRole('textbox', { name: 'Customer', exact: true }).fill(customer);
    await form.getByLabel('Vehicle of interest').fill('2025 Tacoma TRD');
    await form.getByLabel('Trade-in').check();
    await form.getByRole('button', { name: 'Log up' }).click();

    // On both desks: the up with its salesman, vehicle, trade-in and stage.
    for (const page of [boss, other]) {
      const row = page.getByRole('row').filter({ hasText: customer });
      await expect(row).toContainText(rep.name);
      await expect(row).toContainText('2025 Tacoma TRD');
      await expect(row).toContainText('Yes');
      await expect(row).toContainText('Waiting for accept');
      await expect(row.getByRole('button', { name: `Out: ${customer}` })).toBeVisible();
    }

    // T.O. to the second manager, then Out: the second manager's screen follows without a reload.
    await boss.getByRole('combobox', { name: `T.O. for ${customer}` }).click();
    await boss.getByRole('option', { name: second.name }).click();
    await expect(other.getByRole('combobox', { name: `T.O. for ${customer}` })).toHaveValue(second.name);
    // The switch follows the server's answer, so it is clicked, not checked.
    const sheet = boss.getByRole('switch', { name: `Worksheet for ${customer}` });
    await expect(sheet).toBeEnabled();
    await sheet.click({ force: true });
    await expect(sheet).toBeChecked();
    await expect(other.getByRole('switch', { name: `Worksheet for ${customer}` })).toBeChecked();
    await boss.getByRole('button', { name: `Out: ${customer}` }).click();
    await expect(boss.getByRole('button', { name: `Out: ${customer}` })).toHaveCount(0);
    const otherRow = other.getByRole('row').filter({ hasText: customer });
    await expect(otherRow.getByRole('button', { name: `Out: ${customer}` })).toHaveCount(0);
    await expect(otherRow).toContainText(/\d{1,2}:\d{2} [AP]M/);

    // The salesman's contact moves the up's stage on the desk, live.
    const lead = await (await boss.request.get(`/api/desk/log?store=${home}`)).json();
    const id = lead.ups.find((u: { customer: string }) => u.customer === customer).id;
    expect((await repPage.request.post(`/api/leads/${id}/contact`, { data: { channel: 'In person' }, headers: { 'x-store': home } })).ok()).toBe(true);
    await expect(other.getByRole('row').filter({ hasText: customer })).toContainText('Contacted');

    await shoot(boss);
  } finally {
    await repPage.request.post('/api/rotation/duty', { data: { onDuty: false } });
    await Promise.all([boss, repPage, other].map((p) => p.context().close()));
  }
});
