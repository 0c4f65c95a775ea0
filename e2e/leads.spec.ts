import { expect, test } from '@playwright/test';
import { assignUntil, personPage, unique, uniqueEmail } from './support/people';
import { dayKey } from '../domain/time';
import { E2E_TZ } from './support/clock';

const MANAGER = 'manager@e2e.test';

test('a manager finds a lead by searching, marks it lost with a reason, and reopens it', async ({ browser }) => {
  const repName = unique('Lena');
  const rep = await personPage(browser, `lena.${Date.now()}@e2e.test`, repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const [customer] = await assignUntil(boss, repName, 1, 'Searchable');

  await boss.goto('/dashboard/leads');
  await expect(boss.getByRole('heading', { name: 'Leads' })).toBeVisible();
  await expect(boss.getByLabel('Only open')).toBeChecked();
  await expect(boss.getByRole('columnheader', { name: 'Status' })).toBeVisible();
  const search = boss.getByPlaceholder('Search customers or assignee…');
  await search.fill(customer.toUpperCase());
  const row = boss.getByTestId('lead-row').filter({ hasText: customer });
  await expect(boss.getByTestId('lead-row')).toHaveCount(1);
  await expect(row).toContainText(repName);
  await expect(row.getByTestId('lead-stage')).toHaveText('Waiting for accept');

  // A manager does not sell another's lead: Close asks him only why it was lost.
  await row.getByRole('button', { name: 'Mark Closed', exact: true }).click();
  const close = boss.getByRole('dialog', { name: `Mark Closed: ${customer}` });
  await expect(close.getByLabel('Why was it lost?')).toBeVisible();
  await expect(close.getByRole('button', { name: 'Save sale' })).toHaveCount(0);
  await close.getByLabel('Why was it lost?').click();
  await boss.getByRole('option', { name: 'Not in market' }).click();
  await close.getByRole('button', { name: 'Mark lost' }).click();
  await expect(close).toHaveCount(0);
  await expect(boss.getByText('No leads found.')).toBeVisible();
  await boss.getByLabel('Only open').uncheck();
  await expect(row.getByTestId('lead-stage')).toHaveText('Lost');
  await expect(row).toContainText('Not in market');
  await row.getByRole('button', { name: 'Reopen' }).click();
  await expect(row.getByTestId('lead-stage')).toHaveText('Contacted');
  await expect(row).not.toContainText('Not in market');
  await boss.getByLabel('Only open').check();
  await expect(row).toBeVisible();

  await search.fill(repName);
  await expect(boss.getByTestId('lead-row')).toHaveCount(1);
  await search.fill('no such customer anywhere');
  await expect(boss.getByText('No leads found.')).toBeVisible();
  for (const p of [rep, boss]) await p.context().close();
});

test("a lead's timeline stays open while the list under it is drawn again: a search, a live update", async ({ browser }) => {
  const repName = unique('Tim');
  const rep = await personPage(browser, uniqueEmail('tim'), repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const [customer, other] = await assignUntil(boss, repName, 2, 'Redraw');

  await boss.goto('/dashboard/leads');
  await boss.getByTestId('lead-row').filter({ hasText: customer }).getByRole('button', { name: 'Timeline' }).click();
  const timeline = boss.getByRole('dialog', { name: `Timeline: ${customer}` });
  await expect(timeline.getByTestId('timeline-entry')).toHaveText([new RegExp(`^Assigned to ${repName} by Manny Manager`)]);

  // A search that still finds the lead: the list is fetched and drawn again under the dialog.
  const search = boss.getByPlaceholder('Search customers or assignee…');
  await search.fill(customer);
  await expect(boss.getByTestId('lead-row')).toHaveCount(1);
  await search.fill(repName);
  await expect(boss.getByTestId('lead-row').filter({ hasText: other })).toHaveCount(1);
  await expect(boss.getByRole('dialog')).toHaveCount(1);
  await expect(timeline.getByTestId('timeline-entry')).toHaveText([new RegExp(`^Assigned to ${repName} by Manny Manager`)]);

  // A lead assigned on another manager's page arrives live.
  const desk = await personPage(browser, MANAGER, 'Manny Manager');
  const [arrived] = await assignUntil(desk, repName, 1, 'Live');
  await expect(boss.getByTestId('lead-row').filter({ hasText: arrived })).toHaveCount(1);
  await expect(boss.getByRole('dialog')).toHaveCount(1);
  await expect(timeline.getByTestId('timeline-entry')).toHaveText([new RegExp(`^Assigned to ${repName} by Manny Manager`)]);

  await timeline.getByRole('button', { name: 'Close' }).click();
  await expect(boss.getByRole('dialog')).toHaveCount(0);
  for (const p of [rep, boss, desk]) await p.context().close();
});

test('a salesman sees Assigned Today go up live, closes their own lead as lost, and keeps their notes', async ({ browser }) => {
  const repName = unique('Sam');
  const rep = await personPage(browser, `sam.${Date.now()}@e2e.test`, repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await rep.goto('/dashboard/associates');
  await expect(rep.getByRole('heading', { name: 'My Stats & Notes' })).toBeVisible();
  await expect(rep.getByTestId('assigned-today')).toHaveText('0');
  await expect(rep.getByTestId('total-month')).toHaveText('0');
  await expect(rep.getByText('No leads found.')).toBeVisible();

  const [customer] = await assignUntil(boss, repName, 1, 'Walk-in');
  await expect(rep.getByTestId('assigned-today')).toHaveText('1');
  await expect(rep.getByTestId('total-month')).toHaveText('1');
  const row = rep.getByTestId('lead-row').filter({ hasText: customer });
  await row.getByRole('button', { name: 'Mark Closed', exact: true }).click();
  const close = rep.getByRole('dialog', { name: `Mark Closed: ${customer}` });
  await close.getByText('Lost', { exact: true }).click();
  await close.getByLabel('Why was it lost?').click();
  await rep.getByRole('option', { name: 'Bought elsewhere' }).click();
  await close.getByRole('button', { name: 'Mark lost' }).click();
  await expect(row).toHaveCount(0);

  await rep.getByLabel('Notes').fill('Call the Smiths back about the trade-in.\nSecond line.');
  await rep.getByRole('button', { name: 'Save notes' }).click();
  await expect(rep.getByText('Notes saved.')).toBeVisible();
  await rep.reload();
  await expect(rep.getByLabel('Notes')).toHaveValue('Call the Smiths back about the trade-in.\nSecond line.');
  for (const p of [rep, boss]) await p.context().close();
});

test('the lead KPI page shows the numbers for a known set of leads', async ({ browser }) => {
  const repName = unique('Kip');
  const rep = await personPage(browser, `kip.${Date.now()}@e2e.test`, repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const leads = await assignUntil(boss, repName, 4, 'Kpi');
  const mine = (await (await rep.request.get('/api/leads/mine?open=1')).json()).leads;
  // Two sold, one lost: a close is a sale (Stats → Funnel's closing ratio), a lost lead none.
  const [a, b, c] = mine.filter((x: { customer: string }) => leads.slice(0, 3).includes(x.customer));
  for (const l of [a, b]) {
    const sale = { actionId: `kpi-${l.id}`, date: dayKey(new Date(), E2E_TZ), frontGross: '1500', vehicleType: 'new', split: 'full' };
    expect((await rep.request.post(`/api/leads/${l.id}/sold`, { data: sale })).ok()).toBe(true);
  }
  expect((await rep.request.post(`/api/leads/${c.id}/lost`, { data: { reason: 'Bought elsewhere' } })).ok()).toBe(true);
  const repId = mine[0].assignedTo;
  expect((await boss.request.post('/api/rotation/skip', { data: { targetUid: repId, reason: 'Test drive', minutes: 1 } })).ok()).toBe(true);

  await boss.goto('/dashboard/stats/leads');
  const row = boss.getByTestId('kpi-row').filter({ hasText: repName });
  await expect(row.getByRole('cell')).toHaveText([repName, '4', '2', '50%', '1']);
  await expect(boss.getByTestId('kpi-row').filter({ hasText: 'Team average' })).toBeVisible();
  await expect(boss.getByRole('table', { name: 'Skips by reason' })).toContainText('Test drive');

  await rep.goto('/dashboard/stats/leads');
  await expect(rep.getByTestId('kpi-row')).toHaveCount(2);
  await expect(rep.getByTestId('kpi-row').first().getByRole('cell')).toHaveText([repName, '4', '2', '50%', '1']);
  for (const p of [rep, boss]) await p.context().close();
});
