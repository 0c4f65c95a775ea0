import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { BODY_LIMIT } from '../app';

/** Routes that end the caller's own session (a body has no say in it): covered by their own tests. */
const SIGNS_US_OUT = new Set(['/api/auth/logout', '/api/auth/sessions/end-all']);
import { BAD_TEXT, JSON_TOO_DEEP, JSON_TOO_MANY_KEYS } from '../http/text';

const FIELDS = [
  'email',
  'token',
  'name',
  'greeting',
  'customer',
  'targetUid',
  'reason',
  'minutes',
  'uid',
  'active',
  'onDuty',
  'direction',
  'id',
  'role',
  'notes',
  'date',
  'vehicleType',
  'frontGross',
  'split',
  'q',
  'phone',
  'comments',
  'vehicle',
  'source',
];
const HOSTILE: unknown[] = [
  'x'.repeat(10_000),
  'a\u0000b\u0007c\u001b[31m',
  "Robert'); DROP TABLE leads; --",
  '<img src=x onerror=alert(1)><script>alert(1)</script>',
  12345,
  Number.NEGATIVE_INFINITY,
  true,
  null,
  ['list'],
  { nested: { deep: 1 } },
];
const deep = (n: number) => `${'{"customer":'.repeat(n)}"x"${'}'.repeat(n)}`;
const RAW = [
  'not json',
  '{"a":',
  '[]',
  '123',
  '"text"',
  'null',
  '{}',
  '{"__proto__":{"admin":true}}',
  // Nested 5,000 deep in 10 kB: once a stack overflow in the text check.
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  deep(5000),
  JSON.stringify({ customer: Array.from({ length: 30_000 }, () => 1) }),
];

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
      .flatMap((r) => [r.method].flat().map((m) => ({ method: m, url: r.url })))
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
      if (SIGNS_US_OUT.has(r.url)) continue; // ends our own session; covered by its own tests
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
          for (const k of Object.keys(before))
            if (before[k] !== after[k]) failures.push(`${r.method} ${r.url} ${body.slice(0, 60)} → ${res.statusCode} but changed ${k}`);
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

  it('refuses JSON nested too deep or too large with 400 naming the limit, signed in or not', async () => {
    for (const [body, error] of [
      [deep(5000), JSON_TOO_DEEP],
      [`${'['.repeat(33)}${']'.repeat(33)}`, JSON_TOO_DEEP],
      [JSON.stringify({ email: Array.from({ length: 30_000 }, () => 1) }), JSON_TOO_MANY_KEYS],
    ]) {
      for (const headers of [{ 'content-type': 'application/json' }, { cookie, 'content-type': 'application/json' }]) {
        const res = await t.app.inject({ method: 'POST', url: '/api/auth/link', headers, payload: body });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe(error);
      }
    }
    // Within the limit, the route's own schema answers (it takes no such field).
    const within = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"nested@dealer.test","x":${'['.repeat(30)}${']'.repeat(30)}}`,
    });
    expect(within.statusCode).toBe(400);
    expect([JSON_TOO_DEEP, JSON_TOO_MANY_KEYS]).not.toContain(within.json().error);
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

  it('refuses the edges: skipping a manager or someone off duty, losing twice, ids that are not plain decimals', async () => {
    const bossId = (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json().user.uid;
    const off = (await insertUser(t.db, { email: 'edge.off@dealer.test', name: 'Edge Off' })).id;
    let before = await snapshot(t);
    for (const targetUid of [bossId, off]) {
      const r = await send('POST', '/api/rotation/skip', JSON.stringify({ targetUid, reason: 'Lunch' }));
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(targetUid === bossId ? 'Select a user to skip' : `Edge Off is not in line (off duty). Only someone in line can be skipped.`);
    }
    expect(await snapshot(t)).toEqual(before);

    const { leadId } = (await send('POST', '/api/rotation/assign', JSON.stringify({ customer: 'Edge Case' }))).json();
    expect((await send('POST', `/api/leads/${leadId}/lost`, '{}')).json().error).toBe('Choose why the lead was lost');
    expect((await send('POST', `/api/leads/${leadId}/lost`, JSON.stringify({ reason: 'Credit' }))).statusCode).toBe(200);
    before = await snapshot(t);
    const again = await send('POST', `/api/leads/${leadId}/lost`, JSON.stringify({ reason: 'Credit' }));
    expect(again.statusCode).toBe(409);
    expect(await snapshot(t)).toEqual(before);

    for (const url of ['/api/leads/:id/lost', '/api/leads/:id/reopen', '/api/sales/:id', '/api/integrations/keys/:id/revoke']) {
      for (const id of [`0x${leadId.toString(16)}`, `${leadId}.0`, `+${leadId}`, `0${leadId}`, `${leadId}e0`, '-1', '0', '9'.repeat(20)]) {
        const method = url === '/api/sales/:id' ? 'PATCH' : 'POST';
        const r = await t.app.inject({ method, url: url.replace(':id', id), headers: { cookie, 'content-type': 'application/json' }, payload: '{}' });
        expect(r.statusCode, `${method} ${url} ${id}`).toBe(404);
      }
    }
    expect(await snapshot(t)).toEqual(before);
  });
});

let prospectId = 0;
const ADF = (inner: string, idAttrs = '') =>
  `<adf><prospect><id ${idAttrs}>P-${++prospectId}</id><customer><contact><name part="full">${inner}</name></contact></customer></prospect></adf>`;

/**
 * Text that is not valid Unicode, or holds NUL, in any part of any request on every route (path,
 * query, JSON body, XML body), addresses of 1 MB, and hostile ADF documents: a 4xx with a clear
 * message, nothing stored, never a 500.
 */
describe.each(DIALECTS)('hostile text and documents on every route on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let key: string;
  beforeAll(async () => {
    // One key sends every hostile document: more than the per-key burst (which has tests of its own, intake/limit.test.ts).
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '100000', INTAKE_BURST: '10000' });
    cookie = await t.signIn(MANAGER);
    await insertUser(t.db, { email: 'hostile.rep@dealer.test', name: 'Hostile Rep' });
    key = (await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers: { cookie }, payload: { name: 'Hostile feed' } })).json().key;
  });
  afterAll(() => t.close());

  const routes = () =>
    t.app.routeList
      .filter((r) => r.url.startsWith('/api') && !SIGNS_US_OUT.has(r.url))
      .flatMap((r) => [r.method].flat().map((m) => ({ method: m, url: r.url })))
      .filter((r) => r.method !== 'HEAD');

  const BAD_ESCAPES = ['a%00b', '%00', '%ED%A0%80', '%ff', 'a%C0%80', '%F4%90%80%80'];

  it('refuses NUL, broken UTF-8 and lone surrogates in the address on every route', async () => {
    const failures: string[] = [];
    const before = await snapshot(t);
    for (const r of routes()) {
      for (const bad of BAD_ESCAPES) {
        const urls = [`${r.url.replace(/\*$/, 'x').replace(/:[A-Za-z_]+/g, '1')}?q=${bad}`];
        if (r.url.includes(':')) urls.push(r.url.replace(/:[A-Za-z_]+/g, bad));
        for (const url of urls) {
          const res = await t.app.inject({
            method: r.method as 'GET',
            url,
            headers: { cookie, 'content-type': 'application/json' },
            payload: r.method === 'GET' ? undefined : '{}',
          });
          if (res.statusCode !== 400 || res.json().error !== BAD_TEXT) failures.push(`${r.method} ${url} → ${res.statusCode} ${res.body.slice(0, 100)}`);
        }
      }
      const long = await t.app.inject({
        method: r.method as 'GET',
        url: `${r.url.replace(/:[A-Za-z_]+/g, '1')}?q=${'x'.repeat(1024 * 1024)}`,
        headers: { cookie },
      });
      if (long.statusCode !== 414 || long.json().error !== 'The address is too long.') failures.push(`${r.method} ${r.url} 1 MB query → ${long.statusCode}`);
    }
    expect(failures).toEqual([]);
    expect(await snapshot(t)).toEqual(before);
  }, 120_000);

  it('refuses NUL, lone surrogates and broken UTF-8 in every JSON body', async () => {
    const bodies: (string | Buffer)[] = [
      '{"customer":"a\\u0000b","name":"a\\u0000b"}',
      '{"customer":"Bob \\ud800","name":"x\\udfff","email":"a\\ud800@dealer.test"}',
      '{"\\ud800":1}',
      '["\\u0000"]',
      Buffer.from('a\u0000b'),
      Buffer.from([0x7b, 0x22, 0x63, 0x75, 0x73, 0x74, 0x6f, 0x6d, 0x65, 0x72, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      Buffer.from('{"customer":"\u00e9"}', 'latin1'),
    ];
    const failures: string[] = [];
    const before = await snapshot(t);
    for (const r of routes().filter((x) => ['POST', 'PUT', 'PATCH'].includes(x.method))) {
      for (const payload of bodies) {
        // As plain text, JSON escapes are just characters; only raw bytes can be broken there.
        for (const type of typeof payload === 'string' ? ['application/json'] : ['application/json', 'text/plain']) {
          const url = r.url.replace(/\*$/, 'x').replace(/:[A-Za-z_]+/g, '1');
          const res = await t.app.inject({ method: r.method as 'POST', url, headers: { cookie, 'content-type': type }, payload });
          // The intake API asks for its key before it reads a body.
          const want = r.url.includes('/v1/') ? 401 : 400;
          if (res.statusCode !== want || (want === 400 && res.json().error !== BAD_TEXT))
            failures.push(`${r.method} ${url} ${type} ${payload.toString().slice(0, 40)} → ${res.statusCode} ${res.body.slice(0, 100)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot(t)).toEqual(before);
  }, 120_000);

  it('refuses hostile intake documents with a 4xx and a clear message', async () => {
    const send = (payload: string | Buffer, type = 'application/x-adf+xml') =>
      t.app.inject({ method: 'POST', url: '/api/v1/leads', headers: { 'x-api-key': key, 'content-type': type }, payload });
    const attrs = (n: number) => Array.from({ length: n }, (_, i) => `a${i}="x"`).join(' ');
    const cases: [string, string | Buffer, number, RegExp, string?][] = [
      ['a NUL byte in XML', ADF('a\u0000b'), 400, /valid Unicode/],
      ['broken UTF-8 in XML', Buffer.concat([Buffer.from(ADF('a')), Buffer.from([0xff])]), 400, /valid Unicode/],
      ['a character reference to a lone surrogate', ADF('Bob &#xD800;'), 400, /not valid Unicode/],
      ['a character reference to NUL', ADF('Bob &#0;'), 400, /not valid Unicode/],
      ['an 8 KB id source', ADF('Bob', `source="${'s'.repeat(8 * 1024)}"`), 400, /too long/],
      ['a 500,000-character id source', ADF('Bob', `source="${'s'.repeat(500_000)}"`), 400, /too long/],
      ['a long id source within the tag limit', ADF('Bob', `source="${'s'.repeat(101)}"`), 400, /id source.*too long/i],
      ['90,000 attributes on one element', ADF('Bob', attrs(90_000)), 400, /too many attributes/],
      ['100 attributes on one element', ADF('Bob', attrs(100)), 400, /too many attributes/],
      [
        'an oversized document',
        `<adf>${'<prospect><customer><contact><name part="full">Bob</name></contact></customer></prospect>'.repeat(20_000)}</adf>`,
        413,
        /too large/,
      ],
      [
        'too many attributes in all',
        `<adf><prospect><customer><contact><name part="full">Bob</name></contact></customer>${`<x ${attrs(10)}/>`.repeat(300)}</prospect></adf>`,
        400,
        /too many attributes/,
      ],
      [
        'too many elements',
        `<adf><prospect><customer><contact><name part="full">Bob</name></contact></customer>${'<x/>'.repeat(20_000)}</prospect></adf>`,
        400,
        /too many elements/,
      ],
      ['too deep', `<adf><prospect>${'<x>'.repeat(5000)}${'</x>'.repeat(5000)}</prospect></adf>`, 400, /nested too deeply/],
      ['a 100 KB element text', ADF('x'.repeat(100_000)), 400, /too long/],
      [
        '900 kB of bare ampersands (2.8 MB once escaped)',
        `<adf><prospect>${`<c>${'& '.repeat(15_000)}</c>`.repeat(30)}</prospect></adf>`,
        413,
        /bare "&" characters/,
      ],
      ['a lone surrogate in JSON', '{"customer":"Bob \\ud800"}', 400, /valid Unicode/, 'application/json'],
      ['NUL in JSON', '{"customer":"Bob \\u0000"}', 400, /valid Unicode/, 'application/json'],
      ['a charset named like a built-in of JavaScript', ADF('Bob'), 415, /charset "__proto__" is not supported/, 'application/xml; charset=__proto__'],
      ['an XML encoding named like a built-in', `<?xml version="1.0" encoding="constructor"?>${ADF('Bob')}`, 415, /"constructor" is not supported/],
    ];
    const failures: string[] = [];
    for (const [label, body, status, msg, type] of cases) {
      const res = await send(body, type);
      if (res.statusCode !== status || !msg.test(res.json().error ?? '')) failures.push(`${label} → ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
    expect(await t.db.selectFrom('leads').selectAll().execute()).toEqual([]);
  }, 60_000);
});
