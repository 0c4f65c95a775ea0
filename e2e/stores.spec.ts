import { expect, test, type Browser, type Page } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { uniqueCode } from './support/store';
import { formatDay } from '../domain/format';
import { dayKey } from '../domain/time';

const MANAGER = 'manager@e2e.test';

/** A code nobody else in the run uses: 2 to 8 capitals and digits. */

/**
 * Two stores of the spec's own, each with one salesman of its own on the floor, so each store's
 * Next Up is known. Their clocks are a day apart whenever the test runs (UTC+14 and UTC-11).
 * The group manager's own store (where the other specs' calls go) is put back by `done`.
 */
async function twoStores(browser: Browser) {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const home: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  const stores = [
    { name: unique('Eastside Honda'), code: uniqueCode('E'), timezone: 'Pacific/Kiritimati' },
    { name: unique('Westside Toyota'), code: uniqueCode('W'), timezone: 'Pacific/Pago_Pago' },
  ];
  for (const s of stores) {
    const res = await boss.request.post('/api/stores', { data: s });
    expect(res.status(), await res.text()).toBe(201);
  }
  const reps: { name: string; page: Page }[] = [];
  for (const [i, s] of stores.entries()) {
    const name = unique(['Erin', 'Walt'][i]);
    const email = uniqueEmail(name.split(' ')[0].toLowerCase());
    // Made in his store (X-Store), whose people the answer is read among.
    const res = await boss.request.post('/api/users', { data: { email, name, role: 'staff', stores: [s.code] }, headers: { 'x-store': s.code } });
    expect(res.ok(), await res.text()).toBe(true);
    reps.push({ name, page: await personPage(browser, email, name) });
  }
  const done = async () => {
    await boss.request.put('/api/profile/store', { data: { code: home } });
    for (const p of [...reps.map((r) => r.page), boss]) await p.context().close();
  };
  return { boss, home, east: { ...stores[0], rep: reps[0].name }, west: { ...stores[1], rep: reps[1].name }, done };
}

/**
 * Chooses a store in the header's switcher, by keyboard: a busy machine may still be placing the
 * popover when a click lands, which then falls on whatever was under the pointer.
 */
async function switchTo(page: Page, storeName: string) {
  await page.getByTestId('store-switcher').click();
  await page.getByTestId('store-choices').getByRole('button', { name: storeName }).press('Enter');
}

const rememberedStore = async (page: Page) => (await (await page.request.get('/api/auth/me')).json()).user.store;

test('a group manager switches store: the address, Next Up, the routing, the leads, the lead stats and the clock follow, and his choice is remembered', async ({
  browser,
}) => {
  const { boss, east, west, done } = await twoStores(browser);
  try {
    await boss.goto(`/s/${east.code}/dashboard/overview`);
    await expect(boss.getByTestId('store-switcher')).toContainText(east.code);
    await expect(boss.getByTestId('next-up')).toHaveText(east.rep);

    await switchTo(boss, west.name);
    await expect(boss).toHaveURL(new RegExp(`/s/${west.code}/dashboard/overview$`));
    await expect(boss.getByTestId('store-switcher')).toContainText(west.code);
    await expect(boss.getByTestId('next-up')).toHaveText(west.rep);
    await expect.poll(() => rememberedStore(boss)).toBe(west.code);

    // Routing in the west store hands the customer to the west store's salesman.
    await boss.getByRole('link', { name: 'Routing' }).click();
    await expect(boss).toHaveURL(new RegExp(`/s/${west.code}/dashboard/routing$`));
    const assign = boss.getByRole('form', { name: 'Assign next' });
    await expect(assign).toContainText(`Next up: ${west.rep}`);
    const customer = unique('Westie');
    await assign.getByLabel('Customer name').fill(customer);
    await assign.getByRole('button', { name: 'Assign next' }).click();
    await expect(boss.getByText(`${customer} assigned to ${west.rep}.`)).toBeVisible();

    // The same screen in the other store: its own line, and the address says which store.
    await switchTo(boss, east.name);
    await expect(boss).toHaveURL(new RegExp(`/s/${east.code}/dashboard/routing$`));
    await expect(boss.getByRole('form', { name: 'Assign next' })).toContainText(`Next up: ${east.rep}`);
    await expect(boss.getByTestId('team-row').filter({ hasText: west.rep })).toHaveCount(0);
    await expect(boss.getByTestId('team-row').filter({ hasText: east.rep })).toHaveCount(1);

    // The lead is the west store's only.
    await boss.goto(`/s/${east.code}/dashboard/leads`);
    await boss.getByPlaceholder('Search customers or assignee…').fill(customer);
    await expect(boss.getByText('No leads found.')).toBeVisible();
    await boss.goto(`/s/${west.code}/dashboard/leads`);
    await boss.getByPlaceholder('Search customers or assignee…').fill(customer);
    await expect(boss.getByTestId('lead-row').filter({ hasText: customer })).toContainText(west.rep);

    // Lead stats: each store's own salesmen, and "today" on each store's own clock (a day apart).
    // The Stats group opens first: until it has, the first "Leads" link is the one to the leads list.
    const stats = boss.getByRole('button', { name: 'Stats' });
    await stats.click();
    await expect(stats).toHaveAttribute('aria-expanded', 'true');
    await boss.locator('a[href$="/dashboard/stats/leads"]').click();
    await expect(boss).toHaveURL(new RegExp(`/s/${west.code}/dashboard/stats/leads$`));
    await expect(boss.getByTestId('kpi-row').filter({ hasText: west.rep })).toBeVisible();
    await expect(boss.getByTestId('kpi-row').filter({ hasText: east.rep })).toHaveCount(0);
    await expect(boss.getByRole('heading', { name: `Floor report · ${formatDay(dayKey(new Date(), west.timezone))}` })).toBeVisible();
    await switchTo(boss, east.name);
    await expect(boss).toHaveURL(new RegExp(`/s/${east.code}/dashboard/stats/leads$`));
    await expect(boss.getByTestId('kpi-row').filter({ hasText: east.rep })).toBeVisible();
    await expect(boss.getByTestId('kpi-row').filter({ hasText: west.rep })).toHaveCount(0);
    await expect(boss.getByRole('heading', { name: `Floor report · ${formatDay(dayKey(new Date(), east.timezone))}` })).toBeVisible();

    // Remembered: an address from before stores opens in the store he chose last.
    await expect.poll(() => rememberedStore(boss)).toBe(east.code);
    await boss.goto('/dashboard/routing');
    await expect(boss).toHaveURL(new RegExp(`/s/${east.code}/dashboard/routing$`));
    await expect(boss.getByRole('form', { name: 'Assign next' })).toContainText(`Next up: ${east.rep}`);
  } finally {
    await done();
  }
});

test("a store's manager sees his store only: no switcher, no group screen, and another store's address is Not found", async ({ browser }) => {
  const { boss, east, west, done } = await twoStores(browser);
  const email = uniqueEmail('sam');
  const name = unique('Sam Storemanager');
  const made = await boss.request.post('/api/users', { data: { email, name, role: 'manager', stores: [east.code] }, headers: { 'x-store': east.code } });
  expect(made.ok(), await made.text()).toBe(true);
  const sam = await personPage(browser, email, name);
  try {
    await expect(sam).toHaveURL(new RegExp(`/s/${east.code}/dashboard/overview$`));
    await expect(sam.getByTestId('next-up')).toHaveText(east.rep);
    await expect(sam.getByTestId('store-name')).toHaveText(east.name);
    await expect(sam.getByTestId('store-switcher')).toHaveCount(0);
    await expect(sam.getByRole('link', { name: 'Group' })).toHaveCount(0);

    // Manager → Stores lists his store only, with nothing to add or change.
    await sam.getByRole('link', { name: 'Manager' }).click();
    const stores = sam.getByRole('region', { name: 'Stores' });
    await expect(stores.getByTestId('store-row')).toHaveCount(1);
    await expect(stores.getByTestId('store-row')).toContainText(east.name);
    await expect(stores.getByRole('button', { name: 'Add store' })).toHaveCount(0);

    // Another store's screens, by address or by the API, are not his.
    await sam.goto(`/s/${west.code}/dashboard/routing`);
    await expect(sam.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    expect((await sam.request.get('/api/rotation', { headers: { 'x-store': west.code } })).status()).toBe(404);
    await sam.goto('/group');
    await expect(sam).toHaveURL(new RegExp(`/s/${east.code}/dashboard/overview$`));
  } finally {
    await sam.context().close();
    await done();
  }
});

test('the group screen shows every store and follows a lead assigned in any of them live', async ({ browser }) => {
  const { boss, east, west, done } = await twoStores(browser);
  try {
    // The screen is drawn, then its live stream opens and says hello (which refreshes it once).
    const streamOpen = boss.waitForResponse((r) => r.url().endsWith('/api/events?store=*'));
    await boss.goto('/group');
    await expect(boss.getByRole('heading', { name: 'Group', exact: true })).toBeVisible();
    await expect(boss.getByTestId('store-switcher')).toContainText('All stores');
    await streamOpen;
    const row = (code: string) => boss.locator(`[data-testid="group-store"][data-store="${code}"]`);
    await expect(row(east.code)).toContainText(east.name);
    await expect(row(east.code).getByTestId('group-next-up')).toHaveText(east.rep);
    await expect(row(west.code).getByTestId('group-next-up')).toHaveText(west.rep);
    await expect(row(west.code).getByTestId('group-inLine')).toHaveText('1');
    await expect(row(west.code).getByTestId('group-upsToday')).toHaveText('0');

    // A lead assigned elsewhere (through the API, not on this screen) in each store: nothing
    // but the stream's event makes the screen ask again.
    const assign = async (code: string) => {
      const res = await boss.request.post('/api/rotation/assign', { data: { customer: unique('Grouped') }, headers: { 'x-store': code } });
      expect(res.ok(), await res.text()).toBe(true);
    };
    await assign(west.code);
    await expect(row(west.code).getByTestId('group-upsToday')).toHaveText('1');
    await expect(row(east.code).getByTestId('group-upsToday')).toHaveText('0');
    await assign(east.code);
    await assign(east.code);
    await expect(row(east.code).getByTestId('group-upsToday')).toHaveText('2');

    // A store's name opens its routing.
    await row(west.code).getByRole('link', { name: west.name }).click();
    await expect(boss).toHaveURL(new RegExp(`/s/${west.code}/dashboard/routing$`));

    // On a phone: a card per store, and nothing wider than the screen.
    await boss.setViewportSize({ width: 375, height: 740 });
    await boss.goto('/group');
    await expect(row(east.code)).toBeVisible();
    await expect(boss.getByRole('table')).toHaveCount(0);
    expect(await boss.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  } finally {
    await done();
  }
});

test('a group manager adds a store and a salesman to it on the Manager screen; a taken code is refused with its reason', async ({ browser }) => {
  // The first store's Manager screen lists every person the whole run has made.
  test.setTimeout(240_000);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const home: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  try {
    await boss.goto(`/s/${home}/dashboard/management`);
    const section = boss.getByRole('region', { name: 'Stores' });
    await expect(section.getByTestId('store-row').first()).toBeVisible();

    const store = { name: unique('Lakeside Kia'), code: uniqueCode('L') };
    await section.getByRole('button', { name: 'Add store' }).click();
    const dialog = boss.getByRole('dialog', { name: 'Add store' });
    await dialog.getByLabel('Name').fill(store.name);
    await dialog.getByLabel('Code').fill(store.code.toLowerCase());
    await dialog.getByRole('combobox', { name: 'Time zone' }).fill('Chicago');
    await boss.getByRole('option', { name: 'America/Chicago' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    const added = section.getByTestId('store-row').filter({ hasText: store.name });
    await expect(added).toContainText(store.code);
    await expect(added).toContainText('America/Chicago');

    // The same code again: the server's reason, under the field.
    await section.getByRole('button', { name: 'Add store' }).click();
    await dialog.getByLabel('Name').fill(unique('Copycat'));
    await dialog.getByLabel('Code').fill(store.code);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText(`A store with the code ${store.code} already exists.`)).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Its name and clock change; the new store is in the switcher at once.
    await added.getByRole('button', { name: `Edit ${store.name}` }).click();
    const edit = boss.getByRole('dialog', { name: 'Edit store' });
    await expect(edit.getByLabel('Code')).toBeDisabled();
    const renamed = `${store.name} North`;
    await edit.getByLabel('Name').fill(renamed);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(section.getByTestId('store-row').filter({ hasText: renamed })).toBeVisible();
    // The new store is in the switcher at once: the same screen there.
    await switchTo(boss, renamed);
    await expect(boss).toHaveURL(new RegExp(`/s/${store.code}/dashboard/management$`));
    await expect(boss.getByTestId('user-row').filter({ hasText: MANAGER })).toContainText('Group manager');

    // A salesman added here by a group manager: this store, and one more he picks.
    const email = uniqueEmail('kim');
    await boss.getByRole('button', { name: 'Add User' }).click();
    const add = boss.getByRole('dialog', { name: 'Add User' });
    await add.getByLabel('Email').fill(email);
    await add.getByLabel('Name').fill(unique('Kim'));
    await expect(add.getByLabel('Role')).toHaveValue('staff');
    await add.getByRole('combobox', { name: 'Stores' }).fill(home);
    await boss.getByRole('option', { name: new RegExp(`\\(${home}\\)$`) }).click();
    // The list stays open for another pick; leaving the field closes it.
    await add.getByLabel('Name').click();
    await expect(boss.getByRole('listbox', { name: 'Stores' })).toBeHidden();
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add).toHaveCount(0);
    const row = boss.getByTestId('user-row').filter({ hasText: email });
    await expect(row.getByTestId('user-stores')).toContainText(home);
    await expect(row.getByTestId('user-stores')).toContainText(store.code);
    const made = (await (await boss.request.get('/api/users', { headers: { 'x-store': store.code } })).json()).users.find(
      (u: { email: string }) => u.email === email,
    );
    expect(made.stores.sort()).toEqual([home, store.code].sort());
  } finally {
    await boss.request.put('/api/profile/store', { data: { code: home } });
    await boss.context().close();
  }
});
