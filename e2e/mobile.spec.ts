import crypto from 'node:crypto';
import { expect, test } from '@playwright/test';
import { postWebhook } from '../server/test/sms-provider';
import { textsTo } from './support/sms';
import { slotEnv } from './support/slot';
import { signIn } from './support/session';
import { uniqueEmail } from './support/people';

test('adds a mobile number, confirms it with the texted code, shows STOP from the phone, and removes it', async ({ page, baseURL }) => {
  const last4 = String(1000 + Math.floor(Math.random() * 9000));
  const mobile = `+1843555${last4}`;
  await signIn(page, uniqueEmail('mobile'));
  await page.goto('/dashboard/settings');

  const card = page.getByTestId('mobile-setting');
  await expect(card.getByRole('heading', { name: 'Text messages' })).toBeVisible();
  await card.getByLabel('Mobile number').fill(`(843) 555-${last4}`);
  await card.getByRole('button', { name: 'Send code' }).click();
  await expect(card.getByText(`A code was sent to +1 843-555-${last4}.`)).toBeVisible();
  await expect.poll(() => textsTo(mobile).length).toBe(1);
  const code = /\b([0-9]{6})\b/.exec(textsTo(mobile)[0].body)![1];

  // A wrong code first: the field says so, and how many tries are left.
  await card.getByLabel('Six-digit code').fill(code === '000000' ? '111111' : '000000');
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByText('That code is not right. 4 tries left.')).toBeVisible();

  await card.getByLabel('Six-digit code').fill(code);
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByText(`Texts go to +1 843-555-${last4}`)).toBeVisible();
  await expect(card.getByText('Confirmed', { exact: true })).toBeVisible();

  // STOP from the phone, as the provider posts it (signed), shows on the next visit.
  const stop = await postWebhook(slotEnv('SMS_TOKEN'), `${baseURL}/api/sms/inbound`, {
    MessageSid: `SM${crypto.randomBytes(16).toString('hex')}`,
    From: mobile,
    Body: 'STOP',
    To: '+18435550100',
  });
  expect(stop.status).toBe(200);
  await page.reload();
  await expect(card.getByText('Texts stopped from your phone (send START to turn them on again)')).toBeVisible();
  await expect(card.getByText('Confirmed', { exact: true })).toHaveCount(0);

  await card.getByRole('button', { name: 'Remove' }).click();
  await expect(card.getByLabel('Mobile number')).toBeVisible();
  await expect(card.getByText(/Texts go to/)).toHaveCount(0);
  await page.reload();
  await expect(card.getByLabel('Mobile number')).toHaveValue('');
});
