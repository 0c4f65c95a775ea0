import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { requestHash } from './service';
import { setPlaces } from '../test/places';

const sample = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'samples', name));
const ADF = 'application/x-adf+xml';

describe.each(DIALECTS)('lead intake API on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let floor: string;
  let key: string;
  let reps: { id: string; name: string; email: string }[];

  beforeAll(async () => {
    // Tests here send many documents with one key: the per-key bucket has tests of its own (limit.test.ts).
    t = await testApp(dialect, { INTAKE_BURST: '1000' });
    boss = await t.signIn(MANAGER);
    // A salesman who signs in and clocks in and out by themselves; off the floor unless a test says so.
    floor = await t.signIn('floor@dealer.test');
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    key = await newKey('Website');
    await t.db.deleteFrom('leads').execute();
    await t.db.deleteFrom('rotation_log').execute();
    await t.db.deleteFrom('idempotency_keys').execute();
    await t.db.updateTable('rotation_state').set({ pointer_pos: 0 }).execute();
    await setPlaces(t.db, { on_duty: 0 }, (u) => u.where('email', '=', 'floor@dealer.test'));
    await t.db.deleteFrom('users').where('email', 'like', 'rep%').execute();
    reps = [];
    for (const name of ['Ann', 'Ben', 'Cat']) {
      const email = `rep.${name.toLowerCase()}@dealer.test`;
      const u = await insertUser(t.db, { email, name, onDuty: true });
      reps.push({ id: u.id, name, email });
    }
  });

  async function newKey(name: string): Promise<string> {
    const r = await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers: { cookie: boss }, payload: { name } });
    expect(r.statusCode).toBe(201);
    return r.json().key;
  }
  const send = (body: string | Buffer | object, headers: Record<string, string> = {}, apiKey: string | null = key) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: {
        ...(apiKey ? { 'x-api-key': apiKey } : {}),
        ...(typeof body === 'object' && !Buffer.isBuffer(body) ? {} : { 'content-type': ADF }),
        ...headers,
      },
      payload: body,
    });
  const leads = () => t.db.selectFrom('leads').selectAll().orderBy('id').execute();
  /** Waits for a mail to this address that mentions `text` (older mails may be in the inbox). */
  async function mailWith(address: string, text: string) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const m = t.smtp.inbox.find((x) => x.to.includes(address) && x.text.includes(text));
      if (m) return m;
      if (Date.now() > deadline) throw new Error(`no mail to ${address} about ${text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('a manager creates a key that is shown once and stored only hashed; staff may not', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers: { cookie: boss }, payload: { name: '  Cars.com  ' } });
    expect(r.statusCode).toBe(201);
    const { key: secret, apiKey } = r.json();
    expect(secret).toMatch(/^bdc_[A-Za-z0-9_-]{32}$/);
    expect(apiKey).toMatchObject({ name: 'Cars.com', prefix: secret.slice(0, 10), lastUsedAt: null, revokedAt: null });
    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: { cookie: boss } });
    expect(list.body).not.toContain(secret);
    expect(list.json().keys.find((k: any) => k.id === apiKey.id)).toMatchObject({ name: 'Cars.com' });
    const row = await t.db.selectFrom('api_keys').selectAll().where('id', '=', apiKey.id).executeTakeFirstOrThrow();
    expect(row.key_hash).not.toContain(secret);
    expect(row.key_hash).toHaveLength(64);

    expect((await send({ customer: 'Used key' }, {}, secret)).statusCode).toBe(201);
    const used = (await t.app.inject({ method: 'GET', url: '/api/integrations/keys', headers: { cookie: boss } })).json().keys;
    expect(used.find((k: any) => k.id === apiKey.id).lastUsedAt).not.toBeNull();

    expect((await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers: { cookie: boss }, payload: { name: ' ' } })).json().error).toBe(
      'Name is required',
    );
    for (const [method, url] of [
      ['GET', '/api/integrations/keys'],
      ['POST', '/api/integrations/keys'],
      ['POST', `/api/integrations/keys/${apiKey.id}/revoke`],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: { cookie: floor }, payload: { name: 'x' } })).statusCode).toBe(403);
    }
  });

  it('a JSON lead goes round robin like a manager Assign, logged with the integration name, and the salesman gets mail', async () => {
    const r = await send({
      customer: '  Jane Doe ',
      phone: '843-555-0100',
      email: 'jane@example.com',
      vehicle: '2024 Honda Accord',
      comments: 'Wants a test drive\nSaturday',
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toEqual({ leads: [{ id: expect.any(Number), customer: 'Jane Doe', status: 'assigned', assignedTo: 'Ann' }] });
    const [lead] = await leads();
    expect(lead).toMatchObject({
      customer: 'Jane Doe',
      assigned_to: reps[0].id,
      assigned_by: null,
      assigned_by_name: 'Website',
      source: 'Website',
      status: 'handed',
      phone: '843-555-0100',
      email: 'jane@example.com',
      vehicle: '2024 Honda Accord',
      comments: 'Wants a test drive\nSaturday',
    });
    expect(lead.follow_up_due - lead.assigned_at).toBe(24 * 3_600_000);
    const log = await t.db.selectFrom('rotation_log').selectAll().executeTakeFirstOrThrow();
    expect(log).toMatchObject({ type: 'assign', customer: 'Jane Doe', target_name: 'Ann', manager_name: 'Website', lead_id: lead.id });

    // The next lead, from a manager or the API, is the next salesman's.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer: 'Walk-in Will' } })).json().assignedTo
        .name,
    ).toBe('Ben');
    expect((await send({ customer: 'Third', source: 'Facebook' })).json().leads[0]).toMatchObject({ assignedTo: 'Cat' });
    expect((await leads())[2].source).toBe('Facebook');

    const mail = await mailWith(reps[0].email, 'Jane Doe');
    expect(mail.subject).toBe('New lead: Jane Doe');
    for (const s of ['843-555-0100', 'jane@example.com', '2024 Honda Accord', 'Wants a test drive', 'Follow up by:']) expect(mail.text).toContain(s);
    // A manager's Assign mails the salesman too.
    expect((await mailWith(reps[1].email, 'Walk-in Will')).subject).toBe('New lead: Walk-in Will');

    const page = await t.app.inject({ method: 'GET', url: '/api/leads?open=1', headers: { cookie: boss } });
    expect(page.json().leads.find((l: any) => l.customer === 'Jane Doe')).toMatchObject({
      phone: '843-555-0100',
      email: 'jane@example.com',
      vehicle: '2024 Honda Accord',
      assignedToName: 'Ann',
    });
  });

  it('reads the ADF sample set: full name, first and last, no vehicle, CDATA comments, a UTF-8 BOM', async () => {
    const cases = [
      [
        'full-name.xml',
        {
          customer: 'Maria Gonzalez',
          phone: '(843) 555-0142',
          email: 'maria.gonzalez@example.com',
          vehicle: '2021 Toyota RAV4 XLE',
          vin: '2T3P1RFV5MW000001',
          comments: 'Is this still available?',
          source: 'AutoTrader',
          external_source: expect.stringMatching(/^\d+:AutoTrader$/),
          external_id: 'AT-100234',
        },
      ],
      [
        'first-last.xml',
        {
          customer: "James O'Brien",
          phone: '843-555-0199',
          email: 'jobrien@example.com',
          vehicle: '2025 Honda Accord',
          source: 'Dealer Website',
          external_source: expect.stringMatching(/^\d+:dealer-website$/),
          external_id: 'web-7781',
        },
      ],
      [
        'no-vehicle.xml',
        {
          customer: 'Priya Shah',
          phone: '843-555-0123',
          vehicle: null,
          vin: null,
          comments: 'Please call after 5pm about financing.',
          source: 'Cars.com',
          external_id: null,
        },
      ],
      [
        'cdata-comments.xml',
        { customer: 'Tom & Ann Lee', comments: 'Trade-in: 2012 Civic <120k miles> & needs "best price" today', vehicle: '2019 Ford F-150', source: 'CarGurus' },
      ],
      ['bom.xml', { customer: 'Zoë Müller', email: 'zoe@example.com', vehicle: '2024 Kia EV6', source: 'Kia Digital' }],
    ] as const;
    for (const [file, want] of cases) {
      const r = await send(sample(file), { 'content-type': file === 'no-vehicle.xml' ? 'text/xml; charset=utf-8' : ADF });
      expect(r.statusCode, `${file}: ${r.body}`).toBe(201);
      expect(r.json().leads[0].customer).toBe(want.customer);
      const row = await t.db.selectFrom('leads').selectAll().where('id', '=', r.json().leads[0].id).executeTakeFirstOrThrow();
      expect(row, file).toMatchObject(want);
    }
  });

  it('hands out every prospect of one document in rotation order', async () => {
    const r = await send(sample('two-prospects.xml'));
    expect(r.statusCode).toBe(201);
    expect(r.json().leads.map((l: any) => [l.customer, l.assignedTo])).toEqual([
      ['First Prospect', 'Ann'],
      ['Second Prospect', 'Ben'],
      ['Third Prospect', 'Cat'],
    ]);
    expect(await leads()).toHaveLength(3);
  });

  it('creates one lead for a repeated Idempotency-Key or a repeated prospect id from the same source', async () => {
    const first = await send({ customer: 'Retry Rita' }, { 'idempotency-key': 'req-1' });
    const again = await send({ customer: 'Retry Rita' }, { 'idempotency-key': 'req-1' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    // Concurrent retries of the same request still make one lead.
    const burst = await Promise.all([1, 2, 3, 4].map(() => send({ customer: 'Burst Bob' }, { 'idempotency-key': 'req-2' })));
    expect(burst.filter((r) => r.statusCode === 201).length).toBeGreaterThanOrEqual(1);
    for (const r of burst) expect([201, 409]).toContain(r.statusCode);
    expect((await leads()).map((l) => l.customer)).toEqual(['Retry Rita', 'Burst Bob']);
    expect((await send({ customer: 'x' }, { 'idempotency-key': 'bad key with spaces' })).statusCode).toBe(400);

    // The same ADF prospect again from the same key, without an Idempotency-Key: one lead.
    const adf1 = await send(sample('full-name.xml'));
    const adf2 = await send(sample('full-name.xml'));
    expect(adf1.json().leads[0]).toMatchObject({ status: 'assigned' });
    expect(adf2.statusCode).toBe(200);
    expect(adf2.json().leads[0]).toMatchObject({ id: adf1.json().leads[0].id, status: 'duplicate', assignedTo: adf1.json().leads[0].assignedTo });
    // A JSON externalId is scoped to its source the same way.
    const j1 = await send({ customer: 'Ext', externalId: 'X-1', source: 'Feed A' });
    const j2 = await send({ customer: 'Ext', externalId: 'X-1', source: 'Feed A' });
    const j3 = await send({ customer: 'Ext', externalId: 'X-1', source: 'Feed B' });
    expect([j1.statusCode, j2.statusCode, j3.statusCode]).toEqual([201, 200, 201]);
    expect(await leads()).toHaveLength(5);
  });

  it('matches a prospect id per API key: another integration never gets back a lead, customer or salesman it did not send', async () => {
    const mine = await send(sample('full-name.xml'));
    expect(mine.statusCode).toBe(201);
    const other = await newKey('Second feed');
    const theirs = await send(sample('full-name.xml').toString().replace('Maria Gonzalez', 'Someone Else'), {}, other);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().leads[0]).toMatchObject({ customer: 'Someone Else', status: 'assigned' });
    expect(theirs.json().leads[0].id).not.toBe(mine.json().leads[0].id);
    expect(theirs.body).not.toContain('Maria Gonzalez');
    expect(theirs.json().leads[0].assignedTo).not.toBe(mine.json().leads[0].assignedTo);
    // The same Idempotency-Key on two keys is two requests.
    const a = await send({ customer: 'Key A' }, { 'idempotency-key': 'shared-1' });
    const b = await send({ customer: 'Key B' }, { 'idempotency-key': 'shared-1' }, other);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.body).not.toContain('Key A');
    expect((await leads()).map((l) => l.customer)).toEqual(['Maria Gonzalez', 'Someone Else', 'Key A', 'Key B']);
  });

  it('refuses the same Idempotency-Key with a different request with 422, and changes nothing', async () => {
    expect((await send({ customer: 'Original' }, { 'idempotency-key': 'req-422' })).statusCode).toBe(201);
    for (const [body, headers] of [
      [{ customer: 'Changed' }, {}],
      [{ customer: 'Original', phone: '555' }, {}],
      [sample('full-name.xml'), { 'content-type': ADF }],
    ] as const) {
      const r = await send(body, { 'idempotency-key': 'req-422', ...headers });
      expect(r.statusCode).toBe(422);
      expect(r.json().error).toBe('This Idempotency-Key was already used with a different request.');
    }
    const same = await send({ customer: 'Original' }, { 'idempotency-key': 'req-422' });
    expect(same.statusCode).toBe(201);
    expect(same.headers['idempotent-replayed']).toBe('true');
    expect((await leads()).map((l) => l.customer)).toEqual(['Original']);
  });

  it('takes over a claim left unfinished by a crash once its lease has ended, and makes the lead once', async () => {
    const keyId = Number((await t.db.selectFrom('api_keys').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id);
    const body = { customer: 'Crashed Carl' };
    const claim = async (idem: string, ageMs: number) =>
      t.db
        .insertInto('idempotency_keys')
        .values({ api_key_id: keyId, key: idem, created_at: Date.now() - ageMs, status: null, body: null, request_hash: requestHash('json', body) })
        .execute();
    // A claim taken a moment ago is still running.
    await claim('fresh-claim', 1000);
    const busy = await send(body, { 'idempotency-key': 'fresh-claim' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error).toMatch(/still being processed/);
    // A claim older than the lease (60 s) was left by a server that died before it made the lead.
    await claim('dead-claim', 61_000);
    const retry = await send(body, { 'idempotency-key': 'dead-claim' });
    expect(retry.statusCode).toBe(201);
    expect(retry.json().leads[0]).toMatchObject({ customer: 'Crashed Carl', status: 'assigned' });
    const again = await send(body, { 'idempotency-key': 'dead-claim' });
    expect(again.json()).toEqual(retry.json());
    // One that died after making the lead, before keeping the answer: the retry answers with that lead.
    await t.db
      .updateTable('idempotency_keys')
      .set({ status: null, body: null, created_at: Date.now() - 61_000 })
      .where('key', '=', 'dead-claim')
      .execute();
    const late = await send(body, { 'idempotency-key': 'dead-claim' });
    expect(late.statusCode).toBe(201);
    expect(late.json().leads[0]).toMatchObject({ id: retry.json().leads[0].id, status: 'assigned', assignedTo: retry.json().leads[0].assignedTo });
    expect((await leads()).map((l) => l.customer)).toEqual(['Crashed Carl']);
  });

  it('keeps a lead unassigned when no one is eligible and hands it out first when someone clocks in', async () => {
    await setPlaces(t.db, { on_duty: 0 }, (u) => u.where('role', '=', 'staff'));
    const r = await send({ customer: 'Night Owl', phone: '555-0001' });
    expect(r.statusCode).toBe(201);
    expect(r.json().leads[0]).toMatchObject({ status: 'unassigned', assignedTo: null });
    const waiting = await t.app.inject({ method: 'GET', url: '/api/leads?open=1&unassigned=1', headers: { cookie: boss } });
    expect(waiting.json().leads.map((l: any) => [l.customer, l.assignedTo, l.status, l.overdue])).toEqual([['Night Owl', null, 'new', false]]);
    // A manager's Assign still refuses with no one eligible, and nothing is lost.
    expect((await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer: 'Walk-in' } })).statusCode).toBe(
      409,
    );

    // The salesman puts themselves on the floor: the waiting lead is theirs, with mail.
    const me = await t.app.inject({ method: 'POST', url: '/api/rotation/duty', headers: { cookie: floor }, payload: { onDuty: true } });
    expect(me.statusCode).toBe(200);
    const [lead] = await leads();
    const floorUser = await t.db.selectFrom('users').selectAll().where('email', '=', 'floor@dealer.test').executeTakeFirstOrThrow();
    expect(lead).toMatchObject({ customer: 'Night Owl', assigned_to: floorUser.id, status: 'handed', assigned_by_name: 'Website' });
    expect(lead.follow_up_due - lead.assigned_at).toBe(24 * 3_600_000);
    expect((await mailWith('floor@dealer.test', 'Night Owl')).text).toContain('555-0001');
    const log = await t.db.selectFrom('rotation_log').selectAll().executeTakeFirstOrThrow();
    expect(log).toMatchObject({ type: 'assign', customer: 'Night Owl', target_id: floorUser.id, manager_name: 'Website' });
    expect((await t.app.inject({ method: 'GET', url: '/api/leads?unassigned=1', headers: { cookie: boss } })).json().leads).toEqual([]);
  });

  it('a manager putting someone on duty, or the next Assign, hands waiting leads out first', async () => {
    await setPlaces(t.db, { on_duty: 0 }, (u) => u.where('role', '=', 'staff'));
    await send(sample('two-prospects.xml'));
    expect((await leads()).map((l) => l.assigned_to)).toEqual(['', '', '']);
    await t.app.inject({ method: 'POST', url: '/api/rotation/status', headers: { cookie: boss }, payload: { uid: reps[1].id, onDuty: true } });
    expect((await leads()).map((l) => l.assigned_to_name)).toEqual(['Ben', 'Ben', 'Ben']);

    // Someone becomes eligible without a duty change (here: straight in the database, like a snooze ending).
    await send({ customer: 'Late Lead' }, {}, key);
    await setPlaces(t.db, { on_duty: 0 }, (u) => u.where('role', '=', 'staff'));
    await send({ customer: 'Waiting Wendy' });
    await setPlaces(t.db, { on_duty: 1 }, (u) => u.where('id', 'in', [reps[0].id, reps[2].id]));
    const r = await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer: 'Walk-in Walt' } });
    expect(r.statusCode).toBe(200);
    const all = await leads();
    const wendy = all.find((l) => l.customer === 'Waiting Wendy')!;
    const walt = all.find((l) => l.customer === 'Walk-in Walt')!;
    expect(wendy.assigned_to).not.toBe('');
    expect(wendy.assigned_at).toBeLessThanOrEqual(walt.assigned_at);
    expect(new Set([wendy.assigned_to_name, walt.assigned_to_name])).toEqual(new Set(['Ann', 'Cat']));
  });

  it('refuses bad and hostile XML with a 4xx and a clear message, and stores nothing', async () => {
    const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<adf><prospect><customer><contact><name part="full">&lol3;</name></contact></customer></prospect></adf>`;
    const xxe = `<?xml version="1.0"?><!DOCTYPE adf [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<adf><prospect><customer><contact><name part="full">&xxe;</name></contact></customer></prospect></adf>`;
    const big = `<adf><prospect><customer><contact><name part="full">Big</name></contact><comments>${'x'.repeat(10 * 1024 * 1024)}</comments></customer></prospect></adf>`;
    const overOneMb = `<adf><prospect><customer><contact><name part="full">Big</name></contact><comments>${'x'.repeat(1024 * 1024)}</comments></customer></prospect></adf>`;
    const cases: [string, string | object, number, RegExp, Record<string, string>?][] = [
      ['not well-formed', '<adf><prospect><customer></prospect></adf>', 400, /not well-formed/],
      ['not XML at all', 'hello there', 400, /not well-formed/],
      ['empty', '', 400, /empty/],
      ['not ADF', '<lead><name>x</name></lead>', 400, /root element must be <adf>/],
      ['no prospect', '<adf></adf>', 400, /no <prospect>/],
      ['no customer', '<adf><prospect><vehicle><make>Kia</make></vehicle></prospect></adf>', 400, /customer name, phone or e-mail is required/],
      [
        'every prospect without a customer',
        '<adf><prospect><customer/></prospect><prospect><customer><contact><name part="full"> </name></contact></customer></prospect></adf>',
        400,
        /^Prospect 1: A customer name, phone or e-mail is required.*Prospect 2: A customer name/,
      ],
      [
        'a declared encoding we do not read',
        '<?xml version="1.0" encoding="EBCDIC-US"?><adf/>',
        415,
        /"EBCDIC-US" is not supported: send UTF-8, UTF-16, ISO-8859-1 or Windows-1252/,
      ],
      ['plain text that is not XML', 'Name: Jane Doe', 415, /application\/xml, text\/xml or application\/x-adf\+xml/, { 'content-type': 'text/plain' }],
      ['entity expansion', billionLaughs, 400, /DOCTYPE and ENTITY declarations are not allowed/],
      ['external entity', xxe, 400, /DOCTYPE and ENTITY declarations are not allowed/],
      ['a 10 MB body', big, 413, /too large/],
      ['just over 1 MB', overOneMb, 413, /too large/],
      [
        'a field too long',
        `<adf><prospect><customer><contact><name part="full">${'n'.repeat(201)}</name></contact></customer></prospect></adf>`,
        400,
        /Too long/,
      ],
      ['JSON without a customer', { phone: '1' }, 400, /Customer name is required/],
      ['JSON with an unknown field', { customer: 'x', salary: 1 }, 400, /Unknown field: salary/],
      ['broken JSON', '{"customer": ', 400, /not valid JSON/, { 'content-type': 'application/json' }],
      ['another content type', 'customer=x', 415, /JSON .* or ADF\/XML/, { 'content-type': 'application/x-www-form-urlencoded' }],
    ];
    for (const [label, body, status, msg, headers] of cases) {
      const r = await send(body, headers);
      expect(r.statusCode, `${label}: ${r.body.slice(0, 200)}`).toBe(status);
      expect(r.json().error, label).toMatch(msg);
    }
    expect(await leads()).toHaveLength(0);
    expect(await t.db.selectFrom('rotation_log').selectAll().execute()).toHaveLength(0);
    // Just under 1 MB is fine.
    const underOneMb = `<adf><prospect><customer><contact><name part="full">Long Story</name></contact><comments>${'x'.repeat(5000 - 10)}</comments></customer></prospect></adf>`;
    expect((await send(underOneMb.padEnd(1000 * 1000, ' '))).statusCode).toBe(201);
  });

  it('answers 401 for a missing, wrong or revoked key, even with a signed-in cookie', async () => {
    const body = { customer: 'Nobody' };
    const missing = await send(body, { cookie: boss }, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toMatch(/API key required/);
    const wrong = await send(body, {}, 'bdc_not-a-real-key');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('The API key is not valid.');

    const revoked = await newKey('Old vendor');
    expect((await send(body, { authorization: `Bearer ${revoked}` }, null)).statusCode).toBe(201);
    const id = (await t.db.selectFrom('api_keys').select('id').where('name', '=', 'Old vendor').executeTakeFirstOrThrow()).id;
    const r = await t.app.inject({ method: 'POST', url: `/api/integrations/keys/${id}/revoke`, headers: { cookie: boss } });
    expect(r.json().apiKey.revokedAt).not.toBeNull();
    const after = await send(body, {}, revoked);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('This API key was revoked.');
    expect(await leads()).toHaveLength(1);
    expect((await t.app.inject({ method: 'POST', url: '/api/integrations/keys/999999/revoke', headers: { cookie: boss } })).statusCode).toBe(404);
  });

  it('lets a salesman clock in and out only themselves, audited like a manager change', async () => {
    const floorId = (await t.db.selectFrom('users').select('id').where('email', '=', 'floor@dealer.test').executeTakeFirstOrThrow()).id;
    const duty = (payload: object, cookie = floor) => t.app.inject({ method: 'POST', url: '/api/rotation/duty', headers: { cookie }, payload });
    expect((await duty({ onDuty: true })).statusCode).toBe(200);
    let view = (await t.app.inject({ method: 'GET', url: '/api/rotation', headers: { cookie: floor } })).json();
    expect(view.team.find((m: any) => m.id === floorId)).toMatchObject({ onDuty: true, eligible: true });
    expect((await duty({ onDuty: false })).statusCode).toBe(200);
    view = (await t.app.inject({ method: 'GET', url: '/api/rotation', headers: { cookie: floor } })).json();
    expect(view.team.find((m: any) => m.id === floorId)).toMatchObject({ onDuty: false, eligible: false });

    expect((await duty({ onDuty: true, uid: reps[0].id })).json().error).toBe('Unknown field: uid');
    expect((await duty({ onDuty: 'yes' })).json().error).toBe('onDuty must be true or false');
    const mgr = await duty({ onDuty: true }, boss);
    expect(mgr.statusCode).toBe(409);
    expect(mgr.json().error).toBe('Only salesmen are in the rotation.');
    expect((await t.app.inject({ method: 'POST', url: '/api/rotation/duty', payload: { onDuty: true } })).statusCode).toBe(401);

    await t.app.inject({ method: 'POST', url: '/api/rotation/status', headers: { cookie: boss }, payload: { uid: floorId, onDuty: true } });
    const audit = await t.db.selectFrom('audit_log').selectAll().where('user_id', '=', floorId).orderBy('id').execute();
    expect(audit.slice(-3).map((a) => [a.action, a.actor_name])).toEqual([
      ['on duty', 'User'],
      ['off duty', 'User'],
      ['on duty', 'User'],
    ]);
    expect(audit.at(-1)!.actor_id).not.toBe(floorId);
    expect(audit.at(-2)!.actor_id).toBe(floorId);
  });

  it('describes the intake API in an OpenAPI document at /api/docs', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(r.statusCode).toBe(200);
    const doc = r.json();
    expect(doc.openapi).toMatch(/^3\./);
    const op = doc.paths['/v1/leads'].post;
    expect(Object.keys(op.requestBody.content)).toEqual(expect.arrayContaining(['application/json', 'application/x-adf+xml', 'text/xml']));
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '413', '429']));
    expect(op.parameters[0].name).toBe('Idempotency-Key');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.schemas.Lead.required).toEqual(['customer']);
  });
});
