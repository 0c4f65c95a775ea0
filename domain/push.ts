import { z } from 'zod';
import { hostMatches, isHostName } from './net';

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

/** The push services browsers use: Chrome, Edge on Android and others (Google), Firefox, Safari, Edge on Windows. */
const KNOWN_PUSH_HOSTS = ['fcm.googleapis.com', '*.push.services.mozilla.com', '*.push.apple.com', '*.notify.windows.com'] as const;

export const BAD_ENDPOINT =
  'The push endpoint must be the https address of a known push service (Google, Mozilla, Apple or Microsoft, or one this portal is set up for).';

/** Why a PUSH_HOSTS entry is refused. */
export const BAD_PUSH_HOSTS = 'must be comma-separated host names (push.example.com, *.push.example.com) or origins (https://push.example.com:8443)';

/**
 * One PUSH_HOSTS entry as the portal keeps it: a host name (`push.example.com`, or `*.push.example.com`
 * for the names under it) reached by https on port 443 like the known services; or an origin written
 * out in full (`http://10.0.0.5:8080`), the operator's own service, reached as written even inside
 * the network. Null when it is neither.
 */
export function readPushHost(entry: string): string | null {
  const e = entry.trim().toLowerCase();
  if (e.includes('://')) {
    try {
      const u = new URL(e);
      const bare = u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password;
      return bare && ['http:', 'https:'].includes(u.protocol) ? u.origin : null;
    } catch {
      return null;
    }
  }
  return isHostName(e.startsWith('*.') ? e.slice(2) : e) ? e : null;
}

/**
 * Whether the portal may post to a push endpoint: https on port 443 of a known push service or a host
 * PUSH_HOSTS names (`trusted: false`: its address is still checked when it is sent to), or an origin
 * PUSH_HOSTS names in full (`trusted: true`). Never with a user name, never an IP address or a name
 * ending in a dot.
 */
export function pushEndpointVerdict(endpoint: string, pushHosts: readonly string[]): { ok: true; trusted: boolean } | { ok: false } {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return { ok: false };
  }
  if (u.username || u.password) return { ok: false };
  if (pushHosts.includes(u.origin)) return { ok: true, trusted: true };
  // An https URL's port is '' exactly when it is 443.
  if (u.protocol !== 'https:' || u.port !== '' || !isHostName(u.hostname)) return { ok: false };
  const hosts = [...KNOWN_PUSH_HOSTS, ...pushHosts.filter((h) => !h.includes('://'))];
  return hosts.some((h) => hostMatches(u.hostname, h)) ? { ok: true, trusted: false } : { ok: false };
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
