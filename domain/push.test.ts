import { describe, expect, it } from 'vitest';
import { acceptTokenSchema, deviceLabel, isPublicEndpoint, pushSubscriptionSchema } from './push';

describe('a device’s name from its browser', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge on Windows'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iPhone',
    ],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari on Mac'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
    ['curl/8.0', 'A browser'],
    [undefined, 'A browser'],
  ])('%s → %s', (ua, label) => expect(deviceLabel(ua)).toBe(label));
});

describe('a push subscription', () => {
  const sub = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } };
  it('takes what PushSubscription.toJSON() gives, padded or not', () => {
    expect(pushSubscriptionSchema.parse(sub)).toEqual(sub);
    expect(pushSubscriptionSchema.parse({ ...sub, keys: { p256dh: `${sub.keys.p256dh}=`, auth: `${sub.keys.auth}==` } })).toEqual(sub);
  });
  it('refuses keys of the wrong size and an endpoint that is no web address', () => {
    expect(pushSubscriptionSchema.safeParse({ ...sub, keys: { ...sub.keys, auth: 'A'.repeat(21) } }).success).toBe(false);
    expect(pushSubscriptionSchema.safeParse({ ...sub, keys: { ...sub.keys, p256dh: 'A'.repeat(88) } }).success).toBe(false);
    expect(pushSubscriptionSchema.safeParse({ ...sub, endpoint: 'javascript:alert(1)' }).success).toBe(false);
    expect(acceptTokenSchema.safeParse({ token: 'A'.repeat(42) }).success).toBe(false);
  });
});

describe('a push endpoint the server may post to', () => {
  it.each([
    ['https://fcm.googleapis.com/fcm/send/abc:def', true],
    ['https://updates.push.services.mozilla.com/wpush/v2/gAAA', true],
    ['https://web.push.apple.com/QGuQyavXutnMH', true],
    ['http://fcm.googleapis.com/fcm/send/abc', false],
    ['https://127.0.0.1/push', false],
    ['https://[::1]/push', false],
    ['https://localhost/push', false],
    ['https://db.internal/push', false],
    ['https://intranet/push', false],
    ['https://user:pw@fcm.googleapis.com/x', false],
    ['not a url', false],
  ])('%s → %s', (endpoint, ok) => expect(isPublicEndpoint(endpoint)).toBe(ok));
});
