import { axe } from './support/axe';
import { expect, test, type Browser, type BrowserContext } from '@playwright/test';
import { startPushService, type Push, type PushService, type TestSubscription } from '../server/test/push-service';
import { signIn } from './support/session';
import { unique, uniqueEmail } from './support/people';
import { animationsDone } from './support/settle';
import { CHROMIUM, launch } from './support/browser';
import { ownStore } from './support/store';
import { slotEnv } from './support/slot';
import { noticesTo } from './support/db';

/**
 * Settings → Notifications on this device, through the app's own code: the permission granted, the
 * service worker registered, the browser subscribed with the portal's VAPID key, the subscription
 * sent to the server, the device listed and removed. Chromium has no push service offline, so
 * PushManager.subscribe alone is replaced: it answers a subscription whose endpoint is a local
 * push service (the tests' stand-in) with keys the stand-in holds. A lead assigned to him then
 * reaches the stand-in, which decrypts it; what it read is handed to the service worker as the push
 * service would, and its notification's Accept accepts the lead.
 */

// Notifications need the whole browser: the headless shell refuses them.
test.use({ launchOptions: launch(CHROMIUM) });

/** PushManager.subscribe answers a subscription on the stand-in (what a browser's push service would give); the rest is the browser's own. */
async function fakePushManager(context: BrowserContext, sub: TestSubscription) {
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
}

let ps: PushService;
test.beforeAll(async () => {
  ps = await startPushService({ port: Number(slotEnv('PUSH_PORT')) });
});
test.afterAll(() => ps.close());

test('turns push on for this device, lists it, and removes it', async ({ browser, baseURL }) => {
  const sub = ps.subscribe();
  const context = await browser.newContext();
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await fakePushManager(context, sub);
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
  const scanned = await axe(page).include('[data-testid="push-setting"]').analyze();
  expect(scanned.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

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

test('signing out takes this device off: the next person at a shared desk gets none of his pushes', async ({ browser, baseURL }) => {
  const sub = ps.subscribe();
  const context = await browser.newContext();
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await fakePushManager(context, sub);
  const page = await context.newPage();
  const email = uniqueEmail('push.desk');
  await signIn(page, email);
  await page.goto('/dashboard/settings');
  await page.getByTestId('push-setting').getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByTestId('push-state')).toHaveText(/^On:/);

  await page
    .getByRole('button', { name: 'Logout' })
    .or(page.getByRole('link', { name: 'Logout' }))
    .first()
    .click();
  await expect(page.getByRole('button', { name: 'Send Sign-in Link' })).toBeVisible();
  // The browser holds no subscription any more, and the server lists none for him.
  expect(await page.evaluate(() => sessionStorage.getItem('e2e-push-subscribed'))).toBeNull();
  await signIn(page, email);
  expect((await (await page.request.get('/api/push/subscriptions')).json()).devices).toEqual([]);
  await context.close();
});

/** The service worker's global scope, as far as these tests reach into it (web/ has no WebWorker types). */
interface Worker {
  registration: ServiceWorkerRegistration;
  dispatchEvent(e: Event): boolean;
  PushEvent: new (type: string, init: { data: string }) => Event;
  NotificationEvent: new (type: string, init: { notification: Notification; action: string }) => Event;
}

/** A salesman with push on in this browser, signed in and on the floor. */
async function salesmanWithPush(browser: Browser, baseURL: string | undefined, name: string, email = uniqueEmail('pushrep')) {
  const sub = ps.subscribe();
  const context = await browser.newContext();
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await fakePushManager(context, sub);
  const page = await context.newPage();
  await signIn(page, email);
  expect((await page.request.patch('/api/profile', { data: { name } })).ok()).toBe(true);
  expect((await page.request.post('/api/rotation/duty', { data: { onDuty: true } })).ok()).toBe(true);
  await page.goto('/dashboard/settings');
  await page.getByTestId('push-setting').getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByTestId('push-state')).toHaveText(/^On:/);
  return { page, context, sub };
}

test('a lead pushed to the phone shows Accept and Open, and Accept accepts it without opening the portal', async ({ browser, baseURL }) => {
  // In a store of its own, where a new lead waits for its Accept (the main store keeps the window
  // off; see global-setup) and the line is this salesman alone.
  const shop = await ownStore(browser, 'Push Motors');
  const name = unique('Pat Push');
  const { email } = await shop.add('pushrep', name);
  const rep = await salesmanWithPush(browser, baseURL, name, email);
  const customer = unique('Jane Pushed');
  try {
    expect((await shop.boss.request.post('/api/rotation/assign', { data: { customer }, headers: shop.there })).ok()).toBe(true);
    await ps
      .until(() => ps.to(rep.sub).some((p) => p.title === `New lead: ${customer}`), 15_000, 'the push')
      .catch((err: Error) => {
        throw new Error(
          `${err.message}; the push service refused ${JSON.stringify(ps.refused)}; the portal's notices to him: ${JSON.stringify(noticesTo(email))}`,
        );
      });
    const pushed = ps.to(rep.sub).find((p) => p.title === `New lead: ${customer}`)!;
    expect(pushed.accept).toMatch(/^[\w-]{43}$/);

    // The push service hands the phone what the stand-in decrypted: the service worker's own push handler shows it.
    const sw = rep.context.serviceWorkers()[0] ?? (await rep.context.waitForEvent('serviceworker'));
    const shown = await sw.evaluate(async (data: Push) => {
      const g = self as unknown as Worker;
      const payload = { title: data.title, text: data.text, url: data.url, accept: data.accept };
      // A synthetic event: its waitUntil throws, but the handler has shown the notification by then.
      g.dispatchEvent(new g.PushEvent('push', { data: JSON.stringify(payload) }));
      for (let i = 0; i < 50; i++) {
        const [n] = await g.registration.getNotifications();
        if (n)
          return {
            title: n.title,
            body: n.body,
            data: n.data as unknown,
            actions: (n as Notification & { actions: { action: string; title: string }[] }).actions.map((a) => a.title),
          };
        await new Promise((r) => setTimeout(r, 100));
      }
      return null;
    }, pushed);
    expect(shown).toEqual({
      title: `New lead: ${customer}`,
      body: pushed.text,
      data: { url: expect.stringContaining('/dashboard/associates?lead='), accept: pushed.accept },
      actions: ['Accept', 'Open'],
    });

    // Accept on the notification: the worker posts the token alone (no session) and says how it went.
    const after = await sw.evaluate(async () => {
      const g = self as unknown as Worker;
      const [n] = await g.registration.getNotifications();
      g.dispatchEvent(new g.NotificationEvent('notificationclick', { notification: n, action: 'accept' }));
      for (let i = 0; i < 50; i++) {
        const [m] = await g.registration.getNotifications();
        if (m && m.title !== n.title) return { title: m.title, body: m.body };
        await new Promise((r) => setTimeout(r, 100));
      }
      return null;
    });
    expect(after).toEqual({ title: 'Lead accepted', body: `New lead: ${customer}` });
    const mine = (await (await rep.page.request.get('/api/leads/mine')).json()).leads as { customer: string; acceptedAt: string | null }[];
    expect(mine.find((l) => l.customer === customer)?.acceptedAt).not.toBeNull();
  } finally {
    await shop.boss.context().close();
    await rep.context.close();
  }
});
