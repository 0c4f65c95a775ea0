/**
 * Addresses and host names the portal may send a request to (server/http/outbound.ts): pure rules,
 * so the guard and its tests read them the same way.
 */

/** The four bytes of a dotted-quad IPv4 address, or null. */
function parseIpv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** The sixteen bytes of an IPv6 address (brackets allowed, a dotted-quad tail too; no zone), or null. */
export function parseIpv6(input: string): number[] | null {
  let s = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  if (s.includes('.')) {
    const at = s.lastIndexOf(':');
    const v4 = parseIpv4(s.slice(at + 1));
    if (at < 0 || !v4) return null;
    s = `${s.slice(0, at + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if ([...head, ...tail].some(Number.isNaN)) return null;
  let words: number[];
  if (halves.length === 1) words = head;
  else if (head.length + tail.length > 7) return null;
  else words = [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  if (words.length !== 8) return null;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** Whether `bytes` start with the `bits` first bits of `prefix`. */
function within(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const bit = (b: number[]) => (b[i >> 3] >> (7 - (i & 7))) & 1;
    if (bit(bytes) !== bit(prefix)) return false;
  }
  return true;
}

/** IPv4 ranges no request of the portal's may reach: its own machine, the private networks, the cloud's metadata, and what is not a host on the internet. */
const V4: [string, number[], number][] = [
  ['this network', [0, 0, 0, 0], 8],
  ['private', [10, 0, 0, 0], 8],
  ['shared (carrier-grade NAT; a cloud metadata address too)', [100, 64, 0, 0], 10],
  ['loopback', [127, 0, 0, 0], 8],
  ['link-local (the cloud metadata address)', [169, 254, 0, 0], 16],
  ['private', [172, 16, 0, 0], 12],
  ['protocol assignments (a cloud metadata address too)', [192, 0, 0, 0], 24],
  ['documentation', [192, 0, 2, 0], 24],
  ['6to4 relay', [192, 88, 99, 0], 24],
  ['private', [192, 168, 0, 0], 16],
  ['benchmarking', [198, 18, 0, 0], 15],
  ['documentation', [198, 51, 100, 0], 24],
  ['documentation', [203, 0, 113, 0], 24],
  ['multicast', [224, 0, 0, 0], 4],
  ['reserved', [240, 0, 0, 0], 4],
];

const v6 = (s: string): number[] => {
  const bytes = parseIpv6(s);
  if (!bytes) throw new Error(`not an IPv6 address: ${s}`);
  return bytes;
};
/** Inside global unicast (2000::/3), the blocks that are not someone's host on the internet. */
const V6: [string, number[], number][] = [
  ['Teredo', v6('2001::'), 32],
  ['benchmarking', v6('2001:2::'), 48],
  ['ORCHID', v6('2001:10::'), 28],
  ['ORCHID', v6('2001:20::'), 28],
  ['documentation', v6('2001:db8::'), 32],
  ['documentation', v6('3fff::'), 20],
];
const GLOBAL_UNICAST = v6('2000::');
/** IPv6 blocks that carry an IPv4 address: the IPv4 address is what is reached. */
const CARRIERS: { prefix: number[]; bits: number; at: number }[] = [
  { prefix: v6('::ffff:0:0'), bits: 96, at: 12 }, // IPv4-mapped
  { prefix: v6('64:ff9b::'), bits: 96, at: 12 }, // NAT64
  { prefix: v6('2002::'), bits: 16, at: 2 }, // 6to4
];

/** Why a request may not go to this IP address ("loopback", "private", …), or null when it is a host on the internet. */
export function refusedAddress(ip: string): string | null {
  const four = parseIpv4(ip);
  if (four) return V4.find(([, prefix, bits]) => within(four, prefix, bits))?.[0] ?? null;
  const six = parseIpv6(ip);
  if (!six) return 'not an IP address';
  for (const c of CARRIERS) {
    if (within(six, c.prefix, c.bits)) {
      const inner = refusedAddress(six.slice(c.at, c.at + 4).join('.'));
      return inner && `${inner}, inside an IPv6 address`;
    }
  }
  if (six.every((b, i) => (i === 15 ? b === 1 : b === 0))) return 'loopback';
  if (within(six, v6('fc00::'), 7)) return 'unique local';
  if (within(six, v6('fe80::'), 10)) return 'link-local';
  if (!within(six, GLOBAL_UNICAST, 3)) return 'not global unicast';
  return V6.find(([, prefix, bits]) => within(six, prefix, bits))?.[0] ?? null;
}

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Whether `s` is a lower-case ASCII host name on the internet: two labels or more, each of letters,
 * digits and inner hyphens, the last a real top-level name (not digits); no trailing dot.
 */
export function isHostName(s: string): boolean {
  if (s.length > 253) return false;
  const labels = s.split('.');
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && TOP.test(labels[labels.length - 1]);
}

/** Whether `host` is `pattern`, or under it when the pattern is `*.name` (not `name` itself). */
export function hostMatches(host: string, pattern: string): boolean {
  if (!pattern.startsWith('*.')) return host === pattern;
  const base = pattern.slice(1);
  return host.length > base.length && host.endsWith(base);
}

/**
 * Who a connection counts as for a limit per client: an IPv4 address as it is (an IPv4-mapped
 * IPv6 one as its IPv4 address), an IPv6 address by its /64, which one subscriber's network
 * holds whole (millions of addresses), e.g. "2001:db8:1:2::/64". Anything else as it came.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  if (parseIpv4(address)) return address;
  const b = parseIpv6(address.replace(/%.*$/, ''));
  if (!b) return address;
  if (b.slice(0, 10).every((n) => n === 0) && b[10] === 0xff && b[11] === 0xff) return b.slice(12).join('.');
  return `${[0, 2, 4, 6].map((i) => ((b[i] << 8) | b[i + 1]).toString(16)).join(':')}::/64`;
}
