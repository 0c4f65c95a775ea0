import fs from 'node:fs';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { describe, expect, it } from 'vitest';
import { readMail } from './read';

const dir = path.join(import.meta.dirname, 'fixtures');
const eml = (name: string) => readMail(fs.readFileSync(path.join(dir, name)));
const xml = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
const compose = async (mail: Mail.Options) =>
  readMail(await new MailComposer({ from: 'leads@provider.example', to: 'bdc@dealer.example', ...mail }).compile().build());
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What the prospects in fixtures/*.xml say. */
const DANA = {
  customer: 'Dana Whitfield',
  email: 'dana.whitfield@example.com',
  phone: '843-555-0142',
  vehicle: '2025 Honda CR-V EX-L',
  provider: 'Cars.com',
  id: 'CC-48213',
  comments: 'Is the blue one still available? Tom & Ann can come Saturday.',
  dealer: { name: 'Coastal Honda', id: '' },
};
const MARCUS = {
  customer: 'Marcus Lee',
  email: 'marcus.lee@example.net',
  phone: '803-555-0199',
  vehicle: '2024 Toyota Tacoma TRD Off-Road',
  provider: 'AutoTrader',
};
const PRIYA = {
  customer: 'Priya Natarajan',
  email: 'priya.n@example.org',
  phone: '843-555-0110',
  vehicle: '2025 Kia Telluride',
  provider: 'TrueCar',
  id: 'TC-1',
};
const OMAR = { customer: 'Omar Haddad', email: 'omar.haddad@example.org', phone: '843-555-0111', vehicle: '2025 Kia EV9', provider: 'TrueCar', id: 'TC-2' };
/** The TrueCar lead quoted in quoted-forward.eml and quoted-reply.eml. */
const HANNAH = {
  customer: 'Hannah Brooks',
  email: 'hannah.brooks@example.com',
  phone: '843-555-0164',
  vehicle: '2025 Ford Bronco Badlands',
  provider: 'TrueCar',
  id: 'TC-3391',
  comments: 'Wants the\nsoft top.',
};

describe('readMail finds ADF in the body', () => {
  it('reads a document in a plain text body among other words, and keeps the text for a person', async () => {
    const lead = xml('lead.xml');
    const mail = await compose({ subject: 'New lead', text: `Please find the lead below.\n\n${lead}\nThanks,\nCars.com` });
    expect(mail.problems).toEqual([]);
    expect(mail.documents).toHaveLength(1);
    expect(mail.documents[0].prospects).toEqual([expect.objectContaining(DANA)]);
    // From the XML declaration through </adf>, nothing of the words around it.
    expect(mail.documents[0].xml).toBe(lead.trim());
    expect(mail.text).toMatch(/^Please find the lead below\.[\s\S]*Thanks,\nCars\.com$/);
  });

  it('reads a Latin-1 quoted-printable text part by its charset (José Müller comes out right)', async () => {
    const mail = await eml('latin1-text.eml');
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([
      [
        expect.objectContaining({
          customer: 'José Müller',
          email: 'jose.mueller@example.de',
          phone: '843-555-0181',
          vehicle: '2024 Citroën Berlingo',
          provider: 'Autohändler DMS',
          comments: 'Café owner; needs the van by the 15th.',
        }),
      ],
    ]);
    expect(mail.subject).toBe('Neuer Lead: José Müller');
    expect(mail.fromName).toBe('Autohändler DMS');
    expect(mail.text).toContain('Grüße');
  });

  it('reads a UTF-16 text part (base64) by its charset', async () => {
    const mail = await eml('utf16-text-part.eml');
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining({ ...HANNAH, customer: 'Zoë Ångström', id: 'TC-4400' })]]);
    expect(mail.text).toMatch(/^New lead:/);
  });

  it('reads two documents in one body as two documents, in order', async () => {
    const mail = await compose({ text: `First:\n${xml('lead.xml')}\nSecond:\n${xml('second-lead.xml')}` });
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining(DANA)], [expect.objectContaining(MARCUS)]]);
  });

  it('keeps a document with two prospects one document with two prospects', async () => {
    const mail = await compose({ text: xml('two-prospects.xml') });
    expect(mail.documents).toHaveLength(1);
    expect(mail.documents[0].prospects).toEqual([expect.objectContaining(PRIYA), expect.objectContaining(OMAR)]);
  });

  it('takes nothing from a mail without ADF, and its text is readable', async () => {
    const mail = await compose({
      subject: 'Call me',
      text: 'Can you call me back about the Tacoma? I am free after 5.\n— Marcus',
      html: '<p>Can you call me back?</p>',
    });
    expect(mail).toMatchObject({ documents: [], problems: [], subject: 'Call me' });
    expect(mail.text).toBe('Can you call me back about the Tacoma? I am free after 5.\n— Marcus');
  });
});

describe('readMail finds ADF in HTML', () => {
  it('decodes an HTML-escaped document with <br> line breaks and named and numeric references, in an HTML-only mail', async () => {
    const mail = await eml('html-escaped.eml');
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([
      [
        expect.objectContaining({
          customer: 'Renée O\u2019Brien',
          email: 'renee.obrien@example.com',
          phone: '+1 843-555-0107',
          vehicle: '2023 Subaru Outback Premium',
          provider: 'CarGurus',
          id: 'CG-6610',
          // &amp;amp; in the HTML is &amp; in the XML is & in the lead.
          comments: 'Trade & finance \u2014 call after 5',
        }),
      ],
    ]);
    expect(mail.documents[0].xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<adf>\n<prospect>\n<id source="CarGurus">/);
    // The HTML as a person reads it: no style sheet or title, paragraphs on their own lines.
    expect(mail.text).toMatch(/^New lead from CarGurus:\n/);
    expect(mail.text).toMatch(/\nReply to this e-mail to reach the customer\.$/);
    expect(mail.text).not.toContain('font-family');
  });

  it('reads raw <adf> tags in the HTML source, HTML line breaks and &nbsp; in it', async () => {
    const mail = await eml('html-raw.eml');
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([
      [
        expect.objectContaining({
          customer: 'Li Wei',
          email: 'li.wei@example.com',
          phone: '843-555-0177',
          vehicle: '2022 Jeep Wrangler Sahara',
          provider: 'Autotrader',
          comments: 'Cash\u00a0buyer',
        }),
      ],
    ]);
    expect(mail.text).toMatch(/^A lead from Autotrader:/);
  });

  it('counts the same document in the text and the HTML alternative once', async () => {
    const lead = xml('lead.xml');
    const mail = await compose({ text: `New lead:\n${lead}`, html: `<p>New lead:</p><pre>${escapeHtml(lead)}</pre>` });
    expect(mail.problems).toEqual([]);
    expect(mail.documents).toHaveLength(1);
    expect(mail.documents[0].prospects).toEqual([expect.objectContaining(DANA)]);
    expect(mail.text).toMatch(/^New lead:\n<\?xml/);
  });

  it('counts the same document once when the HTML part lays it out differently (no declaration, one line)', async () => {
    const lead = xml('lead.xml');
    const flat = lead.replace(/<\?[^>]*\?>/g, '').replace(/\n\s*/g, '');
    const mail = await compose({ text: lead, html: `<div>${escapeHtml(flat)}</div>` });
    expect(mail.documents).toHaveLength(1);
  });
});

describe('readMail finds ADF in attachments', () => {
  it('reads an .xml attachment', async () => {
    const mail = await compose({ text: 'Lead attached.', attachments: [{ filename: 'lead.xml', content: xml('lead.xml'), contentType: 'application/xml' }] });
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining(DANA)]]);
    expect(mail.text).toBe('Lead attached.');
  });

  it('reads an application/octet-stream .adf attachment, and octet-stream that starts like XML whatever its name', async () => {
    const mail = await compose({
      attachments: [
        { filename: 'lead.adf', content: Buffer.from(xml('lead.xml')), contentType: 'application/octet-stream' },
        { filename: 'export.dat', content: Buffer.from(`\uFEFF\n  ${xml('second-lead.xml')}`), contentType: 'application/octet-stream' },
        // Not XML: left alone, no problem.
        { filename: 'brochure.bin', content: Buffer.from('%PDF-1.7 <adf> binary'), contentType: 'application/octet-stream' },
      ],
    });
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining(DANA)], [expect.objectContaining(MARCUS)]]);
  });

  it('reads a base64 UTF-16 LE attachment with a byte-order mark', async () => {
    const utf16 = xml('lead.xml').replace('encoding="UTF-8"', 'encoding="UTF-16"').replace('Dana', 'Dána');
    const content = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, 'utf16le')]);
    const mail = await compose({ attachments: [{ filename: 'lead.xml', content, contentType: 'text/xml', encoding: 'base64' }] });
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining({ ...DANA, customer: 'Dána Whitfield' })]]);
  });

  it("reads a Windows-1252 attachment by its content type's charset", async () => {
    const doc = xml('second-lead.xml').replace('Marcus Lee', 'Marcus L\u00e9e \u2013 Jr.');
    const content = Buffer.from(doc.replace('\u2013', '\x96'), 'latin1');
    const mail = await compose({ attachments: [{ filename: 'lead.xml', content, contentType: 'application/x-adf+xml; charset=windows-1252' }] });
    expect(mail.problems).toEqual([]);
    expect(mail.documents[0].prospects).toEqual([expect.objectContaining({ ...MARCUS, customer: 'Marcus L\u00e9e \u2013 Jr.' })]);
  });

  it('names an attachment that is not ADF and ignores images', async () => {
    const mail = await compose({
      attachments: [
        { filename: 'invoice.xml', content: '<invoice><total>1</total></invoice>', contentType: 'application/xml' },
        { filename: 'photo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]), contentType: 'image/png' },
      ],
    });
    expect(mail.documents).toEqual([]);
    expect(mail.problems).toEqual(['The attachment invoice.xml was not read: The document is not ADF: its root element must be <adf>.']);
  });

  it('names a zip attachment and does not unpack it', async () => {
    const mail = await eml('zip-attachment.eml');
    expect(mail.documents).toEqual([]);
    expect(mail.problems).toEqual(['The attachment leads.zip is an archive; archives are not opened.']);
    expect(mail.text).toBe("Tonight's leads are attached.");
  });

  it('names every archive, by name or by type', async () => {
    const mail = await compose({
      attachments: [
        { filename: 'leads.tar.gz', content: Buffer.from([0x1f, 0x8b]), contentType: 'application/octet-stream' },
        { filename: 'leads.7z', content: Buffer.from('7z'), contentType: 'application/octet-stream' },
        { filename: 'leads.bin', content: Buffer.from('Rar!'), contentType: 'application/x-rar-compressed' },
      ],
    });
    expect(mail.problems).toEqual([
      'The attachment leads.tar.gz is an archive; archives are not opened.',
      'The attachment leads.7z is an archive; archives are not opened.',
      'The attachment leads.bin is an archive; archives are not opened.',
    ]);
    const unnamed = await readMail(
      Buffer.from('Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: application/gzip\r\n\r\n\x1f\x8b\r\n--x--\r\n'),
    );
    expect(unnamed.problems).toEqual(['An attachment of type application/gzip is an archive; archives are not opened.']);
  });
});

describe('readMail finds ADF in forwards and replies', () => {
  it('reads a forwarded message (message/rfc822) and its XML attachment', async () => {
    const mail = await eml('forwarded-rfc822.eml');
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([
      [
        expect.objectContaining({
          customer: 'Grace Okafor',
          email: 'grace.okafor@example.com',
          phone: '843-555-0123',
          vehicle: '2025 Mazda CX-50 Turbo',
          provider: 'Edmunds',
          id: 'ED-90211',
        }),
      ],
    ]);
    // The outer mail's headers, and the forwarded mail's words after the forwarder's.
    expect(mail).toMatchObject({ subject: 'Fwd: New Edmunds lead', from: 'pat@coastalhonda.example', messageId: 'fwd-1@coastalhonda.example' });
    expect(mail.text).toBe('Please work the attached lead today.\n\nA new lead for Coastal Honda is attached.');
  });

  it('reads a document quoted with "> " under a forward header', async () => {
    const mail = await eml('quoted-forward.eml');
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining(HANNAH)]]);
    expect(mail.documents[0].xml).toMatch(/^<\?xml version="1\.0"\?>\n<adf>\n {2}<prospect>/);
  });

  it('reads a document quoted two levels deep ("> > ") under -----Original Message-----', async () => {
    const mail = await eml('quoted-reply.eml');
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining(HANNAH)]]);
  });

  it('counts a document forwarded twice (quoted and attached) once', async () => {
    const lead = xml('lead.xml');
    const inner = await new MailComposer({ from: 'leads@cars.example', subject: 'Lead', text: lead }).compile().build();
    const quoted = lead
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n');
    const mail = await compose({
      text: `---------- Forwarded message ---------\n${quoted}`,
      attachments: [{ content: inner, contentType: 'message/rfc822' }],
    });
    expect(mail.problems).toEqual([]);
    expect(mail.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining(DANA)]]);
  });

  it('opens forwarded messages three levels deep, not four', async () => {
    let message = await new MailComposer({ from: 'leads@cars.example', subject: 'Lead', text: xml('lead.xml') }).compile().build();
    const nest = async (inner: Buffer) =>
      new MailComposer({ from: 'fwd@dealer.example', subject: 'Fwd', text: 'see attached', attachments: [{ content: inner, contentType: 'message/rfc822' }] })
        .compile()
        .build();
    for (let i = 0; i < 2; i++) message = await nest(message);
    const three = await compose({ attachments: [{ content: message, contentType: 'message/rfc822' }] });
    expect(three.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining(DANA)]]);
    const four = await compose({ attachments: [{ content: await nest(message), contentType: 'message/rfc822' }] });
    expect(four.documents).toEqual([]);
    expect(four.problems).toEqual([
      'In a forwarded message, an attachment of type message/rfc822 is a message forwarded more than 3 levels deep; it was not opened.',
    ]);
  });
});

describe('readMail says why something that looked like ADF was not taken', () => {
  it('refuses a billion-laughs document (DOCTYPE/ENTITY) and takes nothing', async () => {
    const mail = await eml('billion-laughs.eml');
    expect(mail.documents).toEqual([]);
    expect(mail.problems).toEqual(["An ADF document in the mail's text was not read: DOCTYPE and ENTITY declarations are not allowed in ADF/XML."]);
  });

  it('refuses billion laughs in an attachment, in a quoted forward and HTML-escaped too', async () => {
    const body = (await fs.promises.readFile(path.join(dir, 'billion-laughs.eml'), 'utf8')).split('\r\n\r\n')[1];
    const quoted = body
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n');
    const mail = await compose({
      text: `-----Original Message-----\n${quoted}`,
      html: `<pre>${escapeHtml(body.replace('&lol9;', '&lol8;'))}</pre>`,
      attachments: [{ filename: 'lol.xml', content: body.replace('&lol9;', '&lol7;'), contentType: 'text/xml' }],
    });
    expect(mail.documents).toEqual([]);
    expect(mail.problems).toHaveLength(3);
    for (const p of mail.problems) expect(p).toMatch(/DOCTYPE and ENTITY declarations are not allowed/);
  });

  it("gives the parser's reason for a broken document and an <adf> without its end", async () => {
    const mail = await compose({ text: '<adf><prospect><customer></prospect></adf>\n\nand later <adf><prospect>' });
    expect(mail.documents).toEqual([]);
    expect(mail.problems).toHaveLength(2);
    expect(mail.problems[0]).toMatch(/^An ADF document in the mail's text was not read: The XML is not well-formed: /);
    expect(mail.problems[1]).toBe("An <adf> in the mail's text has no closing </adf>; it was not read.");
  });

  it('refuses a document whose DOCTYPE is too long to see the start of', async () => {
    const entities = Array.from({ length: 400 }, (_, i) => `<!ENTITY e${i} "${'x'.repeat(50)}">`).join('\n');
    const mail = await compose({
      text: `<?xml version="1.0"?>\n<!DOCTYPE adf [\n${entities}\n]>\n${xml('second-lead.xml')
        .replace(/<\?xml[^>]*>/, '')
        .replace('Marcus Lee', '&e1;')}`,
    });
    expect(mail.documents).toEqual([]);
    expect(mail.problems).toHaveLength(1);
  });

  it('bounds the work a hostile mail asks for: many things that look like ADF, many problems', async () => {
    const started = Date.now();
    const mail = await compose({
      text: Array.from({ length: 30_000 }, (_, i) => `<?a?><!-- ${i} --><adf><bad${i}></adf>`).join('\n') + '<adf>'.repeat(30_000),
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(mail.documents).toEqual([]);
    // One sentence per broken document tried, then one that says more were not listed.
    expect(mail.problems).toHaveLength(51);
    expect(mail.problems[50]).toBe('There were more problems; they are not listed.');
  });

  it('takes at most 20 documents and says there were more', async () => {
    const lead = xml('second-lead.xml');
    const docs = Array.from({ length: 22 }, (_, i) => lead.replace('AT-77120', `AT-${i}`));
    const mail = await compose({ text: docs.join('\n') });
    expect(mail.documents.map((d) => d.prospects[0].id)).toEqual(docs.slice(0, 20).map((_, i) => `AT-${i}`));
    expect(mail.problems).toEqual(['The mail holds more than 20 ADF documents; only the first 20 were taken.']);
  });
});

describe('readMail reads the headers', () => {
  it('reads Message-ID, From, Subject and Date', async () => {
    const mail = await compose({
      messageId: '<abc.123@leads.example>',
      from: { name: 'Dana W.', address: 'Dana.Whitfield@Example.COM' },
      subject: 'New lead: 2025 Honda CR-V',
      date: new Date('2025-06-03T13:14:00Z'),
      text: 'hello',
    });
    expect(mail).toMatchObject({
      messageId: 'abc.123@leads.example',
      from: 'dana.whitfield@example.com',
      fromName: 'Dana W.',
      subject: 'New lead: 2025 Honda CR-V',
      sentAt: Date.parse('2025-06-03T13:14:00Z'),
      text: 'hello',
    });
  });

  it('reads the headers of a hand-written mail, its Date with a zone comment', async () => {
    const mail = await readMail(
      Buffer.from(
        'From: "Lead Desk" <LEADS@Dealer.example>\r\nSubject: Test\r\nDate: Tue, 3 Jun 2025 09:14:00 -0400 (EDT)\r\nMessage-ID:   <  x-1@y  >\r\n\r\nbody\r\n',
      ),
    );
    expect(mail).toMatchObject({ from: 'leads@dealer.example', fromName: 'Lead Desk', subject: 'Test', sentAt: Date.parse('2025-06-03T13:14:00Z') });
    expect(mail.messageId).toBe('x-1@y');
  });

  it('gives null for a missing Message-ID and a missing or invalid Date, and caps long headers', async () => {
    const none = await readMail(Buffer.from('Subject: hi\r\n\r\nbody\r\n'));
    expect(none).toMatchObject({ messageId: null, sentAt: null, from: '', fromName: '', subject: 'hi', text: 'body' });
    const bad = await readMail(Buffer.from(`Subject: ${'x'.repeat(900)}\r\nDate: not a date\r\nMessage-ID: <${'m'.repeat(900)}@y>\r\n\r\nbody\r\n`));
    expect(bad.sentAt).toBeNull();
    expect(bad.subject).toHaveLength(500);
    expect(bad.messageId).toHaveLength(500);
  });

  it('caps the text at 100,000 characters', async () => {
    const mail = await compose({ text: 'a'.repeat(150_000) });
    expect(mail.text).toHaveLength(100_000);
  });
});

describe('readMail never throws on what is not a mail', () => {
  it('returns the text of a message that is not MIME at all', async () => {
    const mail = await eml('not-mime.eml');
    expect(mail).toMatchObject({ documents: [], problems: [], messageId: null, from: '', subject: '', sentAt: null });
    expect(mail.text).toBe('this is not an e-mail, just text a scanner saved\r\nLine two: call Dana back about the CR-V');
  });

  it('reads a bare ADF document sent without any headers', async () => {
    const mail = await readMail(Buffer.from(xml('lead.xml')));
    expect(mail.documents.map((d) => d.prospects)).toEqual([[expect.objectContaining(DANA)]]);
  });

  it('survives garbage bytes, an empty input and a broken MIME tree', async () => {
    const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256);
    for (const raw of [
      garbage,
      new Uint8Array(0),
      Buffer.from('Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/xml\r\n\r\n<adf>'),
    ]) {
      const mail = await readMail(raw);
      expect(mail.documents).toEqual([]);
      expect(mail.text).not.toContain('\u0000');
    }
  });
});
