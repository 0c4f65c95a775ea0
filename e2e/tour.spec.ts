import fs from 'node:fs';
import path from 'node:path';
import { axe } from './support/axe';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { signIn } from './support/session';
import { settled, takenOver } from './support/settle';
import { layoutProblems } from './support/layout';
import { ownStore } from './support/store';

/**
 * The screen tour: every screen as a manager and as a salesman, at 375 px and 1280 px, light and
 * dark. Each is saved as a screenshot under test-results/screens/ and fails when the page scrolls
 * sideways, a button lies beyond the right edge, or a badge's word is cut short.
 */

const MANAGER = 'manager@e2e.test';
const SHOTS = path.join('test-results', 'screens');
const MODES = ['light', 'dark'] as const;
const SIZES = [
  { width: 375, height: 740 },
  { width: 1280, height: 800 },
] as const;
type Size = (typeof SIZES)[number];
type Mode = (typeof MODES)[number];

interface Stop {
  name: string;
  path: string;
  /** Waits until the screen shows its content. */
  ready: (page: Page) => Promise<void>;
}

const h1 = (page: Page, name: string) => expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();

async function scheme(page: Page, mode: Mode) {
  if (page.url() === 'about:blank') await page.goto('/');
  await page.emulateMedia({ colorScheme: mode, reducedMotion: 'reduce' });
  await page.evaluate((m) => localStorage.setItem('mantine-color-scheme-value', m), mode);
}

/** axe's serious and critical findings on what is on screen now. */
async function scanAxe(page: Page, label: string, problems: string[]) {
  const result = await axe(page).analyze();
  for (const v of result.violations) {
    if (v.impact === 'serious' || v.impact === 'critical')
      problems.push(`${label}: axe [${v.impact}] ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
}

async function tour(page: Page, role: string, stops: Stop[], mode: Mode, problems: string[], sizes: readonly Size[] = SIZES) {
  let checked = 0;
  await scheme(page, mode);
  // Any error a screen throws or logs is a problem (the weather's stand-in may be away: not one).
  let at = '';
  page.on('pageerror', (err) => problems.push(`${at}: page error ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/weather/i.test(`${msg.text()} ${msg.location().url}`)) problems.push(`${at}: console error ${msg.text()}`);
  });
  for (const stop of stops) {
    for (const size of sizes) {
      at = `${role} ${stop.name} ${mode} ${size.width}px`;
      await page.setViewportSize(size);
      await page.goto(stop.path);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', mode);
      await stop.ready(page);
      await settled(page);
      const label = `${role} ${stop.name} ${mode} ${size.width}px`;
      // Each screen names its tab: "Leads · BDC Portal".
      if (!/^.+ · BDC Portal$/.test(await page.title())) problems.push(`${label}: the tab is titled "${await page.title()}"`);
      await page.screenshot({ path: path.join(SHOTS, `${role}-${stop.name}-${mode}-${size.width}.png`), fullPage: true });
      for (const p of await layoutProblems(page)) problems.push(`${label}: ${p}`);
      await scanAxe(page, label, problems);
      checked++;
    }
  }
  // Every stop was seen at every width asked.
  expect(checked).toBe(stops.length * sizes.length);
}

const report = (problems: string[]) => `${problems.length} layout problem(s):\n${problems.join('\n')}`;

/**
 * A store of the test's own, with its people, leads and sales: its screens show what this seed
 * made, not what every spec before it left in the worker's portal. The group manager opens it by
 * its address (`at`), which leaves the store he chose alone.
 */
async function seed(browser: Browser) {
  const { boss, there, at, add } = await ownStore(browser, 'Tour Motors');
  const staffName = unique('Maximilian Alexander Tourington-Smythe');
  const { email: staffEmail } = await add('tour.staff', staffName);
  const staff = await personPage(browser, staffEmail, staffName);
  // A lead provider's key, so the Integrations list is on the tour too.
  const key = await boss.request.post('/api/integrations/keys', { data: { name: unique('Tour feed') }, headers: there });
  expect(key.ok(), await key.text()).toBeTruthy();
  const tina = unique('Tina Tour');
  const other = await personPage(browser, (await add('tour.other', tina)).email, tina);
  await other.context().close();
  // A user not signed in yet and on the floor, a disabled one and a deleted one (a11y.spec.ts scans these lists' other states).
  const newbie = await add('tour.newbie', unique('Tour Person'));
  expect((await boss.request.post('/api/rotation/status', { data: { uid: newbie.id, onDuty: true }, headers: there })).ok()).toBeTruthy();
  expect((await boss.request.post(`/api/users/${(await add('tour.off', unique('Tour Person'))).id}/disable`, { headers: there })).ok()).toBeTruthy();
  expect((await boss.request.post(`/api/users/${(await add('tour.gone', unique('Tour Person'))).id}/delete`, { headers: there })).ok()).toBeTruthy();
  for (let i = 0; i < 4; i++) {
    const res = await boss.request.post('/api/rotation/assign', { data: { customer: unique('Tour Customer With A Long Name') }, headers: there });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  // More than a page of sales (25), across this month and last, so the list pages and the cards compare.
  const today = new Date();
  for (let i = 0; i < 28; i++) {
    // A day or more back, so no sale is dated after the dealership's today.
    const d = new Date(today.getTime() - (1 + i * 1.3) * 86_400_000).toISOString().slice(0, 10);
    const res = await staff.request.post('/api/sales', {
      data: { date: d, vehicleType: i % 3 ? 'new' : 'used', frontGross: String(900 + i * 137), split: i % 4 ? 'full' : 'half' },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  const staffId = (await (await staff.request.get('/api/auth/me')).json()).user.uid as string;
  const skip = await boss.request.post('/api/rotation/skip', {
    data: { targetUid: staffId, reason: 'Test drive with a customer', minutes: 30 },
    headers: there,
  });
  expect(skip.ok(), await skip.text()).toBeTruthy();
  return { staff, boss, staffEmail, staffName, at, there };
}

/** A screen on the tour: ready once its heading and the first of each of its rows show. */
const screen = (name: string, path: string, heading: string, ...rows: string[]): Stop => ({
  name,
  path,
  ready: async (p) => {
    await h1(p, heading);
    for (const row of rows) await expect(p.getByTestId(row).first()).toBeVisible();
  },
});

const common = [
  screen('overview', '/dashboard/overview', 'Round Robin', 'queue-row', 'log-entry'),
  screen('associates', '/dashboard/associates', 'My Stats & Notes'),
  screen('sales', '/dashboard/stats/sales', 'Sales Tracker', 'daily-summary'),
  screen('kpis', '/dashboard/stats/leads', 'Lead Stats', 'kpi-row'),
  screen('settings', '/dashboard/settings', 'Settings'),
];
const MANAGER_STOPS = [
  ...common,
  screen('management', '/dashboard/management', 'User Management', 'user-row'),
  screen('routing', '/dashboard/routing', 'Round Robin (Manager)', 'team-row'),
  screen('leads', '/dashboard/leads', 'Leads', 'lead-row'),
];
const SALESMAN_STOPS = [...common, screen('routing', '/dashboard/routing', 'Round Robin', 'my-place')];

// The tests share nothing (each seeds its own people): they spread over the workers.
test.describe.configure({ mode: 'parallel' });

// One test for each role and theme (the manager's, each width too), each with its own time: on a slow machine the whole tour in one took past ten minutes.
test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

test('the sign-in page, both widths, both themes: no sideways scroll, no button off screen, no cut badge', async ({ browser }) => {
  const problems: string[] = [];
  const out = await (await browser.newContext()).newPage();
  const signInStop: Stop = { name: 'sign-in', path: '/', ready: async (p) => void (await expect(p.getByLabel('Work Email')).toBeVisible()) };
  for (const mode of MODES) await tour(out, 'signed-out', [signInStop], mode, problems);
  await out.context().close();
  expect(problems, report(problems)).toEqual([]);
});

for (const mode of MODES) {
  // The manager's screens one width at a time: both in one test took 3.9 minutes of its 5 in a full run.
  for (const size of SIZES) {
    test(`every manager screen and the account popover, ${size.width}px, ${mode}: no sideways scroll, no button off screen, no cut badge`, async ({
      browser,
    }) => {
      test.setTimeout(300_000);
      const problems: string[] = [];
      const { staff, boss, at } = await seed(browser);
      const stops = MANAGER_STOPS.map((stop) => ({ ...stop, path: at(stop.path) }));
      await tour(boss, 'manager', stops, mode, problems, [size]);
      // The account popover, open.
      await boss.setViewportSize(size);
      await boss.goto(at('/dashboard/overview'));
      await boss.getByTestId('user-menu').click();
      await expect(boss.getByRole('dialog', { name: 'Account' })).toBeVisible();
      await settled(boss);
      const label = `manager account popover ${mode} ${size.width}px`;
      await boss.screenshot({ path: path.join(SHOTS, `manager-account-${mode}-${size.width}.png`) });
      for (const p of await layoutProblems(boss)) problems.push(`${label}: ${p}`);
      await scanAxe(boss, label, problems);
      await staff.context().close();
      await boss.context().close();
      expect(problems, report(problems)).toEqual([]);
    });
  }

  test(`every salesman screen, both widths, ${mode}: no sideways scroll, no button off screen, no cut badge`, async ({ browser }) => {
    test.setTimeout(300_000);
    const problems: string[] = [];
    const { staff, boss } = await seed(browser);
    await tour(staff, 'salesman', SALESMAN_STOPS, mode, problems);
    await staff.context().close();
    await boss.context().close();
    expect(problems, report(problems)).toEqual([]);
  });
}

test('on a phone every lead, salesman and sale is a card whose actions are in reach', async ({ browser }) => {
  const { staff, boss, staffName, at, there } = await seed(browser);
  for (const page of [staff, boss]) await page.setViewportSize({ width: 375, height: 740 });

  // Drawn on the server for a wide screen (the browser's name is not a phone's), with the list:
  // the phone's cards replace its table once the app has taken the page over.
  await boss.goto(at('/dashboard/leads'));
  await takenOver(boss);
  await expect(boss.getByRole('table')).toHaveCount(0);
  const lead = boss.getByTestId('lead-row').first();
  await expect(lead.getByRole('button', { name: 'Mark Closed', exact: true })).toBeInViewport();

  // His own lead (a be-back: he is skipped, out of line): its card's Log contact and Close are in reach.
  const staffId = (await (await staff.request.get('/api/auth/me')).json()).user.uid as string;
  const customer = unique('Phone Customer');
  const own = await boss.request.post('/api/rotation/assign', { data: { customer, askedFor: staffId }, headers: there });
  expect(own.ok(), await own.text()).toBeTruthy();
  await staff.goto('/dashboard/associates');
  await takenOver(staff);
  await expect(staff.getByRole('table', { name: 'Leads' })).toHaveCount(0);
  const card = staff.getByTestId('lead-row').filter({ hasText: customer });
  await card.getByRole('button', { name: 'Log contact' }).scrollIntoViewIfNeeded();
  await expect(card.getByRole('button', { name: 'Log contact' })).toBeInViewport({ ratio: 1 });
  await expect(card.getByRole('button', { name: 'Mark Closed', exact: true })).toBeInViewport({ ratio: 1 });

  await boss.goto(at('/dashboard/routing'));
  // Drawn on the server for a wide screen (the browser's name is not a phone's): the cards come once the app has it.
  await takenOver(boss);
  // The salesman was skipped, so he is not in line: his card has the switches; the line's cards have the arrows too.
  const row = boss.getByTestId('team-row').filter({ hasText: staffName });
  await row.scrollIntoViewIfNeeded();
  await expect(row.getByRole('switch', { name: `On duty: ${staffName}` })).toBeInViewport();
  const first = boss.locator('[aria-current="true"]');
  await first.scrollIntoViewIfNeeded();
  await expect(first.getByRole('button', { name: /^Move .* down$/ })).toBeInViewport();

  await staff.goto('/dashboard/stats/sales');
  await expect(staff.getByTestId('sale-row')).toHaveCount(25);
  await expect(staff.getByTestId('sale-date').first()).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await staff.getByRole('button', { name: 'Next' }).click();
  await expect(staff.getByTestId('sales-page')).toHaveText('Page 2 of 2');
  await expect(staff.getByTestId('sale-row')).toHaveCount(3);
  await staff.context().close();
  await boss.context().close();
});

test('recent actions say the day, and money and dates read as people write them', async ({ browser }) => {
  const { staff, boss, at } = await seed(browser);
  await boss.goto(at('/dashboard/overview'));
  // The server tells the page the dealership's zone (APP_TIMEZONE; the run's server uses the default).
  await expect(boss.locator('meta[name="app-timezone"]')).toHaveAttribute('content', process.env.APP_TIMEZONE || 'America/New_York');
  await expect(boss.getByTestId('log-when').first()).toHaveText(/^Today \d{1,2}:\d{2} [AP]M · by /);
  await staff.goto('/dashboard/stats/sales');
  await expect(staff.getByTestId('mtd-gross')).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
  await expect(staff.getByRole('table', { name: 'Sales' }).getByTestId('sale-date').first()).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  // Sorting by commission puts the largest first.
  await staff.getByRole('button', { name: 'Commission' }).click();
  const first = await staff.getByTestId('sale-commission').first().textContent();
  const second = await staff.getByTestId('sale-commission').nth(1).textContent();
  const cents = (s: string | null) => Number((s ?? '').replace(/[$,.]/g, ''));
  expect(cents(first)).toBeGreaterThanOrEqual(cents(second));
  await expect(staff.getByRole('table', { name: 'Sales' }).getByRole('columnheader', { name: 'Commission' })).toHaveAttribute('aria-sort', 'descending');
  await staff.context().close();
  await boss.context().close();
});

test('loading shows skeletons, a failed load says so with Retry, and never an empty state', async ({ browser }) => {
  // A manager: a salesman's own header asks for the queue too, so his screens come drawn with it.
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  // Hold the queue's answer: while it is on its way the screen shows skeletons, not an empty
  // line. (Opened by its address, a screen comes drawn with its data: here the app asks for it,
  // on a click from a screen that holds no queue.)
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await boss.route('**/api/rotation?*', async (route) => {
    await held;
    await route.continue();
  });
  await boss.goto('/dashboard/settings');
  await boss.getByRole('link', { name: 'Routing' }).click();
  await expect(boss.locator('.mantine-Skeleton-root').first()).toBeVisible();
  await expect(boss.getByText('No recent activity.')).toHaveCount(0);
  release();
  await expect(boss.getByRole('heading', { name: 'Round Robin (Manager)' })).toBeVisible();
  await expect(boss.locator('.mantine-Skeleton-root')).toHaveCount(0);
  await boss.unroute('**/api/rotation?*');

  // A failed load, on the overview and on routing: the error and a Retry, nothing that pretends the list is empty.
  await boss.route('**/api/rotation?*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"The database is down."}' }));
  for (const link of ['Routing', 'Overview']) {
    await boss.goto('/dashboard/settings');
    await boss.getByRole('link', { name: link }).click();
    const failed = boss.getByTestId('load-error');
    await expect(failed).toContainText('Could not load the queue');
    await expect(failed).toContainText('The database is down.');
    await expect(boss.getByText('No one eligible.')).toHaveCount(0);
    await expect(boss.getByText('No recent activity.')).toHaveCount(0);
  }
  await boss.unroute('**/api/rotation?*');
  await boss.getByRole('button', { name: 'Retry' }).click();
  await expect(boss.getByTestId('queue-size')).toHaveText(/^\d+$/);
  await expect(boss.getByTestId('load-error')).toHaveCount(0);
  await boss.context().close();
});

test('a newcomer is asked his name once, may skip it, and is never greeted as "User"', async ({ browser }) => {
  const email = uniqueEmail('tour.nameless');
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  const greeting = page.getByTestId('greeting');
  await expect(greeting).toContainText(email.split('@')[0]);
  await expect(greeting).not.toContainText('User');
  const prompt = page.getByRole('region', { name: 'What should we call you?' });
  await expect(prompt).toBeVisible();
  // Under the screen, not above it: coming as the drawn page is taken over, it moves nothing down.
  const title = page.getByRole('heading', { level: 1 }).first();
  expect((await prompt.boundingBox())!.y).toBeGreaterThan((await title.boundingBox())!.y);
  const found: string[] = [];
  for (const mode of MODES) {
    await scheme(page, mode);
    await page.reload();
    await expect(prompt).toBeVisible();
    await settled(page);
    await scanAxe(page, `name prompt ${mode}`, found);
  }
  await page.screenshot({ path: path.join(SHOTS, 'salesman-name-prompt-dark-1280.png') });
  expect(found, found.join('\n')).toEqual([]);
  await prompt.getByRole('button', { name: 'Skip' }).click();
  await expect(prompt).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Round Robin', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'What should we call you?' })).toHaveCount(0);

  // In a browser that has not skipped, he names himself and the header says it.
  const fresh = await (await browser.newContext()).newPage();
  await signIn(fresh, email);
  const ask = fresh.getByRole('region', { name: 'What should we call you?' });
  await ask.getByLabel('Your name').fill('Nate Newcomer');
  await ask.getByRole('button', { name: 'Save' }).click();
  await expect(fresh.getByTestId('greeting')).toContainText('Nate Newcomer');
  await expect(ask).toHaveCount(0);
  await fresh.getByTestId('user-menu').click();
  const account = fresh.getByRole('dialog', { name: 'Account' });
  await expect(account).toContainText('Nate Newcomer');
  await expect(account).toContainText(email);
  await account.getByRole('button', { name: 'Settings' }).click();
  await expect(fresh.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await page.context().close();
  await fresh.context().close();
});

test('a notification covers neither the header nor an open dialog’s controls', async ({ browser }) => {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const email = uniqueEmail('tour.dialog');
  const add = await boss.request.post('/api/users', { data: { email, name: unique('Dee Dialog'), role: 'staff' } });
  expect(add.ok(), await add.text()).toBeTruthy();
  for (const size of SIZES) {
    await boss.setViewportSize(size);
    await boss.goto('/dashboard/management');
    await boss.getByRole('button', { name: `Edit ${email}` }).click();
    const dialog = boss.getByRole('dialog', { name: 'Edit User' });
    // Someone else's address: the save is refused, the dialog stays open and a notification says why.
    await dialog.getByLabel('Email').fill(MANAGER);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const note = boss.locator('.mantine-Notification-root').filter({ hasText: 'Failed to save' }).last();
    await expect(note).toBeVisible();
    await settled(boss);
    const box = (await note.boundingBox())!;
    const header = (await boss.locator('.mantine-AppShell-header').boundingBox())!;
    expect(box.y, 'the notification is below the header').toBeGreaterThanOrEqual(header.y + header.height);
    for (const control of [
      dialog.getByRole('button', { name: 'Save' }),
      dialog.getByRole('button', { name: 'Cancel' }),
      dialog.getByRole('button', { name: 'Close' }),
    ]) {
      const c = (await control.boundingBox())!;
      const overlaps = c.x < box.x + box.width && box.x < c.x + c.width && c.y < box.y + box.height && box.y < c.y + c.height;
      expect(overlaps, `${await control.textContent()} is not under the notification at ${size.width}px`).toBe(false);
    }
    await boss.screenshot({ path: path.join(SHOTS, `manager-dialog-notification-${size.width}.png`) });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }
  await boss.context().close();
});
