import { devices, expect, test, type Page } from '@playwright/test';
import { takenOver } from './support/settle';
import { personPage, uniqueEmail } from './support/people';

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

test('a screen whose code is in is drawn at once: no loader after the session is known, on opening or on a click', async ({ browser }) => {
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  // Every loader drawn in a store's screens (the session is known there), with the address it was drawn at.
  await boss.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { loadersSeen: seen });
    new MutationObserver((changes) => {
      for (const c of changes)
        for (const n of c.addedNodes)
          if (n instanceof Element && (n.matches('[aria-label="Loading"]') || n.querySelector('[aria-label="Loading"]')) && location.pathname.startsWith('/s/'))
            seen.push(location.pathname);
    }).observe(document, { childList: true, subtree: true });
  });
  const routingCode = boss.waitForResponse((r) => /\/assets\/RoutingPage-/.test(r.url()));
  await boss.goto('/dashboard/overview');
  await expect(boss.getByTestId('next-up')).toBeVisible();
  // The next likely screen's code comes once the overview is idle; a click on it then shows it straight away.
  await routingCode;
  await boss.getByRole('link', { name: 'Routing' }).click();
  await expect(boss.getByRole('heading', { name: 'Round Robin (Manager)' })).toBeVisible();
  expect(await boss.evaluate(() => (window as unknown as { loadersSeen: string[] }).loadersSeen)).toEqual([]);
  await boss.context().close();
});

test('the overview needs no form or chart code: it shows the queue with that code out of reach', async ({ browser }) => {
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  const refused: string[] = [];
  await boss.route(/\/assets\/(forms|charts)-/, (r) => {
    refused.push(new URL(r.request().url()).pathname);
    return r.abort();
  });
  await boss.goto('/dashboard/overview');
  await expect(boss.getByTestId('queue-size')).toHaveText(/^\d+$/);
  await expect(boss.getByTestId('next-up')).toBeVisible();
  const page = await (await boss.request.get('/dashboard/overview')).text();
  // The overview comes drawn (e2e/drawn.spec.ts): its code is named in the page, fetched once it has painted.
  const later = /<script type="application\/json" id="later">([^<]*)<\/script>/.exec(page)?.[1];
  const hinted = [...page.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]).concat(later ? (JSON.parse(later) as string[]) : []);
  expect(hinted.some((h) => /OverviewPage/.test(h))).toBe(true);
  expect(hinted.filter((h) => /\/(forms|charts)-/.test(h))).toEqual([]);
  // The form code exists: the next likely screen (routing) asks for it once the overview is idle.
  await expect.poll(() => refused.some((r) => /\/forms-/.test(r))).toBe(true);
  await boss.context().close();
});

test("the leads screen and a salesman's sales tracker use every hint their page names, and the charts follow", async ({ browser }) => {
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  const rep = await personPage(browser, uniqueEmail('perf'), 'Perry Perf', { onFloor: false });
  const problems: string[] = [];
  for (const p of [boss, rep])
    p.on('console', (m) => {
      if (m.type() === 'error' || (m.type() === 'warning' && /preload/i.test(m.text()))) problems.push(`${p.url()}: ${m.text()}`);
    });
  await Promise.all([boss.goto('/dashboard/leads'), rep.goto('/dashboard/stats/sales')]);
  await expect(boss.getByRole('heading', { name: 'Leads', exact: true })).toBeVisible();
  await expect(boss.getByTestId('lead-row').or(boss.getByText('No leads found.')).first()).toBeVisible();
  await expect(rep.getByTestId('daily-summary')).toBeVisible();
  // The drawings come once the screen has drawn; the figures did not wait for them.
  await expect(rep.locator('.recharts-surface').first()).toBeVisible();
  await Promise.all([boss.waitForLoadState('networkidle'), rep.waitForLoadState('networkidle')]);
  // Chromium warns of an unused preload a few seconds after the load.
  await boss.waitForTimeout(3500);
  expect(problems).toEqual([]);
  await boss.context().close();
  await rep.context().close();
});

test("a form's schemas are fetched once it is used, apart from its screen; out of reach, the server's check still answers", async ({ browser }) => {
  const rep = await personPage(browser, uniqueEmail('schemas'), 'Sam Schemas', { onFloor: false });
  const refused: string[] = [];
  await rep.route(/\/assets\/(checks|schemas)-/, (r) => {
    refused.push(new URL(r.request().url()).pathname);
    return r.abort();
  });
  const posts: string[] = [];
  rep.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/sales') posts.push(r.url());
  });
  await rep.goto('/dashboard/stats/sales');
  await expect(rep.getByTestId('daily-summary')).toBeVisible();
  await takenOver(rep);
  const page = await (await rep.request.get('/dashboard/stats/sales')).text();
  const later = /<script type="application\/json" id="later">([^<]*)<\/script>/.exec(page)?.[1];
  const hinted = [...page.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]).concat(later ? (JSON.parse(later) as string[]) : []);
  expect(hinted.some((h) => /SalesPage/.test(h))).toBe(true);
  expect(hinted.filter((h) => /\/(checks|schemas)-/.test(h))).toEqual([]);
  // The screen is up without them; they are asked for once a field of the form is used.
  const form = rep.getByRole('form', { name: 'Add Sale' });
  const gross = form.getByLabel('Front gross ($)');
  await expect(gross).toBeVisible();
  expect(refused).toEqual([]);
  const refusal = 'Front gross must be a number like 1500 or 1500.50';
  await gross.fill('fifteen hundred');
  await expect.poll(() => refused.length).toBeGreaterThan(0);
  await form.getByRole('button', { name: 'Add Sale' }).click();
  await expect(gross).toHaveAccessibleDescription(refusal);
  expect(posts).toHaveLength(1);
  // Once they can come, the form checks by itself: the same words, and nothing sent.
  await rep.unroute(/\/assets\/(checks|schemas)-/);
  await gross.fill('1500');
  await expect(gross).not.toHaveAccessibleDescription(refusal);
  await gross.fill('twelve');
  await form.getByRole('button', { name: 'Add Sale' }).click();
  await expect(gross).toHaveAccessibleDescription(refusal);
  expect(posts).toHaveLength(1);
  await rep.context().close();
});

test('management is taken over with the ids it was drawn with and no schema code; a form fetches its checks once used', async ({ browser }) => {
  // A page of its own: the screen personPage opened fetches the screens likely next (routing, with its schemas).
  const boss = await (await personPage(browser, 'manager@e2e.test', 'Manny Manager')).context().newPage();
  const schemaCode = /\/assets\/(zod|checks|schemas|rules)-/;
  const fetched: string[] = [];
  const posts: string[] = [];
  boss.on('request', (r) => {
    if (schemaCode.test(r.url())) fetched.push(new URL(r.url()).pathname);
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/routing/teams') posts.push(r.url());
  });
  const page = await (await boss.request.get('/dashboard/management')).text();
  const later = /<script type="application\/json" id="later">([^<]*)<\/script>/.exec(page)?.[1];
  const hinted = [...page.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]).concat(later ? (JSON.parse(later) as string[]) : []);
  expect(hinted.filter((h) => schemaCode.test(h))).toEqual([]);
  const drawnId = /for="([^"]+)">Show deleted</.exec(page)?.[1];
  expect(drawnId).toMatch(/^mantine-/);

  await boss.goto('/dashboard/management');
  await takenOver(boss);
  // The app keeps the drawn ids (Mantine would give each field a new one, re-rendering them all at once).
  await expect(boss.getByLabel('Show deleted')).toHaveAttribute('id', drawnId ?? '');
  const form = boss.getByRole('form', { name: 'Add a team' });
  const name = form.getByLabel('New team');
  await expect(name).toBeVisible();
  expect(fetched).toEqual([]);
  // Used, the form fetches its checks and refuses a blank name by itself, with the server's words.
  await name.fill('   ');
  await expect.poll(() => fetched.length).toBeGreaterThan(0);
  await form.getByRole('button', { name: 'Add team' }).click();
  await expect(name).toHaveAccessibleDescription('A team name must be 1 to 40 characters');
  expect(posts).toEqual([]);
  await boss.context().close();
});

test('a phone builds a chart only once it is scrolled to: the chart code is not fetched before', async ({ browser }) => {
  const rep = await personPage(browser, uniqueEmail('perf'), 'Perry Phone', { onFloor: false });
  const phone = await browser.newContext({
    storageState: await rep.context().storageState(),
    userAgent: devices['Pixel 7'].userAgent,
    viewport: { width: 375, height: 800 },
  });
  const page = await phone.newPage();
  const charts: string[] = [];
  page.on('request', (r) => void (/\/assets\/(charts|Plots)-/.test(r.url()) && charts.push(r.url())));
  await page.goto('/dashboard/stats/sales');
  await takenOver(page);
  const daily = page.getByRole('img', { name: /^Commission per day this month/ });
  await expect(daily).not.toBeInViewport();
  await page.waitForLoadState('networkidle');
  // Once the browser has been idle (the charts' other condition) and drawn a frame after, nothing was fetched.
  await page.evaluate(() => new Promise((r) => requestIdleCallback(() => requestAnimationFrame(r))));
  await expect(daily.locator('.mantine-Skeleton-root')).toHaveCount(1);
  expect(charts).toEqual([]);
  await daily.scrollIntoViewIfNeeded();
  await expect(daily.locator('.recharts-surface')).toBeVisible();
  expect(charts.length).toBeGreaterThan(0);
  await phone.close();
  await rep.context().close();
});

test('every other screen comes drawn with its first data, names its code with the page, uses each hint, and no chart code before it draws', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  const problems: string[] = [];
  const tabs: Page[] = [];
  // Each screen opens in a browser of its own (its live stream would wait for a connection behind
  // six others in one) and stays open, so Chromium's word on an unused preload (a few seconds
  // after a load) is heard for all of them in one wait at the end.
  const signedIn = await boss.context().storageState();
  const tab = async () => {
    const p = await (await browser.newContext({ storageState: signedIn })).newPage();
    tabs.push(p);
    p.on('console', (m) => {
      if (m.type() === 'error' || (m.type() === 'warning' && /preload/i.test(m.text()))) problems.push(`${p.url()}: ${m.text()}`);
    });
    return p;
  };
  const store: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  const at = (path: string) => `/s/${store}/dashboard/${path}`;
  // Each address, its screen's code, a query key of its first data, which the page drawn on the
  // server holds (e2e/drawn.spec.ts), and what shows once its data is in.
  const screens: [string, RegExp, string, string][] = [
    [at('settings'), /SettingsPage/, '["profile","notify"]', 'Profile'],
    ['/dashboard/settings', /SettingsPage/, '["push-devices"]', 'Profile'],
    [at('management'), /ManagementPage/, `["users","${store}"`, 'User Management'],
    [at('stats/leads'), /LeadsKpiPage/, `["kpis","${store}"]`, 'Lead Stats'],
    [at('desk'), /DeskPage/, `["leads","desk","${store}"`, 'Desk log'],
    [at('stats/funnel'), /FunnelPage/, `["kpis","${store}","funnel"`, 'Funnel'],
    ['/group', /GroupPage/, '["group","waiting"]', 'Group'],
    [at('leads?view=mail'), /LeadsPage/, `["leads","${store}","mail","review"]`, 'Leads'],
  ];
  for (const [address, code, drawn, shown] of screens) {
    const page = await (await boss.request.get(address)).text();
    // A drawn page names its code in #later, started once it has painted.
    const later = /<script type="application\/json" id="later">([^<]*)<\/script>/.exec(page)?.[1];
    const hinted = [...page.matchAll(/rel="(?:modulepreload|preload)"(?: as="\w+")? crossorigin href="([^"]+)"/g)]
      .map((m) => m[1])
      .concat(later ? (JSON.parse(later) as string[]) : []);
    expect(
      hinted.some((h) => code.test(h)),
      address,
    ).toBe(true);
    expect(/<script type="application\/json" id="drawn">([^<]*)<\/script>/.exec(page)?.[1], address).toContain(drawn);
    // The chart library is fetched once a screen has drawn, never named with its page.
    expect(
      hinted.filter((h) => /\/charts-/.test(h)),
      address,
    ).toEqual([]);
    const opened = await tab();
    await opened.goto(address);
    await expect(opened.getByRole('heading', { name: shown, exact: true }).first()).toBeVisible();
    await opened.waitForLoadState('networkidle');
  }
  // Chromium warns of an unused preload a few seconds after the load: the last tab's is the latest.
  await boss.waitForTimeout(3500);
  expect(problems).toEqual([]);
  for (const p of [...tabs, boss]) await p.context().close();
});

test('a screen whose code does not arrive says so with a Reload, which shows it once the code comes', async ({ browser }) => {
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  await boss.route(/\/assets\/OverviewPage-/, (r) => r.abort());
  await boss.goto('/dashboard/overview');
  const error = boss.getByTestId('screen-error');
  await expect(error).toContainText('This page could not be shown');
  await expect(error).toContainText('Its code did not arrive: the connection dropped, or the portal was just updated.');
  await boss.unroute(/\/assets\/OverviewPage-/);
  await error.getByRole('button', { name: 'Reload' }).click();
  await expect(boss.getByTestId('next-up')).toBeVisible();
  await expect(error).toHaveCount(0);
  await boss.context().close();
});
