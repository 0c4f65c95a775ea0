import fs from 'node:fs';
import { axe } from './support/axe';
import nodemailer from 'nodemailer';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { makeNextUp, personPage, unique } from './support/people';
import { animationsDone, layOutWhole, noSidewaysScroll } from './support/settle';

/**
 * Leads by e-mail in the browser: a manager adds a lead address, a real mail with no ADF reaches
 * the portal's receiver and waits under Leads → Mail to review; he makes a lead of it and sees who
 * got it, dismisses another with a reason, and sends a test lead that shows under All mail.
 */

const MANAGER = 'manager@e2e.test';
const SHOTS = 'test-results/mail';

/** A mail a person wrote, no ADF in it, sent with a real SMTP client to the portal's receiver. */
async function sendMail(port: number, to: string, subject: string, text: string) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, tls: { rejectUnauthorized: false } });
  try {
    await transport.sendMail({ from: 'Pat Prospect <pat.prospect@example.com>', to, subject, text });
  } finally {
    transport.close();
  }
}

const leadText = (name: string) => `Hello,

I saw your ad and would like a test drive this weekend.

Name: ${name}
Phone: 843-555-0142
Email: pat.prospect@example.com
Vehicle: 2021 Toyota Camry SE
Comments: Trading in a 2015 Civic.

Thanks, Pat`;

/** Manager → Integrations → Lead mail. */
async function leadMail(page: Page): Promise<Locator> {
  await page.goto('/dashboard/management');
  const section = page.getByRole('region', { name: 'Lead mail' });
  await expect(section.getByTestId('lead-address').first()).toBeVisible();
  return section;
}

/** Adds an address of this spec's own; answers it and the receiver's port as the section shows it. */
async function addAddress(page: Page) {
  const address = `leads.${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}@dealer.test`;
  const section = await leadMail(page);
  await section.getByLabel('Add a lead address').fill(address);
  await section.getByRole('button', { name: 'Add address' }).click();
  await expect(section.getByTestId('lead-address').filter({ hasText: address })).toBeVisible();
  const port = Number(await section.getByTestId('receiver-port').textContent());
  expect(port).toBeGreaterThan(0);
  return { address, port, section };
}

async function mailToReview(page: Page, show: 'To review' | 'All mail (30 days)' = 'To review') {
  await page.goto('/dashboard/leads');
  await page.locator('label', { hasText: /^Mail to review/ }).click();
  await page.locator('label', { hasText: show === 'To review' ? /^To review$/ : show }).click();
}

const row = (page: Page, subject: string) => page.getByTestId('mail-row').filter({ hasText: subject });

test('a mail with no ADF waits for review: the manager makes a lead of it and sees who got it; another he dismisses; a test lead shows under All mail', async ({
  browser,
}) => {
  const repName = unique('Mia');
  const rep = await personPage(browser, `mia.${Date.now().toString(36)}@e2e.test`, repName);
  // Lead mail is the managers': the server refuses it to staff.
  expect((await rep.request.get('/api/mail')).status()).toBe(403);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const { address, port, section } = await addAddress(boss);
  await expect(section.getByTestId('lead-address').filter({ hasText: address })).toContainText('None yet');

  const customer = unique('Pat Prospect');
  const first = unique('Test drive this weekend?');
  await sendMail(port, address, first, leadText(customer));

  await mailToReview(boss);
  await expect(row(boss, first)).toBeVisible({ timeout: 20_000 });
  await expect(boss.getByTestId('mail-to-review-count')).toBeVisible();
  await expect(row(boss, first)).toContainText('From pat.prospect@example.com');
  await row(boss, first)
    .getByRole('button', { name: `Open the mail "${first}"` })
    .click();

  const dialog = boss.getByRole('dialog', { name: first });
  await expect(dialog.getByTestId('mail-text')).toContainText('would like a test drive');
  await expect(dialog.getByTestId('mail-problems')).toBeVisible();
  await expect(dialog.getByLabel('Customer')).toHaveValue(customer);
  await expect(dialog.getByLabel('Phone')).toHaveValue('843-555-0142');
  await expect(dialog.getByLabel('E-mail')).toHaveValue('pat.prospect@example.com');
  await expect(dialog.getByLabel('Vehicle')).toHaveValue('2021 Toyota Camry SE');
  await expect(dialog.getByLabel('Comments')).toHaveValue('Trading in a 2015 Civic.');
  // The lead goes to the rotation's Next Up, as a manager's Assign would.
  await makeNextUp(boss, repName);
  await dialog.getByRole('button', { name: 'Make a lead' }).click();
  await expect(boss.getByText(`Lead made for ${customer}: assigned to ${repName}`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row(boss, first)).toBeHidden();

  await boss.locator('label', { hasText: 'All mail (30 days)' }).click();
  await expect(row(boss, first).getByTestId('mail-state')).toHaveText('Taken');
  await expect(row(boss, first).getByTestId('mail-outcome')).toContainText(`${customer}: assigned to ${repName}`);
  await expect(row(boss, first).getByTestId('mail-outcome')).toContainText('Made by hand by Manny Manager');

  // A second mail is dismissed, with a reason it must have.
  const second = unique('Re: your service appointment');
  await sendMail(port, address, second, 'Thanks, see you Tuesday at 9.');
  await boss.locator('label', { hasText: /^To review$/ }).click();
  await row(boss, second)
    .getByRole('button', { name: `Open the mail "${second}"` })
    .click({ timeout: 20_000 });
  const other = boss.getByRole('dialog', { name: second });
  await other.getByRole('button', { name: 'Dismiss' }).click();
  await expect(other.getByRole('button', { name: 'Dismiss mail' })).toBeDisabled();
  await other.getByLabel('Reason').fill('A service customer replying, not a sales lead');
  await other.getByRole('button', { name: 'Dismiss mail' }).click();
  await expect(boss.getByText('Mail dismissed.')).toBeVisible();
  await expect(other).toBeHidden();
  await boss.locator('label', { hasText: 'All mail (30 days)' }).click();
  await expect(row(boss, second).getByTestId('mail-state')).toHaveText('Dismissed');
  await expect(row(boss, second).getByTestId('mail-outcome')).toHaveText('A service customer replying, not a sales lead (dismissed by Manny Manager)');

  // Send a test lead: it is read like any lead mail and listed as a test.
  const lead = (await leadMail(boss)).getByTestId('lead-address').filter({ hasText: address });
  await expect(lead).not.toContainText('None yet');
  await lead.getByRole('button', { name: `Send a test lead to ${address}` }).click();
  await expect(boss.getByText(`Test lead sent to ${address}. It shows under Leads → Mail to review → All mail as a test.`)).toBeVisible();
  await mailToReview(boss, 'All mail (30 days)');
  const test = boss
    .getByTestId('mail-row')
    .filter({ hasText: `to ${address}` })
    .filter({ hasText: 'Test lead for' });
  await expect(test.getByTestId('mail-state')).toHaveText('Test', { timeout: 20_000 });
  await expect(test.getByTestId('mail-outcome')).toContainText('Terry Test');
  // Pages left open would go on following the live news through the specs after this one.
  for (const p of [rep, boss]) await p.context().close();
});

test('Lead mail and Mail to review at 375 and 1280 px, light and dark: no sideways scroll, no serious axe violation', async ({ browser }) => {
  test.setTimeout(240_000);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const { address, port } = await addAddress(boss);
  const subject = unique('Price question about the 2024 Highlander Hybrid XLE with a long subject line');
  const longWord = 'https://www.example.com/inventory/2024-toyota-highlander-hybrid-xle-awd-stock-T12345-vin-5TDXBRCH0RS000000?utm_source=cars';
  await sendMail(port, address, subject, `${leadText(unique('Sam Shopper'))}\n\nSeen at ${longWord}`);
  fs.mkdirSync(SHOTS, { recursive: true });

  const found: string[] = [];
  const scan = async (label: string) => {
    await animationsDone(boss);
    const result = await axe(boss).analyze();
    for (const v of result.violations)
      if (v.impact === 'serious' || v.impact === 'critical') found.push(`${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  for (const mode of ['light', 'dark'] as const) {
    await boss.emulateMedia({ colorScheme: mode, reducedMotion: 'reduce' });
    await boss.evaluate((m) => localStorage.setItem('mantine-color-scheme-value', m), mode);
    for (const width of [375, 1280]) {
      await boss.setViewportSize({ width, height: width === 375 ? 740 : 800 });
      const shot = (name: string) => `${SHOTS}/${name}-${width}-${mode}.png`;

      const section = await leadMail(boss);
      await expect(boss.locator('html')).toHaveAttribute('data-mantine-color-scheme', mode);
      await layOutWhole(boss);
      await noSidewaysScroll(boss);
      // The whole page's picture, cut to the section: a picture of the element alone has the sticky header over it.
      const clip = await section.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height };
      });
      await boss.screenshot({ path: shot('integrations'), fullPage: true, clip });
      await scan(`integrations ${mode} ${width}`);

      await mailToReview(boss);
      await expect(row(boss, subject)).toBeVisible({ timeout: 20_000 });
      await noSidewaysScroll(boss);
      await boss.screenshot({ path: shot('review'), fullPage: true });
      await scan(`review ${mode} ${width}`);

      await row(boss, subject)
        .getByRole('button', { name: `Open the mail "${subject}"` })
        .click();
      const dialog = boss.getByRole('dialog', { name: subject });
      await expect(dialog.getByTestId('mail-text')).toContainText(longWord);
      await expect(dialog.getByRole('button', { name: 'Make a lead' })).toBeVisible();
      await noSidewaysScroll(boss);
      const box = await dialog.boundingBox();
      expect(box!.width).toBeLessThanOrEqual(width);
      await animationsDone(boss);
      await boss.screenshot({ path: shot('mail') });
      // The actions are in reach at the foot of the dialog (on a phone it is the whole screen, and scrolls).
      await dialog.getByRole('button', { name: 'Make a lead' }).scrollIntoViewIfNeeded();
      await boss.screenshot({ path: shot('mail-actions') });
      await scan(`open mail ${mode} ${width}`);
      await dialog.getByRole('button', { name: 'Close' }).click();

      await boss.locator('label', { hasText: 'All mail (30 days)' }).click();
      await expect(row(boss, subject)).toBeVisible();
      await noSidewaysScroll(boss);
      await animationsDone(boss);
      await boss.screenshot({ path: shot('all-mail'), fullPage: true });
      await scan(`all mail ${mode} ${width}`);
    }
  }
  expect(found, found.join('\n')).toEqual([]);
  await boss.context().close();
});
