import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { BODY_LIMIT } from '../app';

const FIELDS = ['email', 'token', 'name', 'greeting', 'customer', 'targetUid', 'reason', 'minutes', 'uid', 'active', 'onDuty', 'direction', 'id', 'role', 'notes', 'date', 'vehicleType', 'frontGross', 'split', 'q', 'phone', 'comments', 'vehicle', 'source'];
const HOSTILE: unknown[] = [
  'x'.repeat(10_000),
  'a\u0000b\u0007c\u001b[31m',
  "Robert'); DROP TABLE leads; --",
  '<img src=x onerror=alert(1)><script>alert(1)</script>',
  12345,
  -1e400,
  true,
  null,
  ['list'],
  { nested: { deep: 1 } },
];
const RAW = ['not json', '{"a":', '[]', '123', '"text"', 'null', '{}', '{"__proto__":{"admin":true}}'];

/** Row counts and last changes of every table: a refused request must leave them all alone. */
async function snapshot(t: TestApp) {
  const out: Record<string, unknown> = {};
  for (const table of ['users', 'leads', 'rotation_log', 'rotation_state', 'sales', 'audit_log', 'login_tokens', 'settings'] as const) {
    const rows = await t.db.selectFrom(table).selectAll().execute();
    out[table] = JSON.stringify(rows.map((r: any) => ({ ...r, ...(table === 'users' ? { updated_at: 0, signed_in_at: 0 } : {}) })));
  }
  return out;
}

/**
 * Feeds every JSON route of the server's own route list malformed JSON, wrong types, missing and
 * extra fields, oversized bodies, long strings, control characters, SQL and HTML. Every answer is
 * a 4xx or a correct 2xx, never a 500, and a refused request stores nothing.
 */
describe.each(DIALECTS)('bad input on every JSON route on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let targetId: string;
  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '100000' });
    cookie = await t.signIn(MANAGER);
    targetId = (await insertUser(t.db, { email: 'bad.input@dealer.test', name: 'Bad Input', onDuty: true })).id;
  });
  afterAll(() => t.close());

  const routes = () =>
    t.app.routeList
      .filter((r) => r.url.startsWith('/api'))
      .flatMap((r) => [r.method].flat().map((m) => ({ method: m as string, url: r.url })))
      .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.url.includes('*'));

  async function send(method: string, url: string, payload: string, contentType = 'application/json') {
    const path = url.replace(/:[A-Za-z_]+/g, targetId);
    return t.app.inject({ method: method as 'POST', url: path, headers: { cookie, 'content-type': contentType }, payload });
  }

  it('covers the JSON routes', () => {
    expect(routes().length).toBeGreaterThan(10);
  });

  it('never answers 500 and stores nothing when it refuses', async () => {
    const failures: string[] = [];
    for (const r of routes()) {
      if (r.url === '/api/auth/logout') continue; // ends our own session; covered by its own tests
      const bodies: string[] = [...RAW];
      for (const v of HOSTILE) {
        bodies.push(JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, v]))));
        bodies.push(JSON.stringify({ extraField: v }));
      }
      for (const body of bodies) {
        const before = await snapshot(t);
        const res = await send(r.method, r.url, body);
        if (res.statusCode >= 500) failures.push(`${r.method} ${r.url} ${body.slice(0, 60)} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        if (res.statusCode >= 400 && res.statusCode < 500) {
          if (!res.json().error) failures.push(`${r.method} ${r.url} → ${res.statusCode} without a message`);
          const after = await snapshot(t);
          for (const k of Object.keys(before)) if (before[k] !== after[k]) failures.push(`${r.method} ${r.url} ${body.slice(0, 60)} → ${res.statusCode} but changed ${k}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('refuses bodies over the limit with 413 and a wrong content type with 415', async () => {
    for (const r of routes()) {
      if (r.url.includes('/v1/')) continue; // the intake API has a larger limit and its own tests
      const big = await send(r.method, r.url, JSON.stringify({ customer: 'x'.repeat(BODY_LIMIT + 10) }));
      expect(big.statusCode, `${r.method} ${r.url}`).toBe(413);
      expect(big.json().error).toBe('The request is too large.');
    }
    const wrongType = await send('POST', '/api/rotation/assign', 'customer=Bob', 'application/x-www-form-urlencoded');
    expect(wrongType.statusCode).toBe(415);
  });

  it('keeps SQL and HTML in a customer name as plain text', async () => {
    const customer = `<b>Bob</b> '); DROP TABLE leads; --`;
    // The sweep above may have deleted and restored our salesman, who comes back off duty.
    await send('POST', '/api/users/:id/restore', '{}');
    await send('POST', '/api/rotation/status', JSON.stringify({ uid: targetId, onDuty: true, active: true }));
    const res = await send('POST', '/api/rotation/assign', JSON.stringify({ customer }));
    expect(res.statusCode).toBe(200);
    const lead = await t.db.selectFrom('leads').selectAll().where('id', '=', res.json().leadId).executeTakeFirstOrThrow();
    expect(lead.customer).toBe(customer);
  });
});
