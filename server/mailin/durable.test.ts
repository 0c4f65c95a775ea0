import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import nodemailer from 'nodemailer';
import { openDb } from '../db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, testApp, type TestApp } from '../test/harness';
import { startDovecot, type Dovecot } from '../test/dovecot';
import { freePort, startServerProcess } from '../test/process';
import { insertUser } from '../users/repo';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
/** A lead mail whose ADF names this customer, with its own Message-ID. */
const leadMail = (customer: string, id: string) =>
  new MailComposer({
    from: 'Cars.com <leads@cars.example>',
    to: 'leads@dealer.test',
    subject: `Lead: ${customer}`,
    messageId: `<${id}@cars.example>`,
    text: fixture('lead.xml')
      .replace('<name part="first">Dana</name>', `<name part="first">${customer.split(' ')[0]}</name>`)
      .replace('<name part="last">Whitfield</name>', `<name part="last">${customer.split(' ')[1]}</name>`)
      .replace('CC-48213', id),
  })
    .compile()
    .build();

describe.each(DIALECTS)('lead mail from an IMAP mailbox on %s', (dialect) => {
  let dove: Dovecot;
  let t: TestApp;

  beforeAll(async () => {
    dove = await startDovecot();
    t = await testApp(dialect, { IMAP_URL: dove.url, IMAP_POLL_SECONDS: '5' }, { mailTiming: { pollMs: 50 } });
    await insertUser(t.db, { email: 'rep.ann@dealer.test', name: 'Ann', onDuty: true });
  });
  afterAll(async () => {
    await t.close();
    await dove.stop();
  });

  const customers = () => t.db.selectFrom('leads').select('customer').orderBy('id').execute();
  async function leadsAre(n: number) {
    const deadline = Date.now() + 20_000;
    while ((await customers()).length < n) {
      if (Date.now() > deadline) throw new Error(`expected ${n} leads, have ${(await customers()).length}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return customers();
  }

  it('takes each message once, moves it to Processed, and a message delivered again (same Message-ID) makes no second lead', async () => {
    await dove.append(await leadMail('Imogen Park', 'imap-1'));
    await dove.append(await leadMail('Ivan Petrov', 'imap-2'));
    expect((await leadsAre(2)).map((l) => l.customer)).toEqual(['Imogen Park', 'Ivan Petrov']);
    // The mailbox hands the first mail again (a provider's resend): stored once, so no lead; the next mail proves the reader went past it.
    await dove.append(await leadMail('Imogen Park', 'imap-1'));
    await dove.append(await leadMail('Isla Quinn', 'imap-3'));
    expect((await leadsAre(3)).map((l) => l.customer)).toEqual(['Imogen Park', 'Ivan Petrov', 'Isla Quinn']);
    expect(await dove.list('INBOX')).toHaveLength(0);
    expect(await dove.list('Processed')).toHaveLength(4);
    const rows = await t.db.selectFrom('mail_messages').select(['via', 'state']).execute();
    expect(rows).toEqual(Array(3).fill({ via: 'imap', state: 'taken' }));
  });
});

/**
 * The receiver answers 250 only once the message is stored: a server killed (SIGKILL) right after
 * the last 250 of a burst finds every message on restart and makes each lead once.
 */
describe('lead mail survives kill -9 after 250', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-mail-kill-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('every message answered 250 becomes exactly one lead after a restart', { timeout: 120_000 }, async () => {
    const inbound = await freePort();
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: '',
      INBOUND_SMTP_PORT: String(inbound),
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_ADDRESSES: 'leads@dealer.test',
      MANAGER_EMAILS: 'boss@dealer.test',
    };
    let server = await startServerProcess(env);
    const dbh = await openDb({ dataDir: dir });
    await insertUser(dbh.db, { email: 'ann@dealer.test', name: 'Ann', onDuty: true });
    // Five connections at once, as a relay sends (the receiver lets one client hold ten).
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: inbound, secure: false, pool: true, maxConnections: 5 });
    const sent = [];
    for (let i = 0; i < 20; i++)
      sent.push(smtp.sendMail({ envelope: { from: 'leads@cars.example', to: ['leads@dealer.test'] }, raw: await leadMail(`Kay ${i}`, `kill-${i}`) }));
    const answers = await Promise.all(sent);
    expect(answers.every((a) => a.response.startsWith('250'))).toBe(true);
    await server.stop('SIGKILL');
    smtp.close();
    server = await startServerProcess(env);
    try {
      // Mail the killed server had claimed waits for its lease (20 s) to end.
      const deadline = Date.now() + 60_000;
      const count = async () => (await dbh.db.selectFrom('mail_messages').select('id').where('state', '=', 'taken').execute()).length;
      while ((await count()) < 20) {
        if (Date.now() > deadline) throw new Error(`only ${await count()} of 20 mails were handled after the restart`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const leads = await dbh.db.selectFrom('leads').select('customer').execute();
      expect(leads.map((l) => l.customer).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `Kay ${i}`).sort());
    } finally {
      await server.stop();
      await dbh.close();
    }
  });
});

describe('the receiver with a certificate', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-mail-tls-'));
  let t: TestApp;
  beforeAll(async () => {
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], {
      stdio: 'ignore',
    });
    t = await testApp(
      'sqlite',
      { INBOUND_SMTP_PORT: '0', INBOUND_SMTP_HOST: '127.0.0.1', INBOUND_ADDRESSES: 'leads@dealer.test', INBOUND_SMTP_CERT: cert, INBOUND_SMTP_KEY: key },
      { mailTiming: { pollMs: 50 } },
    );
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('offers STARTTLS: a sender that requires TLS delivers over it', async () => {
    const smtp = nodemailer.createTransport({
      host: '127.0.0.1',
      port: t.app.mailIn.receiverPort()!,
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
    });
    const info = await smtp.sendMail({
      from: 'leads@cars.example',
      to: 'leads@dealer.test',
      subject: 'Over TLS',
      text: 'Brochure attached',
      attachments: [{ filename: 'brochure.pdf', content: Buffer.alloc(1024 * 1024, 1) }],
    });
    smtp.close();
    expect(info.accepted).toEqual(['leads@dealer.test']);
    // Stored before the 250, in sealed parts of 256 kB (no one write holds the database long): this 1 MB attachment, base64, makes six.
    const [row] = await t.db.selectFrom('mail_messages').select(['via', 'raw_key']).execute();
    expect(row.via).toBe('smtp');
    expect(await t.db.selectFrom('mail_raw').select('part').where('raw_key', '=', row.raw_key).execute()).toHaveLength(6);
  });
});
