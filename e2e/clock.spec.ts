import { expect, test, type Locator, type Page } from '@playwright/test';
import { assignUntil, personPage, unique, uniqueEmail } from './support/people';
import { today } from './support/clock';
import { formatClock, formatDay } from '../domain/format';
import { dayKey } from '../domain/time';

const MANAGER = 'manager@e2e.test';
/** The e2e server's APP_TIMEZONE (its default). */
const DEALERSHIP = 'America/New_York';

/**
 * The browser's zone: far from the dealership, and on another date than the dealership's right
 * now (Tokyo when it is, else a zone at one end of the map), so a time or a "today" taken from
 * the device shows on screen. A run that crosses midnight in New York meanwhile fails on the
 * dates: the clock moved, not the code.
 */
function farZone(): string {
  const now = Date.now();
  const zones = ['Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
  const differs = (tz: string, ms: number) => dayKey(new Date(now + ms), tz) !== dayKey(new Date(now + ms), DEALERSHIP);
  return zones.find((tz) => differs(tz, 0) && differs(tz, 30 * 60_000)) ?? zones.find((tz) => differs(tz, 0))!;
}
const FAR = farZone();
test.use({ timezoneId: FAR });

/** "7:51 AM" as a whole clock reading (not the end of "11:51 AM"), whatever space the page puts before AM. */
const clockOf = (at: string, tz: string) => new RegExp(`(^|\\D)${formatClock(new Date(at), tz).replace(' ', '\\s')}`);

/** The element shows `at` on the dealership's clock, and not on the device's. */
async function showsDealershipTime(el: Locator, at: string) {
  await expect(el).toContainText(clockOf(at, DEALERSHIP));
  await expect(el).not.toContainText(clockOf(at, FAR));
}

const json = async (page: Page, url: string) => {
  const res = await page.request.get(url);
  expect(res.status(), url).toBe(200);
  return res.json();
};

test('every screen shows times and "today" on the dealership’s clock, with the browser in a far-away zone', async ({ browser }) => {
  test.setTimeout(240_000);
  const repEmail = uniqueEmail('kenji');
  const repName = unique('Kenji');
  const rep = await personPage(browser, repEmail, repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const keyName = unique('Clock key');
  let rulesBefore: { skipSnoozeMinutes: number } | null = null;
  try {
    for (const p of [rep, boss]) expect(await p.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(FAR);
    expect(dayKey(new Date(), FAR), 'the browser’s date differs from the dealership’s').not.toBe(today());

    // A lead the test hands out, and the times the server stored for it.
    const [customer] = await assignUntil(boss, repName, 1, 'Clock');
    const lead = (await json(boss, `/api/leads?q=${encodeURIComponent(customer)}`)).leads[0];
    const logAt = (await json(boss, '/api/rotation')).log.find((e: { customer: string | null }) => e.customer === customer).createdAt;
    const assignedEntry = (await json(boss, `/api/leads/${lead.id}/timeline`)).entries.find((e: { type: string }) => e.type === 'assigned');

    // Overview and routing: Recent actions.
    for (const path of ['/dashboard/overview', '/dashboard/routing']) {
      await boss.goto(path);
      await showsDealershipTime(boss.getByTestId('log-entry').filter({ hasText: customer }).getByTestId('log-when'), logAt);
    }

    // The leads list, and the lead's timeline beside it.
    await boss.goto('/dashboard/leads');
    // Newest first: the lead is on the first page.
    const row = boss.getByTestId('lead-row').filter({ hasText: customer });
    await showsDealershipTime(row.getByRole('cell').nth(2), lead.assignedAt);
    await showsDealershipTime(row.getByRole('cell').nth(4), lead.followUpDue);
    await row.getByRole('button', { name: 'Timeline' }).click();
    const timeline = boss.getByRole('dialog', { name: `Timeline: ${customer}` });
    await showsDealershipTime(timeline.getByTestId('timeline-entry').filter({ hasText: `Assigned to ${repName}` }), assignedEntry.at);

    // The salesman's own leads.
    await rep.goto('/dashboard/associates');
    await showsDealershipTime(rep.getByTestId('lead-row').filter({ hasText: customer }).getByRole('cell').nth(1), lead.assignedAt);

    // A sale's date starts at the dealership's today.
    await rep.goto('/dashboard/stats/sales');
    await expect(rep.getByRole('form', { name: 'Add Sale' }).getByLabel('Date')).toHaveValue(today());

    // Lead stats: the floor report is of the dealership's today.
    await boss.goto('/dashboard/stats/leads');
    await expect(boss.getByRole('heading', { name: `Floor report · ${formatDay(today())}` })).toBeVisible();
    await expect(boss.getByLabel('Day', { exact: true })).toHaveValue(today());

    // Management: the salesman's history, the rules' changes and an API key.
    const repId = (await json(rep, '/api/auth/me')).user.uid;
    const audit = (await json(boss, `/api/users/${repId}/audit`)).entries as { at: string }[];
    rulesBefore = (await json(boss, '/api/rules')).rules;
    const snooze = rulesBefore!.skipSnoozeMinutes === 240 ? 239 : rulesBefore!.skipSnoozeMinutes + 1;
    expect((await boss.request.patch('/api/rules', { data: { skipSnoozeMinutes: snooze } })).status()).toBe(200);
    const ruleAt = (await json(boss, '/api/rules')).history[0].at;
    expect((await boss.request.post('/api/integrations/keys', { data: { name: keyName } })).status()).toBe(201);
    const key = (await json(boss, '/api/integrations/keys')).keys.find((k: { name: string }) => k.name === keyName);

    await boss.goto('/dashboard/management');
    await showsDealershipTime(boss.getByTestId('rule-change').first(), ruleAt);
    await showsDealershipTime(boss.getByTestId('api-key-row').filter({ hasText: keyName }), key.createdAt);
    await boss
      .getByTestId('user-row')
      .filter({ hasText: repEmail })
      .getByRole('button', { name: `Edit ${repEmail}` })
      .click();
    const history = boss.getByRole('dialog', { name: 'Edit User' }).getByTestId('history').getByRole('listitem');
    await expect(history).toHaveCount(audit.length);
    for (const [i, e] of audit.entries()) await showsDealershipTime(history.nth(i), e.at);
  } finally {
    if (rulesBefore) await boss.request.patch('/api/rules', { data: { skipSnoozeMinutes: rulesBefore.skipSnoozeMinutes } });
    const key = (await json(boss, '/api/integrations/keys')).keys.find((k: { name: string }) => k.name === keyName);
    if (key) await boss.request.post(`/api/integrations/keys/${key.id}/revoke`);
    for (const p of [rep, boss]) await p.context().close();
  }
});
