import { devices, expect, test, type Browser, type Page } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { takenOver } from './support/settle';
import { moveServerClock, resetServerClock } from './support/clock';
import { ownStore } from './support/store';

// The overview is drawn on the server with its data (server/http/drawn.ts): the page paints
// before the app's code arrives, and the app then takes it over.

/** A store of the spec's own with one salesman on its floor, so its line is known: him alone. */
async function storeWithOneSalesman(browser: Browser) {
  const { boss, code, person } = await ownStore(browser, 'Drawn Motors');
  const home: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  const name = unique('Drew');
  const rep = await person('drew', name);
  return { boss, home, code, name, rep };
}

/** A phone: its browser's name and its screen. */
const PHONE = { userAgent: devices['Pixel 7'].userAgent, viewport: { width: 375, height: 800 } };

/** Errors and warnings the page logs: a hydration that did not match, a script the CSP refused. */
function problemsOf(page: Page) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return problems;
}

test('a phone gets the overview drawn with its line; the app takes the page over and acts on a tap, logging nothing', async ({ browser }) => {
  const { boss, code, name, rep } = await storeWithOneSalesman(browser);

  // Without any script: what the server drew is all there is, laid out for a phone (its menu folded away).
  const bare = await browser.newContext({ storageState: await rep.context().storageState(), javaScriptEnabled: false, ...PHONE });
  const still = await bare.newPage();
  await still.goto('/dashboard/overview');
  await expect(still.getByTestId('your-position')).toContainText('#1');
  await expect(still).toHaveTitle('Round Robin · BDC Portal');
  await expect(still.getByTestId('next-up')).toHaveText(name);
  await expect(still.getByTestId('queue-row')).toHaveText([new RegExp(`^#1${name}`)]);
  await expect(still.locator('nav[aria-label="Main"]')).toHaveAttribute('inert', '');
  await bare.close();

  // With the app, in the dark and on a phone: the same screen, now live.
  const phone = await browser.newContext({ storageState: await rep.context().storageState(), colorScheme: 'dark', ...PHONE });
  const page = await phone.newPage();
  const problems = problemsOf(page);
  await page.goto('/dashboard/overview');
  await expect(page).toHaveURL(new RegExp(`/s/${code}/dashboard/overview$`));
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByTestId('your-position')).toContainText('#1');
  await page.getByText('Off duty', { exact: true }).click();
  await expect(page.getByTestId('your-position')).toContainText('Not in rotation');
  await expect(page.getByText('Clock in below to join the line.')).toBeVisible();
  // The menu, drawn after the first frame, opens and leads on.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  expect(problems).toEqual([]);
  await phone.close();
  await rep.context().close();
  await boss.context().close();
});

test('a drawn page is its person’s own: never kept by a cache, not drawn without a session or in a store he may not open', async ({ browser, playwright }) => {
  const { boss, home, code, name, rep } = await storeWithOneSalesman(browser);

  const own = await rep.request.get('/dashboard/overview');
  expect(own.headers()['cache-control']).toBe('no-store');
  const page = await own.text();
  expect(page).toContain('id="drawn"');
  expect(page).toContain(`"at":"/s/${code}/dashboard/overview"`);
  expect(page).toContain(name);

  // A store's code in any case is that store.
  expect(await (await rep.request.get(`/s/${code.toLowerCase()}/dashboard`)).text()).toContain(`"at":"/s/${code}/dashboard/overview"`);

  // Another store's address: the plain page, nothing of that store in it.
  const other = await (await rep.request.get(`/s/${home}/dashboard/overview`)).text();
  expect(other).not.toContain('id="drawn"');
  expect(other).not.toContain('data-testid="next-up"');

  // Signed out: the plain page, shared by everyone.
  const anyone = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const plain = await anyone.get(`/s/${code}/dashboard/overview`);
  expect(plain.headers()['cache-control']).toBe('no-cache');
  const text = await plain.text();
  expect(text).not.toContain('id="drawn"');
  expect(text).not.toContain(name);
  await anyone.dispose();

  // The drawing's own code stays on the server.
  const drawing = await rep.request.get('/.server/entry-server.js');
  expect(drawing.headers()['content-type']).toMatch(/^text\/html/);
  expect(await drawing.text()).not.toContain('prerender');

  // A signed-out session: the same.
  expect((await rep.request.post('/api/auth/logout')).ok()).toBe(true);
  expect(await (await rep.request.get('/dashboard/overview')).text()).not.toContain('id="drawn"');
  await rep.context().close();
  await boss.context().close();
});

test('every screen a phone opens comes drawn with its data, and the app takes each over logging nothing', async ({ browser }) => {
  test.setTimeout(300_000);
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  const rep = await personPage(browser, uniqueEmail('drawn'), unique('Dee Drawn'), { onFloor: false });
  // Each screen's address (after /dashboard/, or whole), whose it is, its heading, and a query key its drawn answers hold.
  const screens: [string, Page, string, string][] = [
    ['routing', boss, 'Round Robin (Manager)', '"rotation"'],
    ['leads', boss, 'Leads', '"leads"'],
    // An address's query is the screen's, as in the browser: the mail to review, without the leads list it does not show.
    ['leads?view=mail', boss, 'Leads', '"mail","review"'],
    ['desk', boss, 'Desk log', '"desk"'],
    ['management', boss, 'User Management', '"users"'],
    ['stats/sales', boss, 'Sales Tracker', '"sales"'],
    ['stats/leads', boss, 'Lead Stats', '"kpis"'],
    ['stats/funnel', boss, 'Funnel', '"funnel"'],
    ['/group', boss, 'Group', '"group","waiting"'],
    ['stats/sales', rep, 'Sales Tracker', '"sales"'],
    ['associates', rep, 'My Stats & Notes', '"notes"'],
    ['settings', boss, 'Settings', '"sessions"'],
    ['settings', rep, 'Settings', '"availability"'],
  ];
  for (const [screen, person, heading, key] of screens) {
    const address = screen.startsWith('/') ? screen : `/dashboard/${screen}`;
    const own = await person.request.get(address);
    expect(own.headers()['cache-control'], address).toBe('no-store');
    const drawn = /<script type="application\/json" id="drawn">([^<]*)<\/script>/.exec(await own.text())?.[1];
    expect(drawn, address).toContain(key);
    if (screen === 'leads?view=mail') expect(drawn, address).not.toContain('"unassigned"');

    // Without any script: the screen with its data, titled as the screen.
    const bare = await browser.newContext({ storageState: await person.context().storageState(), javaScriptEnabled: false, ...PHONE });
    const still = await bare.newPage();
    await still.goto(address);
    await expect(still).toHaveTitle(`${heading} · BDC Portal`);
    await expect(still.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await bare.close();

    // With the app, in the dark: the same screen, taken over without a mismatch or a refused script.
    const phone = await browser.newContext({ storageState: await person.context().storageState(), colorScheme: 'dark', ...PHONE });
    const page = await phone.newPage();
    const problems = problemsOf(page);
    await page.goto(address);
    await takenOver(page);
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(problems, address).toEqual([]);
    await phone.close();
  }

  // A screen its person may not open (a guard sends him on) is not drawn: the app moves him on.
  expect(await (await rep.request.get('/dashboard/management')).text()).not.toContain('id="drawn"');
  expect(await (await rep.request.get('/group')).text()).not.toContain('id="drawn"');
  // The group's screen has one address; an address with a query longer than any screen's filters is the plain page.
  expect(await (await boss.request.get('/dashboard/group')).text()).not.toContain('id="drawn"');
  expect(await (await boss.request.get(`/dashboard/leads?view=mail&q=${'x'.repeat(600)}`)).text()).not.toContain('id="drawn"');
  await boss.context().close();
  await rep.context().close();
});

test('a drawn page is current: its live stream asks nothing again, unless its store changed after the drawing', async ({ browser }) => {
  const { boss, code, name, rep } = await storeWithOneSalesman(browser);
  const context = await browser.newContext({ storageState: await rep.context().storageState(), ...PHONE });
  const askedForLine = (page: Page) => {
    const asked: string[] = [];
    page.on('request', (r) => void (/\/api\/rotation\?/.test(r.url()) && asked.push(r.url())));
    return asked;
  };
  // Nothing changed in the store for longer than the servers' clocks may differ (2 s): the portal's clock moves past it.
  await moveServerClock(2500);
  const quiet = await context.newPage();
  const asked = askedForLine(quiet);
  const stream = quiet.waitForResponse((r) => /\/api\/events\?/.test(r.url()));
  await quiet.goto('/dashboard/overview');
  await expect(quiet.getByTestId('next-up')).toHaveText(name);
  await stream;
  // A change after the stream opened is asked for once, by its own news: the hello asked nothing.
  const changed = await rep.request.post('/api/rotation/duty', { data: { onDuty: false }, headers: { 'x-store': code } });
  expect(changed.ok(), await changed.text()).toBe(true);
  await expect(quiet.getByTestId('your-position')).toContainText('Not in rotation');
  expect(asked).toHaveLength(1);

  // A change between the drawing and the stream: the hello says so, and the page asks again.
  const late = await context.newPage();
  let open: () => void = () => undefined;
  const held = new Promise<void>((r) => (open = r));
  await late.route(/\/api\/events\?/, async (r) => {
    await held;
    await r.continue();
  });
  await late.goto('/dashboard/overview');
  await expect(late.getByTestId('your-position')).toContainText('Not in rotation');
  await takenOver(late);
  const back = await rep.request.post('/api/rotation/duty', { data: { onDuty: true }, headers: { 'x-store': code } });
  expect(back.ok(), await back.text()).toBe(true);
  open();
  await expect(late.getByTestId('your-position')).toContainText('#1');
  await resetServerClock();
  await context.close();
  await rep.context().close();
  await boss.context().close();
});
