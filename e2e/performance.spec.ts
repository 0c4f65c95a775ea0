import { expect, test } from '@playwright/test';
import { personPage } from './support/people';

test('a signed-out visit logs no error, loads no dashboard code and asks search engines to stay away', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const scripts: string[] = [];
  const encodings = new Map<string, string | undefined>();
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    if (['script', 'stylesheet', 'document'].includes(r.request().resourceType())) encodings.set(new URL(r.url()).pathname, r.headers()['content-encoding']);
  });

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'BDC Portal' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => /dashboard|DashboardShell|OverviewPage|RoutingPage|LeadsPage|SalesPage|charts/i.test(s))).toEqual([]);
  // Everything text-like arrives compressed: the page, its scripts and its styles.
  expect([...encodings.entries()].filter(([, enc]) => enc !== 'br')).toEqual([]);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);

  const robots = await page.request.get('/robots.txt');
  expect(await robots.text()).toBe('User-agent: *\nDisallow: /\n');
});

test('the overview of a signed-in manager logs no error and shows the rotation', async ({ browser }) => {
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  const problems: string[] = [];
  boss.on('console', (m) => {
    // A hint the page did not use would be a warning: what the server names must be what it needs.
    if (m.type() === 'error' || (m.type() === 'warning' && /preload/i.test(m.text()))) problems.push(m.text());
  });
  await boss.goto('/dashboard/overview');
  await expect(boss.getByRole('heading', { name: 'Round Robin', exact: true })).toBeVisible();
  await expect(boss.getByTestId('queue-size')).toHaveText(/^\d+$/);
  await boss.waitForLoadState('networkidle');
  // Chromium warns of an unused preload a few seconds after the load.
  await boss.waitForTimeout(3500);
  expect(problems).toEqual([]);
  await boss.context().close();
});
