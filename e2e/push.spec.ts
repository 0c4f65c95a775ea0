import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { startPushService, type PushService } from '../server/test/push-service';
import { signIn } from './support/session';
import { uniqueEmail } from './support/people';
import { animationsDone } from './support/settle';

/**
 * Settings → Notifications on this device, through the app's own code: the permission granted, the
 * service worker registered, the browser subscribed with the portal's VAPID key, the subscription
 * sent to the server, the device listed and removed. Chromium has no push service offline, so
 * PushManager.subscribe alone is replaced: it answers a subscription whose endpoint is a local
 * push service (the tests' stand-in) with keys the stand-in holds.
 */
let ps: PushService;
test.beforeAll(async () => {
  ps = await startPushService();
});
test.afterAll(() => ps.close());

test('turns push on for this device, lists it, and removes it', async ({ browser, baseURL }) => {
  const sub = ps.subscribe();
  const context = await browser.newContext();
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await context.addInitScript((s) => {
    const held = 'e2e-push-subscribed';
    const fake = {
      endpoint: s.endpoint,
      expirationTime: null,
      toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: s.keys }),
      unsubscribe: async () => {
        sessionStorage.removeItem(held);
        return true;
      },
    };
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = options?.applicationServerKey;
      const bytes =
        key instanceof ArrayBuffer ? new Uint8Array(key) : ArrayBuffer.isView(key) ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : null;
      // What the app subscribed with, as base64url: the portal's VAPID public key.
      sessionStorage.setItem(
        'e2e-push-key',
        bytes
          ? btoa(String.fromCharCode(...bytes))
              .replace(/\+/g, '-')
              .replace(/\//g, '_')
              .replace(/=+$/, '')
          : typeof key === 'string'
            ? key
            : '',
      );
      sessionStorage.setItem(held, '1');
      return fake as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async () => (sessionStorage.getItem(held) ? (fake as unknown as PushSubscription) : null);
  }, sub);
  const page = await context.newPage();
  await signIn(page, uniqueEmail('push'));
  await page.goto('/dashboard/settings');

  const card = page.getByTestId('push-setting');
  await expect(page.getByTestId('push-state')).toHaveText(/^Off:/);
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByTestId('push-state')).toHaveText(/^On:/);

  // The service worker really registered.
  const worker = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.scriptURL ?? null);
  expect(worker).toMatch(/\/sw\.js$/);
  // The browser subscribed with the portal's own key, and the subscription reached the server.
  const { key } = await (await page.request.get('/api/push/key')).json();
  expect(await page.evaluate(() => sessionStorage.getItem('e2e-push-key'))).toBe(key);
  const { devices } = await (await page.request.get('/api/push/subscriptions')).json();
  expect(devices).toEqual([expect.objectContaining({ endpoint: sub.endpoint, label: 'Chrome on Windows' })]);

  const list = page.getByRole('list', { name: 'Devices with notifications on' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('Chrome on Windows');
  await expect(list.getByRole('listitem')).toContainText('This device');

  // The card with a device listed passes axe as the rest of the screen does.
  await animationsDone(page);
  const axe = await new AxeBuilder({ page }).include('[data-testid="push-setting"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // Still there after a reload: the server lists it, the browser still holds it.
  await page.reload();
  await expect(page.getByTestId('push-state')).toHaveText(/^On:/);
  await expect(list.getByText('This device')).toBeVisible();

  await list.getByRole('button', { name: 'Remove this device' }).click();
  await expect(page.getByText('Notifications are off on that device.')).toBeVisible();
  await expect(list).toHaveCount(0);
  await expect(page.getByTestId('push-state')).toHaveText(/^Off:/);
  expect((await (await page.request.get('/api/push/subscriptions')).json()).devices).toEqual([]);
  await context.close();
});
