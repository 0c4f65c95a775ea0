import fs from 'node:fs';
import path from 'node:path';
import { axe } from './support/axe';
import { makePastDue } from './support/db';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { makeNextUp, personPage, unique, uniqueEmail } from './support/people';
import { E2E_TZ, today } from './support/clock';
import { signIn } from './support/session';
import { animationsDone } from './support/settle';
import { layoutProblems } from './support/layout';
import { formatWhen } from '../domain/format';
import { atClock } from '../domain/hours';
import { localTimeOf } from '../domain/stages';
import { dayKey } from '../domain/time';

/**
 * Issue #29: a lead's life in the browser. A salesman accepts a lead, logs a call with his next
 * follow-up, sets an appointment; the manager marks it shown; the salesman closes it as sold and
 * the sale, naming the customer, is in his tracker. A lead closed as lost says why.
 */

const MANAGER = 'manager@e2e.test';

/** Where to keep pictures of the lead list and the Close dialog (LEAD_LIFE_SHOTS=/tmp/shots), for a person to look at; unset, none. */
const SHOTS = process.env.LEAD_LIFE_SHOTS;

/** A day `days` from the dealership's today, at `hhmm` on its clock, as a date-time field takes it and as the list shows it. */
function ahead(days: number, hhmm: string) {
  const day = dayKey(new Date(Date.now() + days * 86_400_000), E2E_TZ);
  const at = atClock(day, hhmm, E2E_TZ);
  return { field: `${day}T${hhmm}`, at, shown: formatWhen(at, new Date(), E2E_TZ) };
}

/**
 * A time later today on the dealership's clock, as the field takes it and the list shows it: an
 * appointment that may be marked Shown now (its last minute late at night, still not in the past).
 */
function laterToday() {
  const now = new Date();
  const day = dayKey(now, E2E_TZ);
  const soon = localTimeOf(new Date(now.getTime() + 120_000), E2E_TZ);
  const field = soon.startsWith(day) ? soon : `${day}T23:59`;
  const at = atClock(day, field.slice(11), E2E_TZ);
  return { field, at, shown: formatWhen(at, new Date(), E2E_TZ) };
}

/** A lead with a phone, an e-mail and a vehicle, as a website sends it (ADF), handed to Next Up. */
async function websiteLead(request: APIRequestContext, boss: Page, customer: string, phone: string) {
  const key = (await (await boss.request.post('/api/integrations/keys', { data: { name: unique('Life feed') } })).json()).key as string;
  const adf = `<?xml version="1.0" encoding="UTF-8"?>
<adf><prospect>
  <vehicle interest="buy"><year>2025</year><make>Honda</make><model>Accord</model></vehicle>
  <customer><contact><name part="full">${customer}</name><email>buyer@example.com</email><phone type="voice">${phone}</phone></contact></customer>
</prospect></adf>`;
  const res = await request.post('/api/v1/leads', { headers: { 'x-api-key': key, 'content-type': 'application/xml' }, data: adf });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).leads[0] as { customer: string; assignedTo: string };
}

test('a salesman accepts a lead, logs a call with his next follow-up, sets an appointment; the manager marks it shown; he sells it and the sale names the customer', async ({
  browser,
  request,
}) => {
  const repName = unique('Lou');
  const rep = await personPage(browser, uniqueEmail('lou'), repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const customer = unique('Dana Buyer');
  const phone = '843-555-0199';
  await makeNextUp(boss, repName);
  expect(await websiteLead(request, boss, customer, phone)).toMatchObject({ customer, assignedTo: repName });

  await rep.goto('/dashboard/associates');
  const row = rep.getByRole('region', { name: 'My leads' }).getByTestId('lead-row').filter({ hasText: customer });
  await expect(row.getByTestId('lead-stage')).toHaveText('Waiting for accept');
  // The phone and the e-mail are links a phone acts on: call, text, write.
  const reach = row.getByTestId('lead-contact');
  await expect(reach.getByRole('link', { name: `Call ${customer} at ${phone}` })).toHaveAttribute('href', 'tel:8435550199');
  await expect(reach.getByRole('link', { name: `Text ${customer}` })).toHaveAttribute('href', 'sms:8435550199');
  await expect(reach.getByRole('link', { name: 'buyer@example.com' })).toHaveAttribute('href', 'mailto:buyer@example.com');

  // The new lead is first on his page, and Accept says so and opens it: Log contact, with the ways to reach the customer.
  await expect(rep.getByTestId('due-group').first()).toHaveText('Waiting for your Accept (1)');
  await row.getByRole('button', { name: 'Accept' }).click();
  await expect(rep.getByText(`You accepted ${customer}. Reach them now and log the contact.`)).toBeVisible();
  const opened = rep.getByRole('dialog', { name: `Log contact: ${customer}` });
  await expect(opened.getByRole('link', { name: `Call ${customer} at ${phone}` })).toBeVisible();
  await opened.getByRole('button', { name: 'Close' }).click();
  await expect(opened).toHaveCount(0);
  await expect(row.getByTestId('lead-stage')).toHaveText('Accepted');
  await expect(rep.getByTestId('due-group').first()).toHaveText('New and due today (1)');

  // A day later he has not called: the lead is overdue, first on his page.
  makePastDue(customer);
  await rep.reload();
  await expect(rep.getByTestId('due-group')).toHaveText(['Overdue (1)']);
  await expect(row.getByText('Overdue', { exact: true })).toBeVisible();

  // He logs his call; the next follow-up is the rule's hours from now unless he picks another.
  const hours = (await (await rep.request.get('/api/rules')).json()).rules.nextFollowUpHours as number;
  const before = Date.now();
  await row.getByRole('button', { name: 'Log contact' }).click();
  const contact = rep.getByRole('dialog', { name: `Log contact: ${customer}` });
  const next = contact.getByLabel('Next follow-up');
  await expect(next).toHaveAttribute('type', 'datetime-local');
  const proposed = await next.inputValue();
  expect([localTimeOf(new Date(before + hours * 3_600_000), E2E_TZ), localTimeOf(new Date(Date.now() + hours * 3_600_000), E2E_TZ)]).toContain(proposed);
  await contact.getByLabel('How did you reach the customer?').click();
  await rep.getByRole('option', { name: 'Call' }).click();
  await contact.getByLabel('Outcome').click();
  await rep.getByRole('option', { name: 'Talked' }).click();
  await contact.getByLabel('Note (optional)').fill('Wants to see the Accord in grey');
  const followUp = ahead(3, '10:30');
  await next.fill(followUp.field);
  await contact.getByRole('button', { name: 'Log contact' }).click();
  await expect(contact).toHaveCount(0);
  // No longer overdue: the follow-up is the one he picked, and the lead is among the other open ones.
  await expect(row.getByTestId('lead-stage')).toHaveText('Contacted');
  await expect(row).toContainText(followUp.shown);
  await expect(row.getByText('Overdue', { exact: true })).toHaveCount(0);
  await expect(rep.getByTestId('due-group')).toHaveText(['Other open leads (1)']);
  expect(
    ((await (await rep.request.get('/api/leads/mine?open=1')).json()).leads as { customer: string; followUpDue: string }[]).find(
      (l) => l.customer === customer,
    )!.followUpDue,
  ).toBe(followUp.at.toISOString());

  // An appointment: the lead reads "Appointment set" with its time, and the button moves it.
  await row.getByRole('button', { name: 'Set appointment' }).click();
  const appointment = rep.getByRole('dialog', { name: `Appointment: ${customer}` });
  const visit = ahead(2, '15:00');
  await appointment.getByLabel('Day and time').fill(visit.field);
  await appointment.getByRole('button', { name: 'Set appointment' }).click();
  await expect(appointment).toHaveCount(0);
  await expect(row.getByTestId('lead-stage')).toHaveText('Appointment set');
  await expect(row.getByTestId('lead-appointment')).toHaveText(visit.shown);
  await expect(row.getByRole('button', { name: 'Move appointment' })).toBeVisible();
  // Not before its day: no Shown or No-show two days ahead.
  await expect(row.getByRole('button', { name: 'Shown', exact: true })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'No-show' })).toHaveCount(0);

  // He moves it to later today; the customer comes in: the manager marks it Shown on his leads page, and the salesman's page follows live.
  await row.getByRole('button', { name: 'Move appointment' }).click();
  const later = laterToday();
  await appointment.getByLabel('Day and time').fill(later.field);
  await appointment.getByRole('button', { name: 'Set appointment' }).click();
  await expect(appointment).toHaveCount(0);
  await expect(row.getByTestId('lead-appointment')).toHaveText(later.shown);
  await boss.goto('/dashboard/leads');
  const bossRow = boss.getByRole('region', { name: 'Lead list' }).getByTestId('lead-row').filter({ hasText: customer });
  await expect(bossRow.getByTestId('lead-stage')).toHaveText('Appointment set');
  await bossRow.getByRole('button', { name: 'Shown', exact: true }).click();
  await expect(bossRow.getByTestId('lead-stage')).toHaveText('Shown');
  await expect(bossRow.getByRole('button', { name: 'No-show' })).toHaveCount(0);
  await expect(row.getByTestId('lead-stage')).toHaveText('Shown');

  // He sells it: Close opens on Sold, the sale form filled in from the lead; he adds the front gross.
  await row.getByRole('button', { name: 'Mark Closed', exact: true }).click();
  const close = rep.getByRole('dialog', { name: `Mark Closed: ${customer}` });
  await expect(close).toContainText(`Customer: ${customer} · 2025 Honda Accord`);
  await expect(close.getByLabel('Date')).toHaveValue(today());
  await expect(close.getByRole('radio', { name: 'New' })).toBeChecked();
  await expect(close.getByRole('radio', { name: 'Full' })).toBeChecked();
  await close.getByLabel('Front gross ($)').fill('1800');
  await close.getByRole('button', { name: 'Save sale' }).click();
  await expect(close).toHaveCount(0);
  await expect(rep.getByText(`${customer} sold. The sale is in your tracker.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await rep.getByLabel('Only open').uncheck();
  await expect(row.getByTestId('lead-stage')).toHaveText('Sold');
  await expect(row.getByRole('button', { name: 'Mark Closed', exact: true })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Reopen' })).toHaveCount(0);

  // The timeline tells each step, with who.
  await row.getByRole('button', { name: 'Timeline' }).click();
  const timeline = rep.getByRole('dialog', { name: `Timeline: ${customer}` });
  await expect(timeline.getByTestId('timeline-entry')).toHaveText([
    new RegExp(`^(Handed|Assigned) to ${repName} by `),
    new RegExp(`^Accepted by ${repName}`),
    new RegExp(`^${repName} contacted the customer \\(Call, Talked\\)`),
    new RegExp(`^${repName} set an appointment for ${visit.shown}`),
    new RegExp(`^${repName} set an appointment for ${later.shown}`),
    /^Shown, marked by Manny Manager/,
    new RegExp(`^Sold by ${repName}`),
  ]);
  await expect(timeline.getByTestId('timeline-entry').nth(2)).toContainText('Wants to see the Accord in grey');
  await timeline.getByRole('button', { name: 'Close' }).click();

  // The sale is his, in his tracker, and names the customer.
  await rep.goto('/dashboard/stats/sales');
  const sale = rep.getByTestId('sale-row').filter({ hasText: customer });
  await expect(sale).toHaveCount(1);
  await expect(sale).toContainText('$1,800.00');
  for (const p of [rep, boss]) await p.context().close();
});

test('closing a lead as Lost asks why; then the lead reads Lost, with its reason', async ({ browser }) => {
  const repName = unique('Liv');
  const rep = await personPage(browser, uniqueEmail('liv'), repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await makeNextUp(boss, repName);
  const customer = unique('Window Shopper');
  const handed = await (await boss.request.post('/api/rotation/assign', { data: { customer } })).json();
  expect(handed.assignedTo.name).toBe(repName);

  // The server refuses a Lost without a reason, in the same words the dialog uses.
  const refused = await rep.request.post(`/api/leads/${handed.leadId}/lost`, { data: {} });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain('Choose why the lead was lost');

  await rep.goto('/dashboard/associates');
  const row = rep.getByRole('region', { name: 'My leads' }).getByTestId('lead-row').filter({ hasText: customer });
  await row.getByRole('button', { name: 'Mark Closed', exact: true }).click();
  const close = rep.getByRole('dialog', { name: `Mark Closed: ${customer}` });
  // His own lead may be sold or lost; Lost shows the store's reasons.
  await expect(close.getByRole('button', { name: 'Save sale' })).toBeVisible();
  await close.getByText('Lost', { exact: true }).click();
  await expect(close.getByRole('button', { name: 'Save sale' })).toHaveCount(0);
  await close.getByRole('button', { name: 'Mark lost' }).click();
  await expect(close.getByText('Choose why the lead was lost')).toBeVisible();
  await expect(row.getByTestId('lead-stage')).toHaveText('Waiting for accept');
  await close.getByLabel('Why was it lost?').click();
  await expect(rep.getByRole('option')).toHaveText(['Bought elsewhere', 'Not in market', 'No response', 'Credit', 'Duplicate']);
  await rep.getByRole('option', { name: 'Credit' }).click();
  await close.getByRole('button', { name: 'Mark lost' }).click();
  await expect(close).toHaveCount(0);
  await expect(row).toHaveCount(0);
  await rep.getByLabel('Only open').uncheck();
  await expect(row.getByTestId('lead-stage')).toHaveText('Lost');
  await expect(row).toContainText('Credit');
  await expect(row.getByRole('button', { name: 'Reopen' })).toBeVisible();
  for (const p of [rep, boss]) await p.context().close();
});

/** A salesman's leads in several stages, so the list shows every kind of button: waiting, contacted, an appointment set, and lost. */
async function leadsInEveryStage(browser: Browser) {
  const repName = unique('Shawna Longname-Picturesque');
  const email = uniqueEmail('life.shots');
  const rep = await personPage(browser, email, repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const ids: number[] = [];
  for (const stage of ['Waiting', 'Contacted', 'Appointment', 'Lost']) {
    await makeNextUp(boss, repName);
    const res = await boss.request.post('/api/rotation/assign', { data: { customer: unique(`${stage} Customer With A Long Name`) } });
    expect(res.ok(), await res.text()).toBe(true);
    ids.push((await res.json()).leadId);
  }
  const step = async (id: number, what: string, data?: object) => {
    const res = await rep.request.post(`/api/leads/${id}/${what}`, { data });
    expect(res.ok(), await res.text()).toBe(true);
  };
  await step(ids[1], 'contact', { channel: 'Text', outcome: 'Left message' });
  await step(ids[2], 'appointment', { at: laterToday().field });
  await step(ids[3], 'lost', { reason: 'Bought elsewhere' });
  for (const p of [rep, boss]) await p.context().close();
  return { email, appointed: ids[2] };
}

test('the lead list and the Close dialog, at 375 and 1280 px, light and dark: no sideways scroll, no button off screen, nothing axe finds serious', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { email } = await leadsInEveryStage(browser);
  if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
  const problems: string[] = [];
  /** Layout checks (and axe's unless `scan` is false) on what is on screen; a picture of it when asked: the whole page, or only the screen under a dialog. */
  const check = async (page: Page, label: string, shot: string, { fullPage = true, scan = true } = {}) => {
    await animationsDone(page);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `life-${shot}.png`), fullPage });
    for (const p of await layoutProblems(page)) problems.push(`${label}: ${p}`);
    if (!scan) return;
    const found = await axe(page).analyze();
    for (const v of found.violations)
      if (v.impact === 'serious' || v.impact === 'critical')
        problems.push(`${label}: axe [${v.impact}] ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  let checked = 0;
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const viewport of [
      { width: 375, height: 740 },
      { width: 1280, height: 800 },
    ]) {
      const context = await browser.newContext({ colorScheme, viewport, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await signIn(page, email);
      await page.goto('/dashboard/associates');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      await page.getByLabel('Only open').uncheck();
      // His leads, the one with today's appointment also above them among Today's appointments.
      const mine = page.getByRole('region', { name: 'My leads' });
      await expect(mine.getByTestId('lead-row')).toHaveCount(4);
      await expect(page.getByTestId('lead-row')).toHaveCount(5);
      await expect(page.getByRole('table', { name: 'Leads' })).toHaveCount(viewport.width < 640 ? 0 : 2);
      const appointed = mine.getByTestId('lead-row').filter({ has: page.getByTestId('lead-appointment') });
      await expect(appointed.getByRole('button', { name: 'No-show' })).toBeVisible();
      const at = `${colorScheme} ${viewport.width}px`;
      await page.evaluate(() => window.scrollTo(0, 0));
      await check(page, `the lead list ${at}`, `list-${colorScheme}-${viewport.width}`);

      await appointed.getByRole('button', { name: 'Mark Closed', exact: true }).click();
      const close = page.getByRole('dialog', { name: /^Mark Closed: / });
      await expect(close.getByRole('button', { name: 'Save sale' })).toBeVisible();
      await check(page, `the Close dialog, Sold, ${at}`, `close-sold-${colorScheme}-${viewport.width}`, { fullPage: false });
      await close.getByText('Lost', { exact: true }).click();
      await expect(close.getByRole('button', { name: 'Mark lost' })).toBeVisible();
      await check(page, `the Close dialog, Lost, ${at}`, `close-lost-${colorScheme}-${viewport.width}`, { fullPage: false });
      await close.getByRole('button', { name: 'Mark lost' }).click();
      await expect(close.getByText('Choose why the lead was lost')).toBeVisible();
      await check(page, `the Close dialog, Lost, no reason, ${at}`, `close-lost-error-${colorScheme}-${viewport.width}`, { fullPage: false });
      await context.close();
      checked++;
    }
  }
  expect(checked).toBe(4);
  expect(problems, `${problems.length} problem(s):\n${problems.join('\n')}`).toEqual([]);
});
