import { expect, test, type Locator, type Page } from '@playwright/test';
import { mailsTo, nextLink } from './support/mail';
import { personPage, unique } from './support/people';
import { takenOver } from './support/settle';

/**
 * The portal works with the keyboard alone: every step below is Tab / Shift+Tab / Enter / Space /
 * arrow keys / typing. Locators are only used to check where focus is and what the page shows.
 */

const MANAGER = 'manager@e2e.test';

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));

/** Presses `key` until `target` has focus; fails if it never does (unreachable or a trap). */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', max = 60) {
  await expect(target).toBeVisible();
  await takenOver(page);
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    if (await isFocused(target)) return;
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160));
  throw new Error(`${key} × ${max} never reached ${target.toString()}; focus is on ${at}`);
}

/** The focused element shows a focus indicator: an outline or a ring (box-shadow). */
async function expectVisibleFocus(target: Locator) {
  const style = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    return { focusVisible: el.matches(':focus-visible'), outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth), boxShadow: s.boxShadow };
  });
  expect(style.focusVisible, 'the element matches :focus-visible').toBe(true);
  const outline = style.outlineStyle !== 'none' && style.outlineWidth >= 1;
  const ring = style.boxShadow !== 'none';
  expect(outline || ring, `visible focus indicator, got ${JSON.stringify(style)}`).toBe(true);
}

test('sign-in with the keyboard alone, with a visible focus indicator', async ({ page }) => {
  const email = `keys.${Date.now()}@e2e.test`;
  const seen = mailsTo(email).length;
  await page.goto('/');
  const field = page.getByLabel('Work Email');
  await tabTo(page, field);
  await page.keyboard.type(email);
  const send = page.getByRole('button', { name: 'Send Sign-in Link' });
  await tabTo(page, send);
  await expectVisibleFocus(send);
  // Shift+Tab goes back to the field and Tab forward again: no trap, sensible order.
  await tabTo(page, field, 'Shift+Tab', 1);
  await tabTo(page, send, 'Tab', 1);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Link Sent!')).toBeVisible();

  // "Send Another Link" is reachable and resets the form.
  const again = page.getByRole('button', { name: 'Send Another Link' });
  await tabTo(page, again);
  await expectVisibleFocus(again);

  // Opening the e-mailed link is not a keyboard step.
  await page.goto(await nextLink(email, seen));
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  await expect(page.getByRole('heading', { name: 'Round Robin', exact: true })).toBeVisible();

  // The sidebar is usable from the keyboard too: Tab to Settings and follow it with Enter.
  const settings = page.getByRole('link', { name: 'Settings' });
  await tabTo(page, settings);
  await expectVisibleFocus(settings);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
});

test('a manager assigns and skips with the keyboard alone', async ({ browser }) => {
  const name = unique('Kim');
  const rep = await personPage(browser, `kim.${Date.now()}@e2e.test`, name);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await boss.goto('/dashboard/routing');
  await expect(boss.getByRole('heading', { name: 'Round Robin (Manager)' })).toBeVisible();
  await expect(boss.getByTestId('team-row').filter({ hasText: name })).toBeVisible();

  // Assign: Tab to Customer name, type, Tab to "Assign next", Space.
  const customer = unique('Keyboard Customer');
  await tabTo(boss, boss.getByLabel('Customer name'));
  await boss.keyboard.type(customer);
  const assign = boss.getByRole('button', { name: 'Assign next' });
  await tabTo(boss, assign);
  await expectVisibleFocus(assign);
  await boss.keyboard.press('Space');
  await expect(boss.getByTestId('log-entry').first()).toContainText(`→ ${customer}`);
  await expect(boss.getByLabel('Customer name')).toHaveValue('');

  // Skip: choose the salesman in the combobox by typing and arrow keys, type a reason, Enter on Skip.
  const select = boss.getByRole('combobox', { name: 'Salesman to skip' });
  await tabTo(boss, select);
  await boss.keyboard.type(name);
  await expect(boss.getByRole('option', { name })).toBeVisible();
  await boss.keyboard.press('ArrowDown');
  await boss.keyboard.press('Enter');
  await expect(select).toHaveValue(name);
  await tabTo(boss, boss.getByLabel('Reason'));
  await boss.keyboard.type('Test drive');
  const skip = boss.getByRole('button', { name: 'Skip', exact: true });
  await tabTo(boss, skip);
  await expectVisibleFocus(skip);
  await boss.keyboard.press('Enter');
  await expect(boss.getByTestId('log-entry').first()).toHaveText(new RegExp(`${name} \\(Test drive\\)`));
  await expect(boss.getByTestId('team-row').filter({ hasText: name })).toContainText('Snoozed until');

  await rep.context().close();
  await boss.context().close();
});

test('a salesman adds a sale with the keyboard alone', async ({ browser }) => {
  const page = await personPage(browser, `keysale.${Date.now()}@e2e.test`, unique('Sal'));
  // From the overview, through the sidebar: Space opens Stats, Enter follows Sales.
  await page.goto('/dashboard/overview');
  await expect(page.getByRole('heading', { name: 'Round Robin', exact: true })).toBeVisible();
  const stats = page.getByRole('button', { name: 'Stats' });
  await tabTo(page, stats);
  await expectVisibleFocus(stats);
  await expect(stats).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Space');
  await expect(stats).toHaveAttribute('aria-expanded', 'true');
  await tabTo(page, page.getByRole('link', { name: 'Sales', exact: true }), 'Tab', 1);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/stats\/sales$/);
  await expect(page.getByRole('heading', { name: 'Sales Tracker' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Add Sale' });
  await expect(page.getByText('No sales logged yet.')).toBeVisible();

  // Arrow keys move within a radio group: Used instead of New.
  await tabTo(page, form.getByRole('radio', { name: 'New' }));
  await page.keyboard.press('ArrowRight');
  await expect(form.getByRole('radio', { name: 'Used' })).toBeChecked();

  const gross = form.getByLabel('Front gross ($)');
  await tabTo(page, gross);
  await page.keyboard.type('1500');
  await expect(page.getByTestId('add-preview')).toHaveText(/^Commission: \$/);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Sale saved.').last()).toBeVisible();
  await expect(gross).toHaveValue('');
  const row = page.getByTestId('sale-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('$1,500.00');
  await expect(row).toContainText('Used');

  // The row's actions are reachable; the Edit dialog keeps focus inside and Escape closes it.
  const edit = row.getByRole('button', { name: /^Edit sale of/ });
  await tabTo(page, edit);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Edit sale' });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Tab');
    expect(await isFocused(dialog), 'focus stays in the open dialog').toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(() => isFocused(edit), { message: 'focus returns to the Edit button' }).toBe(true);
  await page.context().close();
});

test('on a phone the shut menu is out of the tab order; the menu button opens it', async ({ browser }) => {
  const page = await personPage(browser, `keyphone.${Date.now()}@e2e.test`, unique('Pia'));
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/dashboard/overview');
  await expect(page.getByRole('heading', { name: 'Round Robin', exact: true })).toBeVisible();
  const burger = page.getByRole('button', { name: 'Open menu' });
  await tabTo(page, burger, 'Tab', 1);
  // The next stop is not a link of the shut, off-screen menu.
  await page.keyboard.press('Tab');
  expect(await page.getByRole('navigation').evaluate((nav) => nav.contains(document.activeElement))).toBe(false);

  await tabTo(page, burger, 'Shift+Tab');
  await page.keyboard.press('Enter');
  const overview = page.getByRole('link', { name: 'Overview' });
  await tabTo(page, overview, 'Tab', 1);
  await expect(overview).toBeInViewport();
  await tabTo(page, page.getByRole('link', { name: 'Settings' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  // Following a link shuts the menu again.
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  await page.context().close();
});
