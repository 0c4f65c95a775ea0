import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import MailComposer from 'nodemailer/lib/mail-composer';
import { MAX_MAIL } from './receiver';
import { readsByThread } from '../intake/parser';
import { createMailJob, MAIL_TIMING } from './job';
import { keepMail, leadAddress } from './service';
import type { Answer } from '../../domain/contract/routes';

const LEADS = 'leads@dealer.test';
const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name));
const DANA_XML = fixture('lead.xml').toString('utf8');

/** Real lead mail, by SMTP, to the portal's receiver: the customer each makes, as it must come out. */
describe.each(DIALECTS)('lead mail by SMTP on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let smtp: nodemailer.Transporter;
  let n = 0;

  beforeAll(async () => {
    t = await testApp(
      dialect,
      { INBOUND_SMTP_PORT: '0', INBOUND_SMTP_HOST: '127.0.0.1', INBOUND_ADDRESSES: `${LEADS},group@dealer.test=group` },
      { mailTiming: { pollMs: 50 } },
    );
    boss = await t.signIn(MANAGER);
    for (const name of ['Ann', 'Ben']) await insertUser(t.db, { email: `rep.${name.toLowerCase()}@dealer.test`, name, onDuty: true });
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: t.app.mailIn.receiverPort()!, secure: false });
  });
  afterAll(async () => {
    smtp.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.db.deleteFrom('mail_messages').execute();
    await t.db.deleteFrom('leads').execute();
  });

  /** Sends a mail; every one gets its own Message-ID unless it brings one. */
  const send = (mail: Mail.Options) =>
    smtp.sendMail({ from: 'CarGurus <leads@cargurus.example>', to: LEADS, messageId: `<t${++n}.${Date.now()}@test>`, ...mail });
  const sendRaw = (raw: Buffer) => smtp.sendMail({ envelope: { from: 'relay@provider.example', to: [LEADS] }, raw });
  /** Waits until every stored message is handled, then lists them (newest first) as a manager sees them. */
  async function handled() {
    const deadline = Date.now() + 15_000;
    while (await t.db.selectFrom('mail_messages').select('id').where('state', '=', 'received').executeTakeFirst()) {
      if (Date.now() > deadline) throw new Error('lead mail was not handled');
      await new Promise((r) => setTimeout(r, 25));
    }
    const r = await t.app.inject({ method: 'GET', url: '/api/mail?show=all', headers: { cookie: boss } });
    expect(r.statusCode).toBe(200);
    return r.json<Answer<'GET /mail'>>();
  }
  const leads = () => t.db.selectFrom('leads').select(['customer', 'source', 'assigned_to_name', 'email']).orderBy('id').execute();

  it('takes ADF in the body, as an attachment, HTML-escaped, forwarded, in UTF-16 and in Latin-1: each a lead handed out', async () => {
    await send({ subject: 'Lead in the body', text: `New lead:\n${DANA_XML}\nThanks` });
    await send({
      subject: 'Lead attached',
      text: 'See attached',
      attachments: [
        {
          filename: 'lead.adf',
          contentType: 'application/octet-stream',
          content: Buffer.concat([
            Buffer.from([0xff, 0xfe]),
            Buffer.from(fixture('second-lead.xml').toString('utf8').replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'utf16le'),
          ]),
          encoding: 'base64',
        },
      ],
    });
    await sendRaw(fixture('html-escaped.eml'));
    await sendRaw(fixture('forwarded-rfc822.eml'));
    await sendRaw(fixture('latin1-text.eml'));
    const { messages } = await handled();
    expect(messages.map((m) => m.state)).toEqual(['taken', 'taken', 'taken', 'taken', 'taken']);
    const made = await leads();
    expect(made).toHaveLength(5);
    // Each went out by the rotation, to a salesman, and its source is the ADF provider's name.
    expect(made.every((l) => l.assigned_to_name === 'Ann' || l.assigned_to_name === 'Ben')).toBe(true);
    expect(made[0]).toMatchObject({ customer: 'Dana Whitfield', source: 'Cars.com' });
    expect(made.map((l) => l.customer)).toContain('Renée O’Brien');
    expect(made.some((l) => /Müller|José/.test(l.customer))).toBe(true);
    // Read into leads, a message is not kept as it came (its row lists what became of it).
    expect(await t.db.selectFrom('mail_raw').select('part').execute()).toEqual([]);
  });

  it('makes two leads of a document with two prospects', async () => {
    await send({ subject: 'Two', attachments: [{ filename: 'two.xml', content: fixture('two-prospects.xml'), contentType: 'text/xml' }] });
    const { messages } = await handled();
    expect(messages[0].leads.map((l) => l.customer).sort()).toEqual(['Omar Haddad', 'Priya Natarajan']);
    expect((await leads()).map((l) => l.customer).sort()).toEqual(['Omar Haddad', 'Priya Natarajan']);
  });

  it('the same mail delivered twice makes one lead and is listed once', async () => {
    const mail = { subject: 'Once', text: DANA_XML, messageId: '<same-mail@cars.example>' };
    await send(mail);
    await send(mail);
    const { messages } = await handled();
    expect(messages).toHaveLength(1);
    expect(await leads()).toHaveLength(1);
  });

  it('a mail with no ADF waits in Mail to review, prefilled; "Make a lead" makes one lead even when clicked twice', async () => {
    await send({
      subject: 'Website inquiry',
      from: 'Forms <forms@webvendor.example>',
      text: 'Name: Dana Pike\nPhone: 843-555-0150\nEmail: dana.pike@example.com\nVehicle: 2024 Kia Soul\nComments: Call after 5',
    });
    const { messages, toReview } = await handled();
    expect(toReview).toBe(1);
    expect(messages[0]).toMatchObject({ state: 'review', from: 'forms@webvendor.example', subject: 'Website inquiry', leads: [] });
    const open = (await t.app.inject({ method: 'GET', url: `/api/mail/${messages[0].id}`, headers: { cookie: boss } })).json().message;
    expect(open.prefill).toEqual({
      customer: 'Dana Pike',
      phone: '843-555-0150',
      email: 'dana.pike@example.com',
      vehicle: '2024 Kia Soul',
      comments: 'Call after 5',
    });
    expect(open.text).toContain('Name: Dana Pike');
    const make = () => t.app.inject({ method: 'POST', url: `/api/mail/${messages[0].id}/lead`, headers: { cookie: boss }, payload: open.prefill });
    const [a, b] = await Promise.all([make(), make()]);
    // The second click finds the mail handled (409) or, racing the first, the lead it made (200): one lead either way.
    expect([a.statusCode, b.statusCode]).toContain(200);
    expect([200, 409]).toEqual(expect.arrayContaining([a.statusCode, b.statusCode]));
    const made = await leads();
    expect(made).toEqual([expect.objectContaining({ customer: 'Dana Pike', email: 'dana.pike@example.com', source: 'webvendor.example' })]);
    const after = await handled();
    expect(after.toReview).toBe(0);
    expect(after.messages[0]).toMatchObject({ state: 'taken', leads: [expect.objectContaining({ customer: 'Dana Pike' })] });
  });

  it('dismiss takes a reason; a mail handled cannot be handled again', async () => {
    await send({ subject: 'Newsletter', text: 'Our spring deals!' });
    const { messages } = await handled();
    const id = messages[0].id;
    const empty = await t.app.inject({ method: 'POST', url: `/api/mail/${id}/dismiss`, headers: { cookie: boss }, payload: { reason: ' ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Say why this mail is dismissed');
    // Waiting for a person, the message is kept as it came; once dismissed, it is not.
    expect(await t.db.selectFrom('mail_raw').select('part').execute()).toEqual([{ part: 0 }]);
    const ok = await t.app.inject({ method: 'POST', url: `/api/mail/${id}/dismiss`, headers: { cookie: boss }, payload: { reason: 'Not a lead' } });
    expect(ok.json().message).toMatchObject({ state: 'dismissed', reason: 'Not a lead', handledBy: expect.any(String) });
    const again = await t.app.inject({ method: 'POST', url: `/api/mail/${id}/lead`, headers: { cookie: boss }, payload: { customer: 'X' } });
    expect(again.statusCode).toBe(409);
    expect(await leads()).toEqual([]);
    expect(await t.db.selectFrom('mail_raw').select('part').execute()).toEqual([]);
  });

  it('refuses hostile ADF and archives with the reason, and makes no lead', async () => {
    await sendRaw(fixture('billion-laughs.eml'));
    await send({ subject: 'Zip', text: 'attached', attachments: [{ filename: 'leads.zip', contentType: 'application/zip', content: Buffer.alloc(4096, 1) }] });
    const { messages } = await handled();
    expect(messages.map((m) => m.state)).toEqual(['review', 'review']);
    const problems = await Promise.all(
      messages.map(async (m) => (await t.app.inject({ method: 'GET', url: `/api/mail/${m.id}`, headers: { cookie: boss } })).json().message.problems),
    );
    expect(problems[0].join(' ')).toMatch(/archive/);
    expect(problems[1].join(' ')).toMatch(/DOCTYPE and ENTITY declarations are not allowed/);
    expect(await leads()).toEqual([]);
  });

  it('refuses unknown recipients (it relays nothing) and a message over 10 MB; nothing is stored', async () => {
    await expect(send({ to: 'someone@elsewhere.example', text: DANA_XML })).rejects.toMatchObject({ responseCode: 550 });
    await expect(send({ to: 'nobody@dealer.test', text: DANA_XML })).rejects.toMatchObject({ responseCode: 550 });
    const big = Buffer.concat([Buffer.from(`From: a@b.example\r\nTo: ${LEADS}\r\nSubject: big\r\n\r\n`), Buffer.alloc(MAX_MAIL, 'a')]);
    await expect(sendRaw(big.subarray(0, MAX_MAIL + 1))).rejects.toMatchObject({ responseCode: 552 });
    // A later mail is stored and read: the refused ones never were.
    await send({ subject: 'After', text: DANA_XML });
    const { messages } = await handled();
    expect(messages.map((m) => m.subject)).toEqual(['After']);
  });

  it('"Send a test lead" mails a sample ADF that is read and listed as a test, never handed out', async () => {
    const list = (await t.app.inject({ method: 'GET', url: '/api/mail/addresses', headers: { cookie: boss } })).json();
    expect(list.receiver.port).toBe(t.app.mailIn.receiverPort());
    const address = list.addresses.find((a: { address: string }) => a.address === LEADS);
    expect(address).toMatchObject({ configured: true, group: false });
    const r = await t.app.inject({ method: 'POST', url: `/api/mail/addresses/${address.id}/test`, headers: { cookie: boss } });
    expect(r.statusCode).toBe(200);
    const { messages } = await handled();
    expect(messages[0]).toMatchObject({ state: 'test', reason: 'A test: 1 prospect read (Terry Test); nothing handed out.' });
    expect(await leads()).toEqual([]);
    // The same header written by anyone else is not a test: the mail is read as the lead it is.
    await send({ subject: 'Fake test', text: DANA_XML, headers: { 'X-Lead-Test': 'deadbeef' } });
    expect((await handled()).messages[0].state).toBe('taken');
    const after = (await t.app.inject({ method: 'GET', url: '/api/mail/addresses', headers: { cookie: boss } })).json();
    expect(after.addresses.find((a: { address: string }) => a.address === LEADS)).toMatchObject({ today: 2, errors: 0 });
  });

  it('a manager adds and removes a lead address; a configured one stays; staff may not', async () => {
    const add = await t.app.inject({ method: 'POST', url: '/api/mail/addresses', headers: { cookie: boss }, payload: { address: 'Internet@Dealer.test' } });
    expect(add.statusCode).toBe(201);
    expect(add.json().address).toMatchObject({ address: 'internet@dealer.test' });
    const twice = await t.app.inject({ method: 'POST', url: '/api/mail/addresses', headers: { cookie: boss }, payload: { address: 'internet@dealer.test' } });
    expect(twice.statusCode).toBe(409);
    await send({ to: 'internet@dealer.test', subject: 'To the new address', text: DANA_XML });
    expect((await handled()).messages[0]).toMatchObject({ state: 'taken' });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/mail/addresses/${add.json().address.id}`, headers: { cookie: boss } });
    expect(del.statusCode).toBe(200);
    await expect(send({ to: 'internet@dealer.test', text: DANA_XML })).rejects.toMatchObject({ responseCode: 550 });
    const configured = (await t.app.inject({ method: 'GET', url: '/api/mail/addresses', headers: { cookie: boss } }))
      .json()
      .addresses.find((a: { address: string }) => a.address === LEADS);
    const keep = await t.app.inject({ method: 'DELETE', url: `/api/mail/addresses/${configured.id}`, headers: { cookie: boss } });
    expect(keep.statusCode).toBe(409);
    const staff = await t.signIn('walker@dealer.test');
    expect((await t.app.inject({ method: 'GET', url: '/api/mail', headers: { cookie: staff } })).statusCode).toBe(403);
  });

  it('two app servers reading the same stored mail at once make each lead once', async () => {
    const second = createMailJob(t.app.ctx, { ...MAIL_TIMING, pollMs: 50 });
    second.start();
    try {
      const address = (await leadAddress(t.db, LEADS))!;
      const mails = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          new MailComposer({
            from: 'leads@cars.example',
            to: LEADS,
            messageId: `<race-${i}@cars.example>`,
            text: DANA_XML.replace('Dana', `Rae${i}`).replace('CC-48213', `R-${i}`),
          })
            .compile()
            .build(),
        ),
      );
      await Promise.all(mails.map((raw) => keepMail(t.app.ctx, { raw, address, via: 'smtp', sender: 'leads@cars.example' })));
      second.wake();
      t.app.mailIn.job.wake();
      const { messages } = await handled();
      expect(messages.filter((m) => m.state !== 'taken')).toEqual([]);
      const made = await leads();
      expect(made).toHaveLength(24);
      expect(new Set(made.map((l) => l.customer)).size).toBe(24);
    } finally {
      await second.stop();
    }
  });

  it("a group address's lead goes by its dealer: unmapped, it waits for a group manager to choose the store", async () => {
    await send({ to: 'group@dealer.test', subject: 'Group lead', text: DANA_XML });
    const { messages } = await handled();
    expect(messages[0]).toMatchObject({
      address: 'group@dealer.test',
      state: 'taken',
      leads: [expect.objectContaining({ customer: 'Dana Whitfield', status: 'unassigned' })],
    });
    const lead = await t.db.selectFrom('leads').select(['store_id', 'dealer']).executeTakeFirstOrThrow();
    expect(lead).toEqual({ store_id: null, dealer: 'Coastal Honda' });
  });

  it('a subject with NUL and control characters is stored as one line of text', async () => {
    const subject = `=?UTF-8?B?${Buffer.from('Lead\u0000 for\r\nyou').toString('base64')}?=`;
    await sendRaw(
      Buffer.from(`From: a@cars.example\r\nTo: ${LEADS}\r\nSubject: ${subject}\r\nMessage-ID: <nul-1@cars.example>\r\n\r\n${DANA_XML.replace(/\n/g, '\r\n')}`),
    );
    const { messages } = await handled();
    expect(messages[0]).toMatchObject({ state: 'taken', subject: 'Lead for you' });
  });

  it('reads every mail on a worker thread, never on the event loop that answers everyone else', async () => {
    const before = [...readsByThread.values()].reduce((a, b) => a + b, 0);
    await send({ subject: 'On a worker', text: DANA_XML });
    await send({ subject: 'No ADF', text: 'Name: Bo' });
    await handled();
    expect(readsByThread.get(0)).toBeUndefined();
    expect([...readsByThread.values()].reduce((a, b) => a + b, 0) - before).toBe(2);
  });

  it('one client sending big mail is cut off (421) once it has sent its 12 MB, and what it overdrew with is not stored', async () => {
    const big = (i: number) =>
      Buffer.concat([
        Buffer.from(`From: a@b.example\r\nTo: ${LEADS}\r\nSubject: big ${i}\r\nMessage-ID: <big-${i}@b.example>\r\n\r\n`),
        Buffer.alloc(9 * 1024 * 1024, 'a'),
      ]);
    // Earlier tests spent some of this client's allowance: it is refused by the second 9 MB mail at the latest.
    let refusal: unknown;
    let taken = 0;
    for (let i = 0; i < 2 && !refusal; i++)
      await sendRaw(big(i)).then(
        () => taken++,
        (err: unknown) => (refusal = err),
      );
    expect(refusal).toMatchObject({
      responseCode: 421,
      response: expect.stringMatching(/Too much mail from 127\.0\.0\.1; try this message again in \d+ s\./),
    });
    expect(
      await t.db
        .selectFrom('mail_messages')
        .select('id')
        .where('size', '>', 9 * 1024 * 1024)
        .execute(),
    ).toHaveLength(taken);
  });
});
