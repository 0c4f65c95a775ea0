import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { implement } from './implement';
import { call } from '../../web/api/client';
import { MANAGER, testApp, type TestApp } from '../test/harness';

/**
 * The contract types both ends. These functions are compiled, never run: `tsc` (in `npm test`)
 * fails when an `@ts-expect-error` below meets no error, so each line proves a drift that does
 * not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
function serverDrift(app: FastifyInstance) {
  // @ts-expect-error GET /sales answers a tracker, not { ok: true }.
  implement(app, 'GET /sales', async () => ({ ok: true as const }));
  // @ts-expect-error DELETE /sales/:id answers { ok: true }, not a sale.
  implement(app, 'DELETE /sales/:id', async () => ({ id: 1 }));
  implement(app, 'GET /sales', async ({ me, query }) => {
    // @ts-expect-error GET /sales takes ?user, not ?day.
    void query.day;
    // The signed-in person on a route for users is there: no `!`.
    const id: string = me.id;
    void id;
    throw new Error('never runs');
  });
  implement(app, 'DELETE /sales/:id', async ({ params, body }) => {
    // A row id arrives as a number, parsed from the path.
    const id: number = params.id;
    void id;
    // @ts-expect-error DELETE /sales/:id takes no body.
    void body.date;
    return { ok: true };
  });
  implement(app, 'GET /auth/me', async ({ me }) => {
    // @ts-expect-error On a public route nobody may be signed in.
    void me.id;
    return { user: null };
  });
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars
function webDrift() {
  // @ts-expect-error GET /leads has no ?day.
  void call('GET /leads', { query: { day: '2026-11-25' } });
  // @ts-expect-error ?limit is a number.
  void call('GET /leads', { query: { limit: { many: true } } });
  // @ts-expect-error A path with :id needs it.
  void call('DELETE /sales/:id');
  // @ts-expect-error A sale's body has no commission: the server works it out.
  void call('POST /sales', { body: { date: '2026-11-25', frontGross: '1000', commissionCents: 5 } });
  // Flags and counts may be written as the web holds them.
  void call('GET /leads', { query: { open: true, limit: 20 } });
}

describe('implement: the contract parses what a route takes before its handler runs', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await testApp('sqlite');
    cookie = await t.signIn(MANAGER);
  });
  afterAll(() => t.close());

  const hit = (method: 'GET' | 'DELETE', url: string, who: string | null = cookie) =>
    t.app.inject({ method, url: `/api${url}`, headers: who ? { cookie: who } : {} });

  it('a path parameter that names no row is a 404 with the route’s own words', async () => {
    for (const id of ['0x10', '1e1', '+16', '0', 'abc', '9'.repeat(20)]) {
      const r = await hit('DELETE', `/sales/${encodeURIComponent(id)}`);
      expect([r.statusCode, r.json().error], id).toEqual([404, 'Sale not found']);
    }
  });

  it('a query the route does not take is a 400 naming what is wrong; no session is a 401 before any parsing', async () => {
    const r = await hit('GET', `/sales?user=${'x'.repeat(101)}`);
    expect([r.statusCode, r.json().error]).toEqual([400, 'No such user']);
    expect((await hit('GET', '/sales?user=x', null)).statusCode).toBe(401);
  });
});
