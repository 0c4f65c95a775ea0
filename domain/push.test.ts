import { describe, expect, it } from 'vitest';
import { acceptTokenSchema, deviceLabel, pushEndpointVerdict, pushSubscriptionSchema, readPushHost } from './push';

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
  const hosts = ['push.dealer.example', '*.relay.example', 'http://127.0.0.1:4100'];
  it.each([
    ['https://fcm.googleapis.com/fcm/send/abc:def', true],
    ['https://updates.push.services.mozilla.com/wpush/v2/gAAA', true],
    ['https://web.push.apple.com/QGuQyavXutnMH', true],
    ['https://wns2-par02p.notify.windows.com/w/?token=x', true],
    ['https://FCM.googleapis.com:443/fcm/send/abc', true],
    ['https://push.dealer.example/x', true],
    ['https://eu.relay.example/x', true],
    ['http://fcm.googleapis.com/fcm/send/abc', false],
    ['https://fcm.googleapis.com:8443/fcm/send/abc', false],
    ['https://fcm.googleapis.com./fcm/send/abc', false],
    ['https://push.services.mozilla.com/x', false],
    ['https://evil-push.apple.com/x', false],
    ['https://relay.example/x', false],
    ['https://127.0.0.1/push', false],
    ['https://[::1]/push', false],
    ['https://localhost/push', false],
    ['https://localhost./push', false],
    ['https://x.internal./push', false],
    ['https://127.0.0.1.nip.io/push', false],
    ['https://user:pw@fcm.googleapis.com/x', false],
    ['not a url', false],
  ])('%s → %s', (endpoint, ok) => expect(pushEndpointVerdict(endpoint, hosts).ok).toBe(ok));

  it('trusts an origin PUSH_HOSTS names in full, and only that origin', () => {
    expect(pushEndpointVerdict('http://127.0.0.1:4100/push/a', hosts)).toEqual({ ok: true, trusted: true });
    expect(pushEndpointVerdict('http://127.0.0.1:4101/push/a', hosts)).toEqual({ ok: false });
    expect(pushEndpointVerdict('https://fcm.googleapis.com/x', hosts)).toEqual({ ok: true, trusted: false });
  });

  it.each([
    [' Push.Dealer.Example ', 'push.dealer.example'],
    ['*.relay.example', '*.relay.example'],
    ['http://127.0.0.1:4100/', 'http://127.0.0.1:4100'],
    ['https://push.dealer.example:443', 'https://push.dealer.example'],
    ['push', null],
    ['127.0.0.1', null],
    ['http://127.0.0.1:4100/path', null],
    ['ftp://push.dealer.example', null],
  ])('reads the PUSH_HOSTS entry %j as %j', (entry, kept) => expect(readPushHost(entry)).toBe(kept));
});
