import { makePastDue } from './support/db';
import { expect, test } from '@playwright/test';
import { assignUntil, personPage, unique, uniqueEmail } from './support/people';

const MANAGER = 'manager@e2e.test';

test('a manager turns on the hold-out rule; a salesman with a past-due follow-up is held out, sees why, and is back once he makes contact', async ({
  browser,
}) => {
  const repName = unique('Hal');
  const rep = await personPage(browser, uniqueEmail('hal'), repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  try {
    await boss.goto('/dashboard/management');
    const rules = boss.getByRole('form', { name: 'Dealership rules' });
    await rules.getByLabel('Hold out salesmen with past-due follow-ups').check();
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(boss.getByText('Dealership rules saved.')).toBeVisible();
    await boss.reload();
    await expect(boss.getByRole('form', { name: 'Dealership rules' }).getByLabel('Hold out salesmen with past-due follow-ups')).toBeChecked();

    const [customer] = await assignUntil(boss, repName, 1, 'Late');
    makePastDue(customer);
    await boss.goto('/dashboard/routing');
    const row = boss.getByRole('row').filter({ hasText: repName });
    await expect(row.getByTestId('held-out')).toHaveText('Held out: 1 past-due follow-up');
    await rep.goto('/dashboard/overview');
    await expect(rep.getByTestId('my-held-out')).toContainText('Held out: 1 past-due follow-up');
    await expect(rep.getByTestId('my-held-out')).toContainText(customer);

    // He calls the customer back: he is in line again, on both screens, live.
    const lead = (await (await rep.request.get('/api/leads/mine?open=1')).json()).leads.find((l: { customer: string }) => l.customer === customer);
    expect((await rep.request.post(`/api/leads/${lead.id}/contact`, { data: { channel: 'Call' } })).ok()).toBe(true);
    await expect(row.getByTestId('held-out')).toHaveCount(0);
    await expect(row).toContainText(/#\d+/);
    await expect(rep.getByTestId('my-held-out')).toHaveCount(0);
  } finally {
    await boss.request.patch('/api/rules', { data: { holdOut: false } });
    for (const p of [rep, boss]) await p.context().close();
  }
});

test('a be-back goes to the salesman the customer asks for, and Next Up stays', async ({ browser }) => {
  const askedName = unique('Bea');
  const asked = await personPage(browser, uniqueEmail('bea'), askedName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  try {
    // He is off the floor: a be-back reaches him anyway.
    expect((await asked.request.post('/api/rotation/duty', { data: { onDuty: false } })).ok()).toBe(true);
    await boss.goto('/dashboard/routing');
    const form = boss.getByRole('form', { name: 'Assign next' });
    const nextUp = (await (await boss.request.get('/api/rotation')).json()).nextUp.name as string;
    await expect(form.getByText(`Next up: ${nextUp}`)).toBeVisible();
    const customer = unique('Returning');
    await form.getByLabel('Customer name').fill(customer);
    await form.getByLabel('Customer asks for').click();
    await boss.getByRole('option', { name: askedName }).click();
    await form.getByRole('button', { name: 'Assign be-back' }).click();
    await expect(boss.getByText(`${customer} is a be-back for ${askedName}.`)).toBeVisible();
    await expect(form.getByText(`Next up: ${nextUp}`)).toBeVisible();
    await expect(boss.getByTestId('log-entry').first()).toContainText(`${askedName} → ${customer}`);
    await expect(boss.getByTestId('log-entry').first().getByText('be-back')).toBeVisible();

    await asked.goto('/dashboard/associates');
    const row = asked.getByTestId('lead-row').filter({ hasText: customer });
    await expect(row.getByTestId('lead-be-back')).toHaveText('Be-back');
  } finally {
    for (const p of [asked, boss]) await p.context().close();
  }
});
