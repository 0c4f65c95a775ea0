import { expect, test } from '@playwright/test';
import { makeNextUp, personPage, unique } from './support/people';
import { mailsTo } from './support/mail';
import { moveServerClock, resetServerClock } from './support/clock';
import { ownStore } from './support/store';
import { DEFAULT_RULES } from '../domain/rule-defaults';

test('a lead nobody accepts moves on by itself; the next salesman accepts it, logs a contact, and the KPIs time it', async ({ browser }) => {
  // The shortest window is a minute: the test moves the portal's clock past it rather than wait,
  // and the next sweep (every 15 s) hands the lead on. In a store of its own, with only Ann and
  // Ben on its floor: put back, the portal's clock leaves this store's leads in its future, where
  // no other test looks.
  const shop = await ownStore(browser, 'Speedy Motors');
  const annName = unique('Ann');
  const benName = unique('Ben');
  const bossName = unique('Mona');
  const ann = await shop.person('ann', annName);
  const { email: benEmail } = await shop.add('ben', benName);
  const ben = await personPage(browser, benEmail, benName);
  const boss = await personPage(browser, (await shop.add('mona', bossName, 'manager')).email, bossName);
  try {
    // The manager sets the window under Manager → Dealership rules; the change is kept.
    await boss.goto('/dashboard/management');
    const rules = boss.getByRole('form', { name: 'Dealership rules' });
    const windowField = rules.getByLabel('Response window (minutes)');
    await windowField.fill('121');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(rules.getByText('Response window must be a whole number from 1 to 120 minutes, or 0 for off')).toBeVisible();
    await windowField.fill('1');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(boss.getByText('Dealership rules saved.')).toBeVisible();
    await expect(boss.getByTestId('rule-change').first()).toContainText(`Response window (minutes) ${DEFAULT_RULES.responseWindowMinutes} → 1`);
    await boss.reload();
    await expect(boss.getByRole('form', { name: 'Dealership rules' }).getByLabel('Response window (minutes)')).toHaveValue('1');

    await makeNextUp(boss, annName);
    await ann.goto('/dashboard/overview');
    await ben.goto('/dashboard/overview');
    await expect(ann.getByTestId('up-status')).toHaveText("You're up next");
    await expect(ben.getByTestId('up-status')).toHaveText('On deck');

    const customer = unique('Speedy');
    const seenBen = mailsTo(benEmail).length;
    expect((await boss.request.post('/api/rotation/assign', { data: { customer } })).ok()).toBe(true);

    // Ann sees it at once, with the time she has; Ben is now up next.
    const annBanner = ann.getByTestId('waiting-lead').filter({ hasText: customer });
    await expect(annBanner).toContainText(`New lead: ${customer}`);
    await expect(annBanner.getByTestId('accept-time-left')).toHaveText(/^[01]:\d\d left to accept$/);
    await expect(ben.getByTestId('up-status')).toHaveText("You're up next");

    // Ann leaves it: past the window and within one sweep it is Ben's, on both screens, live.
    await moveServerClock(61_000);
    const benBanner = ben.getByTestId('waiting-lead').filter({ hasText: customer });
    await expect(benBanner).toBeVisible({ timeout: 30_000 });
    await expect(annBanner).toHaveCount(0);
    await boss.goto('/dashboard/routing');
    await expect(boss.getByText('No response in 1 min').first()).toBeVisible();

    // Ben's own mail links straight to the lead; he accepts from the banner.
    await expect.poll(() => mailsTo(benEmail).length).toBeGreaterThan(seenBen);
    const mail = mailsTo(benEmail).at(-1)!.text;
    expect(mail).toContain(`New lead: ${customer}`);
    const link = /(http:\/\/\S+\/dashboard\/associates\?lead=\d+)/.exec(mail)![1];
    await benBanner.getByRole('button', { name: 'Accept' }).click();
    await expect(benBanner).toHaveCount(0);
    // Accept says so and opens the lead on his page: Log contact. He closes it; his mail's link opens the same.
    await expect(ben.getByText(`You accepted ${customer}. Reach them now and log the contact.`)).toBeVisible();
    const contact = ben.getByRole('dialog', { name: `Log contact: ${customer}` });
    await expect(contact).toBeVisible();
    await contact.getByRole('button', { name: 'Close' }).click();
    await expect(contact).toHaveCount(0);
    await ben.goto(link);
    await expect(contact).toBeVisible();
    await contact.getByRole('button', { name: 'Log contact' }).click();
    await expect(contact.getByText('Choose how you contacted the customer')).toBeVisible();
    await contact.getByLabel('How did you reach the customer?').click();
    await ben.getByRole('option', { name: 'Call' }).click();
    await contact.getByLabel('Outcome').click();
    await ben.getByRole('option', { name: 'Talked' }).click();
    await contact.getByLabel('Note (optional)').fill('Coming Saturday for a test drive');
    await contact.getByRole('button', { name: 'Log contact' }).click();
    await expect(contact).toHaveCount(0);
    const row = ben.getByTestId('lead-row').filter({ hasText: customer });
    await expect(row.getByTestId('lead-stage')).toHaveText('Contacted');
    await row.getByRole('button', { name: 'Timeline' }).click();
    const timeline = ben.getByRole('dialog', { name: `Timeline: ${customer}` });
    await expect(timeline.getByTestId('timeline-entry')).toHaveText([
      new RegExp(`^Assigned to ${annName} by ${bossName}`),
      new RegExp(`^Taken back from ${annName}: No response in 1 min`),
      new RegExp(`^Handed to ${benName} by the rotation`),
      new RegExp(`^Accepted by ${benName}`),
      new RegExp(`^${benName} contacted the customer \\(Call, Talked\\)`),
    ]);
    await expect(timeline.getByTestId('timeline-entry').last()).toContainText('Coming Saturday for a test drive');
    await timeline.getByRole('button', { name: 'Close' }).click();
    await expect(ben.getByTestId('my-handed-on')).toHaveText('0');
    await expect(ben.getByTestId('my-time-to-accept')).not.toHaveText('—');

    // The KPI page times it: Ben's accept and first contact, Ann's hand-off.
    await boss.goto('/dashboard/stats/leads');
    const benRow = boss.getByTestId('speed-row').filter({ hasText: benName });
    await expect(benRow.getByRole('cell').nth(1)).toHaveText(/\d+ (s|min) · 90%: \d+ (s|min)/);
    await expect(benRow.getByRole('cell').nth(2)).toHaveText(/\d+ (s|min) · 90%: \d+ (s|min)/);
    await expect(boss.getByTestId('speed-row').filter({ hasText: annName }).getByRole('cell').nth(3)).toHaveText('1');
    const csv = await (await boss.request.get('/api/leads/export.csv')).text();
    expect(csv.split('\r\n')[0]).toBe(
      'Lead,Store,Customer,Source,Salesman,Assigned,Accepted,SecondsToAccept,FirstContact,SecondsToFirstContact,HandedOn,Stage,LostReason,Closed',
    );
    // Times on the store's clock, as the screens show them; the lead's stage.
    const line = csv.split('\r\n').find((l) => l.includes(`,${customer},`))!;
    expect(line).toMatch(new RegExp(`,${shop.code},${customer},BDC Portal,${benName},\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d,.*,Contacted,,no$`));
  } finally {
    await resetServerClock();
    for (const p of [ann, ben, boss, shop.boss]) await p.context().close();
  }
});

test('the portal installs on a phone: a manifest with icons and a service worker that keeps no API answer', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await page.request.get(href!)).json();
  expect(manifest).toMatchObject({ display: 'standalone', start_url: '/dashboard/overview' });
  expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) expect((await page.request.get(icon.src)).ok()).toBe(true);
  const sw = await page.request.get('/sw.js');
  expect(sw.headers()['content-type']).toContain('javascript');
  expect(await sw.text()).not.toContain('caches.');
});
