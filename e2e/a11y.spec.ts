import { axe } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { mailsTo } from './support/mail';
import { personPage, unique } from './support/people';
import { animationsDone, settled } from './support/settle';
import { today } from './support/clock';

/**
 * Every screen, in light and dark mode, at 375 px and 1280 px wide, passes axe with no serious or
 * critical violation. The screen tour (tour.spec.ts) scans each signed-in screen as it stands in
 * every mode and width; this spec scans the signed-out screens, the states a screen is put in (a
 * dialog, a menu, a list with the deleted shown) and the screens the tour does not visit. The
 * failure message lists every violation found (page, mode, size, rule, targets), not just the first.
 */

const MANAGER = 'manager@e2e.test';
// The tests share nothing: they spread over the workers.
test.describe.configure({ mode: 'parallel' });
const MODES = ['light', 'dark'] as const;
const SIZES = [
  { width: 375, height: 740 },
  { width: 1280, height: 800 },
] as const;
type Mode = (typeof MODES)[number];

interface Screen {
  path: string;
  /** Waits until the screen shows its content. */
  ready: (page: Page) => Promise<void>;
  /** Optional extra state to scan on the same screen (e.g. a dialog open). */
  then?: { name: string; open: (page: Page) => Promise<boolean> }[];
  /** Load afresh for each width (the screen's state changes while it is scanned). */
  reload?: boolean;
  /** The tour scans the screen as it stands (tour.spec.ts); here only its extra states are. */
  toured?: boolean;
}

const heading =
  (name: string, exact = true) =>
  async (page: Page) => {
    await expect(page.getByRole('heading', { level: 1, name, exact })).toBeVisible();
  };

async function scheme(page: Page, mode: Mode) {
  await page.emulateMedia({ colorScheme: mode, reducedMotion: 'reduce' });
  await page.evaluate((m) => localStorage.setItem('mantine-color-scheme-value', m), mode);
}

async function scan(page: Page, label: string, found: string[]) {
  // Let transitions (modal fade-in, menu slide, collapse) finish before measuring colours.
  await animationsDone(page);
  const result = await axe(page).analyze();
  for (const v of result.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    const targets = v.nodes.map((n) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`);
    found.push(`${label}: [${v.impact}] ${v.id} (${v.help})\n    ${targets.join('\n    ')}`);
  }
}

async function visit(page: Page, screens: Screen[], role: string, found: string[]) {
  for (const mode of MODES) {
    await scheme(page, mode);
    for (const s of screens) {
      for (const [i, size] of SIZES.entries()) {
        await page.setViewportSize(size);
        // A resize needs no reload; a screen whose extra state was opened is loaded afresh.
        if (i === 0 || s.then || s.reload) {
          await page.goto(s.path);
          await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', mode);
        }
        await s.ready(page);
        await settled(page);
        const label = `${role} ${s.path} ${mode} ${size.width}px`;
        if (!s.toured) await scan(page, label, found);
        for (const extra of s.then ?? []) {
          if (await extra.open(page)) await scan(page, `${label} (${extra.name})`, found);
        }
      }
    }
  }
}

const report = (found: string[]) => `${found.length} serious/critical axe violation(s):\n${found.join('\n')}`;

test('signed-out screens pass axe in both modes and at both widths', async ({ page }) => {
  test.setTimeout(90_000);
  const found: string[] = [];
  const email = `a11y.out.${Date.now()}@e2e.test`;
  await page.goto('/');
  const screens: Screen[] = [
    { path: '/', ready: async (p) => void (await expect(p.getByLabel('Work Email')).toBeVisible()) },
    {
      path: '/?sent',
      reload: true,
      ready: async (p) => {
        await p.getByLabel('Work Email').fill(email);
        await p.getByRole('button', { name: 'Send Sign-in Link' }).click();
        await expect(p.getByText('Link Sent!')).toBeVisible();
      },
    },
    {
      path: '/finish-login?e=nobody%40e2e.test&t=not-a-real-token',
      ready: async (p) => void (await expect(p.getByRole('link', { name: 'Go Back' })).toBeVisible()),
    },
    { path: '/no/such/page', ready: heading('Page Not Found') },
  ];
  await visit(page, screens, 'signed out', found);
  expect(mailsTo(email).length).toBeGreaterThan(0);
  expect(found, report(found)).toEqual([]);
});

test('manager and staff screens pass axe in both modes and at both widths', async ({ browser }) => {
  // The screens as they stand, the salesman's included, are scanned by the tour, on data like this.
  test.setTimeout(240_000);
  const found: string[] = [];
  const staffEmail = `a11y.staff.${Date.now()}@e2e.test`;
  const staff = await personPage(browser, staffEmail, unique('Axel'));
  const boss = await personPage(browser, MANAGER, 'Manny Manager');

  // Data where it matters: assigns and a skip in the log (and a snoozed salesman), leads, a sale,
  // a user not signed in yet, a disabled user and a deleted one.
  for (let i = 0; i < 3; i++) {
    const res = await boss.request.post('/api/rotation/assign', { data: { customer: unique('A11y Customer') } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  const sale = await staff.request.post('/api/sales', {
    data: { date: today(), vehicleType: 'used', frontGross: '2500', split: 'half' },
  });
  expect(sale.ok(), await sale.text()).toBeTruthy();
  const stamp = Date.now();
  const addUser = async (prefix: string) => {
    const res = await boss.request.post('/api/users', { data: { email: `a11y.${prefix}.${stamp}@e2e.test`, name: unique(prefix), role: 'staff' } });
    expect(res.ok(), await res.text()).toBeTruthy();
    return (await res.json()).user.id as string;
  };
  // A newcomer starts off duty; put him on so the queue is not empty while the other is snoozed.
  const newbie = await addUser('newbie');
  expect((await boss.request.post('/api/rotation/status', { data: { uid: newbie, onDuty: true } })).ok()).toBeTruthy();
  expect((await boss.request.post(`/api/users/${await addUser('off')}/disable`)).ok()).toBeTruthy();
  expect((await boss.request.post(`/api/users/${await addUser('gone')}/delete`)).ok()).toBeTruthy();
  const staffId = (await (await staff.request.get('/api/auth/me')).json()).user.uid as string;
  const skip = await boss.request.post('/api/rotation/skip', { data: { targetUid: staffId, reason: 'At lunch', minutes: 30 } });
  expect(skip.ok(), await skip.text()).toBeTruthy();

  const managerScreens: Screen[] = [
    {
      path: '/dashboard/overview',
      toured: true,
      ready: async (p) => {
        await heading('Round Robin')(p);
        await expect(p.getByTestId('queue-row').first()).toBeVisible();
        await expect(p.getByTestId('log-entry').first()).toBeVisible();
      },
      then: [
        {
          name: 'menu open',
          open: async (p) => {
            const burger = p.getByRole('button', { name: 'Open menu' });
            if (!(await burger.isVisible())) return false;
            await burger.click();
            await expect(p.getByRole('link', { name: 'Settings' })).toBeInViewport();
            return true;
          },
        },
      ],
    },
    {
      path: '/dashboard/management',
      toured: true,
      ready: async (p) => {
        await heading('User Management')(p);
        await expect(p.getByTestId('user-row').first()).toBeVisible();
      },
      then: [
        {
          name: 'Edit User dialog',
          open: async (p) => {
            await p.getByRole('button', { name: `Edit ${staffEmail}` }).click();
            await expect(p.getByRole('dialog', { name: 'Edit User' })).toBeVisible();
            await settled(p);
            return true;
          },
        },
        {
          name: 'Show deleted',
          open: async (p) => {
            await p.keyboard.press('Escape');
            await expect(p.getByRole('dialog')).toHaveCount(0);
            await p.getByRole('checkbox', { name: 'Show deleted' }).check();
            await expect(p.getByRole('button', { name: /^Restore / }).first()).toBeVisible();
            return true;
          },
        },
      ],
    },
    { path: '/dashboard/no-such-screen', ready: heading('Page Not Found') },
  ];
  await visit(boss, managerScreens, 'manager', found);
  await staff.context().close();
  await boss.context().close();
  expect(found, report(found)).toEqual([]);
});

test('the Settings toggle switches the whole portal to dark mode and that passes axe', async ({ browser }) => {
  const page = await personPage(browser, `a11y.toggle.${Date.now()}@e2e.test`, unique('Tess'));
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await page.evaluate(() => localStorage.setItem('mantine-color-scheme-value', 'light'));
  await page.goto('/dashboard/settings');
  await heading('Settings')(page);
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
  const found: string[] = [];
  await scan(page, 'staff /dashboard/settings after toggle', found);
  // The choice is stored on this device and survives a reload.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.context().close();
  expect(found, report(found)).toEqual([]);
});
