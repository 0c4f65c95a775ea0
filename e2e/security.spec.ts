import { expect, test } from '@playwright/test';
import { personPage, unique } from './support/people';

test('customer names with HTML show as text on every screen, and the app runs under its CSP', async ({ browser }) => {
  const rep = await personPage(browser, `html.${Date.now()}@e2e.test`, unique('Hal Html'));
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  const cspErrors: string[] = [];
  boss.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  // A refused eval is not always a console message; the page hears of every refusal.
  await boss.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.log(`Content-Security-Policy refused ${e.violatedDirective} in ${e.sourceFile}`));
  });
  const customer = `<img src=x onerror="window.__xss=1"><b>Bold ${Date.now()}</b>`;
  const res = await boss.request.post('/api/rotation/assign', { data: { customer } });
  expect(res.ok()).toBe(true);

  for (const [path, heading] of [
    ['/dashboard/routing', 'Round Robin (Manager)'],
    ['/dashboard/overview', 'Round Robin'],
    ['/dashboard/leads', 'Leads'],
  ] as const) {
    await boss.goto(path);
    await expect(boss.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await expect(boss.getByText(customer, { exact: false }).first()).toBeVisible();
    expect(await boss.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await boss.locator('main img[src="x"]').count()).toBe(0);
  }
  // A screen of forms: its schemas are built and checked in the page.
  await boss.goto('/dashboard/management');
  await boss.getByRole('form', { name: 'Dealership rules' }).getByRole('button', { name: 'Save rules' }).click();
  await expect(boss.getByText('Dealership rules saved.')).toBeVisible();
  expect(cspErrors).toEqual([]);
  await boss.context().close();
  await rep.context().close();
});
