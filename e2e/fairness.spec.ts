import { expect, test, type Page } from '@playwright/test';
import { makeNextUp, personPage, unique } from './support/people';

const MANAGER = 'manager@e2e.test';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** The leads the portal holds for this customer, as a manager's search finds them. */
async function leadsFor(page: Page, customer: string) {
  const res = await page.request.get(`/api/leads?q=${encodeURIComponent(customer)}&open=0`);
  return ((await res.json()).leads as { customer: string }[]).filter((l) => l.customer === customer);
}

test('a double-click on Assign hands out one lead, and the same action id twice makes one lead', async ({ browser }) => {
  await personPage(browser, `dbl.${stamp()}@e2e.test`, unique('Dee'));
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await boss.goto('/dashboard/routing');
  const customer = unique('Double');
  await boss.getByLabel('Customer name').fill(customer);
  await boss.getByRole('button', { name: 'Assign next' }).dblclick();
  await expect(boss.getByTestId('log-entry').first()).toContainText(`→ ${customer}`);
  // A later assign proves the first finished: then exactly one lead and one log line are there.
  const later = unique('Later');
  await boss.getByLabel('Customer name').fill(later);
  await boss.getByRole('button', { name: 'Assign next' }).click();
  await expect(boss.getByTestId('log-entry').first()).toContainText(`→ ${later}`);
  expect(await leadsFor(boss, customer)).toHaveLength(1);
  await expect(boss.getByTestId('log-entry').filter({ hasText: `→ ${customer}` })).toHaveCount(1);

  const retried = unique('Retry');
  const actionId = `retry-${stamp()}`;
  const send = () => boss.request.post('/api/rotation/assign', { data: { customer: retried, actionId } });
  const [a, b] = [await send(), await send()];
  expect(a.status()).toBe(200);
  expect(await b.json()).toEqual(await a.json());
  expect(await leadsFor(boss, retried)).toHaveLength(1);
  await boss.context().close();
});

test('a newcomer is listed but not in the queue until he is on the floor', async ({ browser }) => {
  const name = unique('Newt');
  const rep = await personPage(browser, `newt.${stamp()}@e2e.test`, name, { onFloor: false });
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await boss.goto('/dashboard/routing');
  const row = boss.getByTestId('team-row').filter({ hasText: name });
  await expect(row.getByTestId('place')).toHaveText('Off duty');

  await rep.goto('/dashboard/overview');
  await expect(rep.getByTestId('your-position')).toHaveText('Not in rotation');
  await rep.getByText("I'm on the floor").click();
  // His own place and the routing table's read the same number, counted from Next Up.
  await expect(rep.getByTestId('your-position')).toHaveText(/^#\d+$/);
  const mine = await rep.getByTestId('your-position').textContent();
  await expect(row.getByTestId('place')).toHaveText(mine!);
  await expect(boss.getByTestId('team-row').filter({ has: boss.getByText('Next Up', { exact: true }) })).toHaveCount(1);
  await expect(boss.locator('[aria-current="true"]').getByTestId('place')).toHaveText('#1');
  await rep.context().close();
  await boss.context().close();
});

test("a manager's own row and a MANAGER_EMAILS row offer no Disable, Delete or role change, and the server refuses them", async ({ browser }) => {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const email = `deputy.${stamp()}@e2e.test`;
  // A group manager, who may change another group manager but for the configured one's lock-out.
  const added = await boss.request.post('/api/users', { data: { email, name: 'Dana Deputy', role: 'manager', groupManager: true } });
  const deputyId = (await added.json()).user.id as string;
  const deputy = await personPage(browser, email, 'Dana Deputy');
  await deputy.goto('/dashboard/management');

  const own = deputy.getByTestId('user-row').filter({ hasText: email });
  const configured = deputy.getByTestId('user-row').filter({ hasText: MANAGER });
  await expect(configured.getByText('Set by configuration')).toBeVisible();
  for (const r of [own, configured]) {
    await expect(r.getByRole('button', { name: /^Edit / })).toBeVisible();
    await expect(r.getByRole('button', { name: /^Disable / })).toHaveCount(0);
    await expect(r.getByRole('button', { name: /^Soft Delete / })).toHaveCount(0);
  }
  await own.getByRole('button', { name: `Edit ${email}` }).click();
  await expect(deputy.getByRole('dialog', { name: 'Edit User' }).getByLabel('Role')).toBeDisabled();
  await deputy.keyboard.press('Escape');

  const self = await deputy.request.post(`/api/users/${deputyId}/disable`);
  expect(self.status()).toBe(409);
  expect((await self.json()).error).toContain('You cannot disable your own account');
  const bossId = (await (await boss.request.get('/api/auth/me')).json()).user.uid;
  for (const action of ['disable', 'delete']) {
    const r = await deputy.request.post(`/api/users/${bossId}/${action}`);
    expect(r.status()).toBe(409);
    expect((await r.json()).error).toContain('MANAGER_EMAILS');
  }
  const demote = await deputy.request.patch(`/api/users/${bossId}`, { data: { email: MANAGER, role: 'staff' } });
  expect(demote.status()).toBe(409);
  // Still a manager: his page still answers.
  await boss.goto('/dashboard/management');
  await expect(boss.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await boss.context().close();
  await deputy.context().close();
});

test('a salesman marks his lead Lost with a reason and reopens it himself', async ({ browser }) => {
  const name = unique('Cleo');
  const rep = await personPage(browser, `cleo.${stamp()}@e2e.test`, name);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  // The shared database has others on the floor: hand out walk-ins until she is Next Up.
  await makeNextUp(boss, name);
  const customer = unique('Gone');
  const handed = await (await boss.request.post('/api/rotation/assign', { data: { customer } })).json();
  expect(handed.assignedTo.name).toBe(name);
  await rep.goto('/dashboard/associates');
  const row = rep.getByRole('region', { name: 'My leads' }).getByTestId('lead-row').filter({ hasText: customer });
  const close = rep.getByRole('dialog', { name: `Mark Closed: ${customer}` });
  // A Lost is said with an Undo, which opens the lead again.
  await row.getByRole('button', { name: 'Mark Closed', exact: true }).click();
  await close.getByText('Lost', { exact: true }).click();
  await close.getByLabel('Why was it lost?').click();
  await rep.getByRole('option', { name: 'Bought elsewhere' }).click();
  await close.getByRole('button', { name: 'Mark lost' }).click();
  const said = rep.locator('.mantine-Notification-root').filter({ hasText: `${customer} is lost (Bought elsewhere).` });
  await said.getByRole('button', { name: 'Undo' }).click();
  await expect(said).toHaveCount(0);
  await expect(row.getByTestId('lead-stage')).toHaveText('Contacted');

  await row.getByRole('button', { name: 'Mark Closed', exact: true }).click();
  await close.getByText('Lost', { exact: true }).click();
  // Lost asks why: without a reason nothing is marked.
  await close.getByRole('button', { name: 'Mark lost' }).click();
  await expect(close.getByText('Choose why the lead was lost')).toBeVisible();
  await close.getByLabel('Why was it lost?').click();
  await rep.getByRole('option', { name: 'No response' }).click();
  await close.getByLabel('Note (optional)').fill('Three calls, two texts');
  await close.getByRole('button', { name: 'Mark lost' }).click();
  await expect(close).toHaveCount(0);
  // Gone from her open leads; among all of them it reads Lost, with the reason.
  await expect(row).toHaveCount(0);
  await rep.getByLabel('Only open').uncheck();
  await expect(row.getByTestId('lead-stage')).toHaveText('Lost');
  await expect(row).toContainText('No response');
  await expect(row.getByRole('button', { name: 'Mark Closed', exact: true })).toHaveCount(0);

  // She lost it, so she may reopen it herself: back to Contacted and open again.
  await row.getByRole('button', { name: 'Reopen' }).click();
  await expect(row.getByTestId('lead-stage')).toHaveText('Contacted');
  await expect(row.getByRole('button', { name: 'Mark Closed', exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Timeline' }).click();
  const timeline = rep.getByRole('dialog', { name: `Timeline: ${customer}` });
  await expect(timeline.getByTestId('timeline-entry').filter({ hasText: `Lost (No response), marked by ${name}` })).toContainText('Three calls, two texts');
  await expect(timeline.getByTestId('timeline-entry').last()).toContainText(`Reopened by ${name}`);
  await timeline.getByRole('button', { name: 'Close' }).click();
  await rep.getByLabel('Only open').check();
  await expect(row).toBeVisible();
  await rep.context().close();
  await boss.context().close();
});
