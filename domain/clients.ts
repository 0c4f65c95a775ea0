const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const GROUP = /^[0-9a-f]{1,4}$/;

/** An IPv4 address's four numbers, or null. */
function ipv4(text: string): number[] | null {
  const m = IPV4.exec(text);
  const parts = m ? m.slice(1).map(Number) : null;
  return parts && parts.every((n) => n <= 255) ? parts : null;
}

/** An IPv6 address's eight 16-bit groups (a zone index dropped, an IPv4 tail read), or null. */
function ipv6(text: string): number[] | null {
  let rest = text.toLowerCase().replace(/%.*$/, '');
  const tail: number[] = [];
  const last = rest.lastIndexOf(':');
  if (rest.includes('.', last)) {
    const v4 = ipv4(rest.slice(last + 1));
    if (!v4) return null;
    tail.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    rest = rest.slice(0, last + 1);
    if (!rest.endsWith('::')) rest = rest.slice(0, -1);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const [head, after] = halves.map((h) => (h ? h.split(':') : []));
  const tailHead = after ?? [];
  const missing = 8 - tail.length - head.length - tailHead.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const written = [...head, ...tailHead];
  if (!written.every((g) => GROUP.test(g))) return null;
  const hex = (gs: string[]) => gs.map((g) => parseInt(g, 16));
  return [...hex(head), ...Array<number>(missing).fill(0), ...hex(tailHead), ...tail];
}

/**
 * Who a connection counts as for a limit per client: an IPv4 address as it is (an IPv4-mapped
 * IPv6 one as its IPv4 address), an IPv6 address by its /64, which one subscriber's network
 * holds whole (millions of addresses), e.g. "2001:db8:1:2::/64". Anything else as it came.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  if (ipv4(address)) return address;
  const g = ipv6(address);
  if (!g) return address;
  if (g.slice(0, 5).every((n) => n === 0) && g[5] === 0xffff) return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.');
  return `${g
    .slice(0, 4)
    .map((n) => n.toString(16))
    .join(':')}::/64`;
}
