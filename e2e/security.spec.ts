import { expect, test } from '@playwright/test';
import { personPage, unique } from './support/people';

test('customer names with HTML show as text on every screen, and the app runs under its CSP', async ({ browser }) => {
  const rep = await personPage(browser, `html.${Date.now()}@e2e.test`, unique('Hal Html'));
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  const cspErrors: string[] = [];
  boss.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) cspErrors.push(m.text());
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
  expect(cspErrors).toEqual([]);
  await boss.context().close();
  await rep.context().close();
});
