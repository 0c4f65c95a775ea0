import { z } from 'zod';

/** The longest push endpoint taken (real ones are a few hundred characters). */
const MAX_ENDPOINT = 2000;
/** The most devices one person may have notifications on at once. */
export const MAX_DEVICES = 20;

/** base64url (padding allowed, as some browsers send it) of exactly `bytes` bytes. */
const base64url = (bytes: number, message: string) =>
  z
    .string({ error: message })
    .transform((s) => s.replace(/=+$/, ''))
    .refine((s) => s.length === Math.ceil((bytes * 4) / 3) && /^[A-Za-z0-9_-]+$/.test(s), { error: message });

const pushUrl = z
  .string({ error: 'The push endpoint must be a web address.' })
  .max(MAX_ENDPOINT, { error: `The push endpoint is longer than ${MAX_ENDPOINT} characters.` })
  .refine(
    (s) => {
      try {
        return ['https:', 'http:'].includes(new URL(s).protocol);
      } catch {
        return false;
      }
    },
    { error: 'The push endpoint must be a web address.' },
  );

/** What a browser's PushSubscription.toJSON() gives: where to push, and the keys to encrypt for it. */
export const pushSubscriptionSchema = z.object({
  endpoint: pushUrl,
  keys: z.object(
    {
      // An uncompressed P-256 point: 0x04, then x and y (the server checks it is on the curve).
      p256dh: base64url(65, 'The subscription key (p256dh) must be a P-256 public key.'),
      auth: base64url(16, 'The subscription secret (auth) must be 16 bytes.'),
    },
    { error: 'The subscription has no keys.' },
  ),
});

export const acceptTokenSchema = z.object({
  token: z.string({ error: 'The Accept token is missing.' }).regex(/^[A-Za-z0-9_-]{43}$/, { error: 'This Accept is not valid. Open the lead in the portal.' }),
});

const pushDevice = z.object({
  id: z.number(),
  label: z.string(),
  /** His own device's endpoint: the page marks the one it is on. */
  endpoint: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export const pushDevices = z.object({ devices: z.array(pushDevice) });
export const pushDeviceAdded = z.object({ device: pushDevice });
export const pushKey = z.object({ key: z.string() });

/**
 * Whether a push endpoint names a push service on the internet: https, a host name with a dot,
 * not an address or localhost (the server posts to it, so it must not reach inside the network).
 */
export function isPublicEndpoint(endpoint: string): boolean {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return false;
  }
  const host = u.hostname.toLowerCase();
  if (u.protocol !== 'https:' || u.username || u.password) return false;
  if (host.startsWith('[') || /^[\d.]+$/.test(host) || !host.includes('.')) return false;
  return !/(^|\.)(localhost|local|internal)$/.test(host);
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/Linux/, 'Linux'],
];

/** A device's name from its User-Agent: "Chrome on Windows", "Safari on iPhone"; "A browser" when it says nothing known. */
export function deviceLabel(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : 'A browser');
}
