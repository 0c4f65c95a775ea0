import type { Answer, Body, InStore, ParamsIn, QueryIn, Route } from '../../domain/contract/routes';
import { ApiError } from '../../domain/errors';
import { methodAndPath, type Method } from '../../domain/contract/method';
import { isRecord } from '../../domain/guards';
import { inStore } from './scope';
import { codeInAddress } from '../stores/paths';

type CallOptions<R extends Route> = ([ParamsIn<R>] extends [never] ? { params?: undefined } : { params: ParamsIn<R> }) &
  ([Body<R>] extends [never] ? { body?: undefined } : { body: Body<R> }) &
  ([QueryIn<R>] extends [never] ? { query?: undefined } : { query?: QueryIn<R> }) &
  // A query names the store its key holds; left out, the store of the current address.
  ([InStore<R>] extends [true] ? { store?: string } : { store?: undefined }) &
  // `as`: a header that says who calls instead of the session (a TV link's), sent without the cookie.
  { as?: Record<string, string> };
type Needs<R extends Route> = [ParamsIn<R>] extends [never] ? ([Body<R>] extends [never] ? [CallOptions<R>?] : [CallOptions<R>]) : [CallOptions<R>];

/**
 * Calls a route of the API contract (domain/contract/routes.ts): the path parameters, the query,
 * the body and the answer are typed by the same schemas the server parses with. A route that acts
 * on one store (`store: true`) says which (`?store=` on a read, the X-Store header on a change):
 * the one the caller names, else the one in the address (/s/NSH/...). Without either the server
 * takes the person's own.
 */
export function call<R extends Route>(route: R, ...[opts]: Needs<R>): Promise<Answer<R>> {
  const [method, template] = methodAndPath(route);
  const params: Record<string, unknown> = opts?.params ?? {};
  let path = template.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(String(params[k])));
  const query = Object.entries(opts?.query ?? {}).filter((e): e is [string, string | number | boolean] => e[1] !== undefined && e[1] !== '');
  const store = inStore(route) ? (opts?.store ?? codeInAddress()) : null;
  // A read names its store in the address, last (as the page's preload of it does, server/http/preload.ts); a change in the X-Store header.
  if (store && method === 'GET') query.push(['store', store]);
  if (query.length) path += `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)]))}`;
  // Safe: the server answers the route's own schema (its test build checks every answer against it).
  return api(path, { method, body: opts?.body, store: method === 'GET' ? null : store, as: opts?.as }) as Promise<Answer<R>>;
}

type Send = (url: string, init: RequestInit) => Promise<Response>;
let send: Send = (url, init) => fetch(url, init);
/** Where calls go: the browser's fetch, or (web/entry-server.tsx) the server's own answers to the page's request. */
export const sendVia = (fn: Send) => {
  send = fn;
};

let onUnauthorized: (() => void) | null = null;
/** Called when a signed-in call answers 401: the session ended elsewhere. */
export const setUnauthorizedHandler = (fn: (() => void) | null) => {
  onUnauthorized = fn;
};

async function api(path: string, opts: { method?: Method; body?: unknown; store?: string | null; as?: Record<string, string> } = {}): Promise<unknown> {
  const headers: Record<string, string> = { ...opts.as };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.store) headers['x-store'] = opts.store;
  let res: Response;
  try {
    res = await send(`/api${path}`, {
      method: opts.method ?? 'GET',
      credentials: opts.as ? 'omit' : 'same-origin',
      ...(opts.as && { cache: 'no-store' as const }),
      // No headers at all on a plain GET: it then matches the page's preload of the same address.
      headers: Object.keys(headers).length ? headers : undefined,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
  } catch {
    throw new ApiError(0, 'The portal cannot be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/auth/') && !opts.as) onUnauthorized?.();
    // A refusal is { error, code?, field? } (the contract's refusal); anything else says only its status.
    const said = (key: string) => (isRecord(data) && typeof data[key] === 'string' ? data[key] : undefined);
    throw new ApiError(res.status, said('error') ?? `Request failed (${res.status})`, said('code'), said('field'));
  }
  return data;
}

/**
 * A fresh id for one action (an Assign or a Skip), made when its form is filled: the server
 * answers a repeat of it once. getRandomValues works on plain http too, unlike randomUUID.
 */
export const newActionId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
