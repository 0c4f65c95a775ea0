import { expect, test, type Locator, type Page } from '@playwright/test';
import { postWebhook } from '../server/test/sms-provider';
import { textsTo } from './support/sms';
import { slotEnv } from './support/slot';
import { makeNextUp, personPage, unique, uniqueEmail } from './support/people';

const MANAGER = 'manager@e2e.test';

/** Picks an option of a Mantine select by its label. */
async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a salesman chooses what reaches him per kind, or follows the default his manager sets under Dealership rules', async ({ browser }) => {
  const rep = await personPage(browser, uniqueEmail('choices'), unique('Cho'), { onFloor: false });
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  try {
    await rep.goto('/dashboard/settings');
    const mine = rep.getByTestId('notice-choices');
    await expect(mine.getByRole('heading', { name: 'What reaches you' })).toBeVisible();
    for (const label of ['New lead', 'You’re up next', 'Time running out', 'Appointments'])
      await expect(mine.getByRole('combobox', { name: label })).toHaveValue('Push');
    await expect(mine.getByText('The dealership’s choices.')).toBeVisible();

    await choose(rep, mine, 'New lead', 'Text');
    await expect(rep.getByText('Saved: this is what reaches you now.')).toBeVisible();
    await rep.reload();
    await expect(mine.getByRole('combobox', { name: 'New lead' })).toHaveValue('Text');
    await expect(mine.getByText('Your own choices.')).toBeVisible();

    // The manager's default: what those who follow it get.
    await boss.goto('/dashboard/management');
    const rules = boss.getByRole('form', { name: 'Dealership rules' });
    await choose(boss, rules, 'You’re up next', 'None');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(boss.getByText('Dealership rules saved.')).toBeVisible();
    await expect(boss.getByTestId('rule-change').first()).toContainText('What reaches salesmen');
    await expect(boss.getByTestId('rule-change').first()).toContainText('You’re up next None');

    await mine.getByRole('button', { name: 'Use the dealership’s' }).click();
    await expect(rep.getByText('Back to the dealership’s choices.')).toBeVisible();
    await expect(mine.getByRole('combobox', { name: 'New lead' })).toHaveValue('Push');
    await expect(mine.getByRole('combobox', { name: 'You’re up next' })).toHaveValue('None');
  } finally {
    // Other specs find the default as it was.
    await boss.request.patch('/api/rules', { data: { notify: { lead: 'push', up_next: 'push', time_left: 'push', appointment: 'push' } } });
    await rep.context().close();
    await boss.context().close();
  }
});

test('a new lead is texted as he chose, its link opens the lead only behind sign-in, and the delivery shows on its timeline and in Lead Stats', async ({
  browser,
  baseURL,
}) => {
  const name = unique('Tex');
  const rep = await personPage(browser, uniqueEmail('texted'), name);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const stranger = await (await browser.newContext()).newPage();
  const mobile = `+1843556${String(1000 + Math.floor(Math.random() * 9000))}`;
  try {
    // His mobile, confirmed by the code the provider's stand-in took; a text for a new lead, nothing else.
    expect((await rep.request.put('/api/profile/mobile', { data: { mobile } })).ok()).toBe(true);
    await expect.poll(() => textsTo(mobile).length).toBe(1);
    const code = /\b([0-9]{6})\b/.exec(textsTo(mobile)[0].body)![1];
    expect((await rep.request.post('/api/profile/mobile/confirm', { data: { code } })).ok()).toBe(true);
    const choices = { lead: 'sms', up_next: 'none', time_left: 'none', appointment: 'none' };
    expect((await rep.request.put('/api/profile/notify', { data: { choices } })).ok()).toBe(true);

    await makeNextUp(boss, name);
    const customer = unique('Texas');
    expect((await boss.request.post('/api/rotation/assign', { data: { customer } })).ok()).toBe(true);
    await expect.poll(() => textsTo(mobile).filter((m) => m.body.startsWith(`New lead: ${customer}.`)).length).toBe(1);
    const text = textsTo(mobile).find((m) => m.body.startsWith(`New lead: ${customer}.`))!;
    const link = /Accept: (\S+)$/.exec(text.body)![1];
    expect(link).toMatch(/\/dashboard\/associates\?lead=\d+$/);

    // The link signs nobody in: a browser without his session lands on sign-in and sees no customer.
    await stranger.goto(link);
    await expect(stranger.getByLabel('Work Email')).toBeVisible();
    await expect(stranger.getByText(customer)).toHaveCount(0);

    // The provider reports it delivered (signed, as it posts).
    const report = await postWebhook(slotEnv('SMS_TOKEN'), `${baseURL}/api/sms/status`, { MessageSid: text.sid, MessageStatus: 'delivered', To: mobile });
    expect(report.status).toBeLessThan(300);

    await boss.goto('/dashboard/leads');
    const row = boss.getByTestId('lead-row').filter({ hasText: customer });
    await row.getByRole('button', { name: 'Timeline' }).click();
    const timeline = boss.getByRole('dialog', { name: `Timeline: ${customer}` });
    await expect(timeline.getByTestId('timeline-entry').filter({ hasText: /^Text delivered \d{1,2}:\d\d:\d\d to / })).toContainText(`to ${name}`);

    await boss.goto('/dashboard/stats/leads');
    await expect(boss.getByTestId('first-notice')).toContainText(/^Median .* · 90%: .* · \d+ leads?$/);
  } finally {
    await rep.request.delete('/api/profile/mobile');
    for (const p of [rep, boss, stranger]) await p.context().close();
  }
});
