import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { parseIpv6, refusedAddress } from '../../domain/net';

/** The guard refused the request: it would reach inside the network. Its message is for the log only. */
export class OutboundRefused extends Error {}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Uint8Array;
  timeoutMs: number;
  /** An origin the operator named in the configuration: reached as written, even inside the network. */
  trusted?: boolean;
}

export interface OutboundAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The most of an answer's body kept (a push service's or a provider's answer is a few hundred bytes). */
const MAX_BODY = 64 * 1024;

/**
 * The address to connect to: the host's own when it is an IP address, else what the name resolves
 * to now; every address it has must be a host on the internet (refusedAddress), unless `trusted`.
 */
async function addressOf(host: string, trusted: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const found =
    parseIpv6(literal) || /^[\d.]+$/.test(literal) ? [{ address: literal, family: literal.includes(':') ? 6 : 4 }] : await dns.lookup(host, { all: true });
  if (!trusted) {
    for (const a of found) {
      const why = refusedAddress(a.address);
      if (why) throw new OutboundRefused(`${host} is at ${a.address} (${why})`);
    }
  }
  const first = found[0];
  if (!first) throw new Error(`${host} has no address`);
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * Every request the portal makes to an address that came from a person's data (a push endpoint)
 * goes through here: http or https only, no user name in it; the host resolved once and refused when
 * any of its addresses is inside the network (loopback, private, link-local, the cloud's metadata,
 * unique local, CGNAT, or an IPv4-mapped one of those); the connection made to the very address
 * checked, so a second answer from DNS cannot swap it; no redirect followed (a 3xx is the answer).
 */
export async function outbound(url: string, req: OutboundRequest): Promise<OutboundAnswer> {
  const u = new URL(url);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new OutboundRefused(`${u.protocol} is not http or https`);
  if (u.username || u.password) throw new OutboundRefused('the address carries a user name');
  const pinned = await addressOf(u.hostname, !!req.trusted);
  const lookup: LookupFunction = (_host, options, done) => {
    if (options.all) done(null, [pinned]);
    else done(null, pinned.address, pinned.family);
  };
  const send = u.protocol === 'https:' ? https.request : http.request;
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const r = send(u, { method: req.method, headers: req.headers, lookup, agent: false, signal: AbortSignal.timeout(req.timeoutMs) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}
