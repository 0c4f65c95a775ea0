import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { FIXTURES } from './fixtures/expected';
import { setPlaces } from '../test/places';

const dir = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(dir, name));

/** ADF as the marketplaces really send it: every fixture, the repeat rule, names filled in later, the document for managers. */
describe.each(DIALECTS)('ADF as senders send it, on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let rep: string;
  let repId: string;
  let key: string;

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    rep = await t.signIn('fixture.rep@dealer.test');
    repId = (await t.db.selectFrom('users').select('id').where('email', '=', 'fixture.rep@dealer.test').executeTakeFirstOrThrow()).id;
    await setPlaces(t.db, { on_duty: 1 }, (u) => u.where('id', '=', repId));
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    key = (await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers: { cookie: boss }, payload: { name: 'Fixtures' } })).json().key;
    await t.db.deleteFrom('leads').execute();
    await t.db.deleteFrom('intake_documents').execute();
  });

  const send = (body: string | Buffer, contentType = 'application/x-adf+xml', apiKey = key) =>
    t.app.inject({ method: 'POST', url: '/api/v1/leads', headers: { 'x-api-key': apiKey, 'content-type': contentType }, payload: body });
  const leadById = async (id: number) => {
    const page = await t.app.inject({ method: 'GET', url: '/api/leads?open=0', headers: { cookie: boss } });
    return page.json().leads.find((l: { id: number }) => l.id === id);
  };
  const count = async () => (await t.db.selectFrom('leads').select('id').execute()).length;

  it('has a fixture for every habit, each saying which one in a comment line', () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.xml'));
    expect(files.sort()).toEqual(Object.keys(FIXTURES).sort());
    for (const f of files) {
      const bytes = fixture(f);
      const text =
        bytes[0] === 0xff
          ? bytes.subarray(2).toString('utf16le')
          : bytes[0] === 0xfe
            ? Buffer.from(bytes.subarray(2)).swap16().toString('utf16le')
            : bytes.toString('latin1');
      expect(text, f).toMatch(/<!-- habit: .+ -->/);
    }
  });

  it.each(Object.entries(FIXTURES))('%s gives its expected leads', async (file, want) => {
    const r = await send(fixture(file), want.contentType);
    expect(r.statusCode, r.body).toBe(want.status);
    const answers = r.json().leads;
    expect(answers).toHaveLength(want.leads.length);
    for (const [i, w] of want.leads.entries()) {
      if (w.status === 'refused') {
        expect(answers[i]).toEqual({ id: null, customer: '', status: 'refused', assignedTo: null, error: w.error });
        continue;
      }
      expect(answers[i]).toMatchObject({ status: 'assigned', customer: w.lead.customer, assignedTo: expect.any(String) });
      const lead = await leadById(answers[i].id);
      expect(lead).toMatchObject(w.lead);
      // The manager reads the document as it came in, decoded from the encoding it was sent in.
      const doc = await t.app.inject({ method: 'GET', url: `/api/leads/${lead.id}/document`, headers: { cookie: boss } });
      expect(doc.statusCode).toBe(200);
      expect(doc.json().document).toContain('<!-- habit:');
      if (!w.lead.nameMissing) expect(doc.json().document).toContain(String(w.lead.customer).split(' ')[0].replace('&', ''));
    }
    expect(await count()).toBe(want.leads.filter((l) => l.status === 'assigned').length);
  });

  it('two customers under one reused <id> make two leads; the same customer again, or a resend, makes none', async () => {
    const doc = (name: string, phone: string, email: string, status = 'new') =>
      `<adf><prospect status="${status}"><id source="leadtype">Email</id><customer><contact><name part="full">${name}</name>` +
      `<phone>${phone}</phone><email>${email}</email></contact></customer></prospect></adf>`;
    const first = await send(doc('Alice Archer', '843-555-0001', 'alice@example.com'));
    expect(first.statusCode).toBe(201);
    const second = await send(doc('Bruno Baker', '843-555-0002', 'bruno@example.com'));
    expect(second.statusCode).toBe(201);
    expect(second.json().leads[0]).toMatchObject({ customer: 'Bruno Baker', status: 'assigned' });
    expect(second.body).not.toContain('Alice');
    expect(second.json().leads[0].id).not.toBe(first.json().leads[0].id);

    // The same customer (same name, one contact in common, written differently) is a repeat: one lead.
    const again = await send(doc('  alice   ARCHER ', '(843) 555-0001', 'new.address@example.com'));
    expect(again.statusCode).toBe(200);
    expect(again.json().leads[0]).toMatchObject({ id: first.json().leads[0].id, status: 'duplicate', customer: 'alice ARCHER' });
    // The same name but no way of reaching in common: another person of that name.
    expect((await send(doc('Alice Archer', '843-555-0099', 'other.alice@example.com'))).statusCode).toBe(201);

    // A true resend of Bruno's lead is one lead, and its answer names no one else.
    const resend = await send(doc('Bruno Baker', '843-555-0002', 'bruno@example.com', 'resend'));
    expect(resend.statusCode).toBe(200);
    expect(resend.json().leads[0]).toMatchObject({ id: second.json().leads[0].id, status: 'duplicate', customer: 'Bruno Baker' });
    const renamed = await send(doc('B. Baker', '843-555-0002', 'bruno@example.com', 'resend'));
    expect(renamed.json().leads[0]).toMatchObject({ status: 'duplicate', customer: 'B. Baker' });
    expect(renamed.body).not.toContain('Bruno');
    expect((await t.db.selectFrom('leads').select('customer').orderBy('id').execute()).map((l) => l.customer)).toEqual([
      'Alice Archer',
      'Bruno Baker',
      'Alice Archer',
    ]);

    // Another key sending the same prospect is never a repeat of this key's lead.
    const other = (await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers: { cookie: boss }, payload: { name: 'Other' } })).json().key;
    expect((await send(doc('Alice Archer', '843-555-0001', 'alice@example.com'), 'text/xml', other)).statusCode).toBe(201);
  });

  it('answers per prospect: a document of repeats and a refusal is 200 and stores nothing new', async () => {
    expect((await send(fixture('one-bad-prospect.xml'))).statusCode).toBe(201);
    const again = await send(fixture('one-bad-prospect.xml'));
    expect(again.statusCode).toBe(200);
    expect(again.json().leads.map((l: { status: string }) => l.status)).toEqual(['duplicate', 'refused', 'duplicate']);
    expect(await count()).toBe(2);
    expect(await t.db.selectFrom('intake_documents').select('id').execute()).toHaveLength(1);
  });

  it('refuses what cannot be decoded, saying which encoding and where it came from, and stores nothing', async () => {
    const latin1 = Buffer.from('<adf><prospect><customer><contact><name part="full">Jos\u00e9</name></contact></customer></prospect></adf>', 'latin1');
    const cases: [string, Buffer, string, number, RegExp][] = [
      ['Latin-1 bytes sent as charset=utf-8', latin1, 'text/xml; charset=utf-8', 400, /not valid UTF-8 text \(the encoding was taken from charset=utf-8\)/],
      ['Latin-1 bytes with no declaration', latin1, 'application/xml', 400, /not valid UTF-8 text \(the encoding was taken from default/],
      [
        'UTF-16 cut in the middle of a character',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<adf/>', 'utf16le'), Buffer.from([0x3c])]),
        'text/xml',
        400,
        /not valid UTF-16LE text/,
      ],
      [
        'an encoding we do not read',
        Buffer.from('<adf/>'),
        'text/xml; charset=shift_jis',
        415,
        /charset "shift_jis" is not supported: send UTF-8, UTF-16, ISO-8859-1 or Windows-1252/,
      ],
      ['a NUL in UTF-16 text', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<adf>\u0000</adf>', 'utf16le')]), 'text/xml', 400, /without NUL/],
    ];
    for (const [label, body, type, status, msg] of cases) {
      const r = await send(body, type);
      expect(r.statusCode, label).toBe(status);
      expect(r.json().error, label).toMatch(msg);
    }
    expect(await count()).toBe(0);
    expect(await t.db.selectFrom('intake_documents').select('id').execute()).toHaveLength(0);
  });

  it('a lead without a name is flagged; its salesman or a manager fills the name in, no one else', async () => {
    const r = await send(fixture('no-name-phone.xml'));
    const id = r.json().leads[0].id;
    expect((await leadById(id)).nameMissing).toBe(true);
    const other = await t.signIn('other.rep@dealer.test');
    const name = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/leads/${id}/name`, headers: { cookie }, payload });
    expect((await name(other, { customer: 'Not Mine' })).statusCode).toBe(403);
    expect((await name(rep, { customer: '   ' })).json().error).toBe('Customer name is required');
    expect((await name(rep, { customer: 'x'.repeat(201) })).json().error).toMatch(/Too long/);
    expect((await name(rep, { customer: 'Pat', extra: 1 })).json().error).toBe('Unknown field: extra');
    expect((await leadById(id)).customer).toBe('Customer 843-555-0101');
    const named = await name(rep, { customer: '  Pat Quinn ' });
    expect(named.statusCode).toBe(200);
    expect(named.json().lead).toMatchObject({ customer: 'Pat Quinn', nameMissing: false, phone: '843-555-0101' });
    expect((await name(boss, { customer: 'Patricia Quinn' })).json().lead.customer).toBe('Patricia Quinn');
  });

  it('shows the document to managers only; a lead sent as JSON has none', async () => {
    const adf = (await send(fixture('trade-in-first.xml'))).json().leads[0].id;
    expect((await t.app.inject({ method: 'GET', url: `/api/leads/${adf}/document`, headers: { cookie: rep } })).statusCode).toBe(403);
    const mine = await t.app.inject({ method: 'GET', url: '/api/leads/mine?open=0', headers: { cookie: rep } });
    expect(mine.body).not.toContain('<adf>');
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: { customer: 'Json Only' },
    });
    const doc = await t.app.inject({ method: 'GET', url: `/api/leads/${json.json().leads[0].id}/document`, headers: { cookie: boss } });
    expect(doc.statusCode).toBe(404);
    expect(doc.json().error).toBe('This lead did not come in as an ADF document.');
    expect((await leadById(json.json().leads[0].id)).hasDocument).toBe(false);
  });
});
