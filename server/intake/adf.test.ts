import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAdf, repairAmpersands } from './adf';
import { decodeXml, detectEncoding } from './encoding';
import { isRepeat, phoneKey, placeholderName, prospectFields } from './lead';

const one = (xml: string) => parseAdf(xml)[0];

describe('parseAdf reads the shapes senders use', () => {
  it('matches element and attribute names without regard to case or namespace prefix', () => {
    const p = one(
      '<a:ADF xmlns:a="urn:x"><a:Prospect A:Status="Resend"><a:ID a:Source="S">7</a:ID><a:Customer><a:Contact>' +
        '<a:Name a:Part="Full">Ann Bell</a:Name></a:Contact></a:Customer></a:Prospect></a:ADF>',
    );
    expect(p).toMatchObject({ customer: 'Ann Bell', id: '7', idSource: 'S', resend: true });
  });

  it('ignores spaces, newlines and a BOM before the XML declaration', () => {
    expect(one('\uFEFF\n\n  <?xml version="1.0"?><adf><prospect><customer><contact><name>Al</name></contact></customer></prospect></adf>').customer).toBe('Al');
  });

  it('keeps the vehicle to buy or lease wherever it stands, and the trade-in as a trade-in', () => {
    const p = one(`<adf><prospect>
      <vehicle interest="trade-in"><year>2012</year><make>Ford</make><model>Focus</model><odometer units="km">120000</odometer><vin>TRADEVIN</vin></vehicle>
      <vehicle interest="test-drive"><year>2020</year><make>Kia</make><model>Soul</model></vehicle>
      <vehicle interest="lease"><year>2026</year><make>BMW</make><model>X3</model><trim>xDrive30</trim><vin>WBA1</vin></vehicle>
      <customer><contact><name part="full">Lee</name></contact></customer></prospect></adf>`);
    expect(p).toMatchObject({
      vehicle: '2026 BMW X3 xDrive30',
      vin: 'WBA1',
      tradeIn: { year: '2012', make: 'Ford', model: 'Focus', odometer: '120000 km' },
    });
    // Without interest="buy", the first vehicle that is not a trade-in.
    const q = one(
      '<adf><prospect><vehicle interest="trade-in"><make>Old</make></vehicle><vehicle><make>New</make></vehicle><customer><contact><name>X</name></contact></customer></prospect></adf>',
    );
    expect(q).toMatchObject({ vehicle: 'New', tradeIn: { make: 'Old', year: '', model: '', odometer: '' } });
    expect(one('<adf><prospect><customer><contact><name>X</name></contact></customer></prospect></adf>')).toMatchObject({ vehicle: '', tradeIn: null });
  });

  it('collects comments from every place senders put them, in document order', () => {
    const p = one(`<adf><prospect><comment>one</comment><vehicle><comments>two</comments></vehicle>
      <customer><contact><name>X</name><comments>three</comments></contact><comments><![CDATA[four & <five>]]></comments></customer>
      <comments>
        six
        seven
      </comments></prospect></adf>`);
    expect(p.comments).toBe('one\ntwo\nthree\nfour & <five>\nsix\nseven');
  });

  it('finds the provider in the prospect, inside <vendor>, or beside the prospect, and the id inside <customer>', () => {
    const c = (inner: string, outer = '') => one(`<adf>${outer}<prospect><customer><contact><name>X</name></contact></customer>${inner}</prospect></adf>`);
    expect(c('<provider><name part="full">P1</name></provider>').provider).toBe('P1');
    expect(c('<vendor><provider><name>P2</name></provider></vendor>').provider).toBe('P2');
    expect(c('', '<provider><service>P3 Service</service></provider>').provider).toBe('P3 Service');
    expect(c('<provider>P4</provider>').provider).toBe('P4');
    expect(one('<adf><prospect><customer><id source="c">C-9</id><contact><name>X</name></contact></customer></prospect></adf>')).toMatchObject({
      id: 'C-9',
      idSource: 'c',
    });
  });

  it('reads loose dialects: <customer><name><first> without <contact>, and phone and e-mail in <customer>', () => {
    const p = one(
      '<adf><prospect><customer><name><first>Ana</first><last>Diaz</last></name><phone>555-0101</phone><email>a@x.com</email></customer></prospect></adf>',
    );
    expect(p).toMatchObject({ customer: 'Ana Diaz', phone: '555-0101', email: 'a@x.com' });
  });

  it('repairs a bare & and leaves references, CDATA and comments alone', () => {
    expect(repairAmpersands('<a>Tom & Ann &amp; &#38; &#x26; &lt; <![CDATA[x & y]]><!-- a & b --></a>')).toBe(
      '<a>Tom &amp; Ann &amp; &#38; &#x26; &lt; <![CDATA[x & y]]><!-- a & b --></a>',
    );
    expect(one('<adf><prospect><customer><contact><name>Tom & Ann</name></contact></customer></prospect></adf>').customer).toBe('Tom & Ann');
  });

  it('still refuses what is not ADF or not well-formed, saying where', () => {
    expect(() => parseAdf('<lead/>')).toThrow(/root element must be <adf>/);
    expect(() => parseAdf('<adf>\n<prospect></adf>')).toThrow(/not well-formed.*line 2, column/);
  });
});

/** The regular expression repairAmpersands replaced: the same answers, without its backtracking or its unbounded growth. */
const REGEX_REPAIR = (doc: string) =>
  doc.replace(/(<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->)|&(?!(?:[A-Za-z][A-Za-z0-9._-]*|#[0-9]+|#x[0-9A-Fa-f]+);)/g, (m, kept: string | undefined) =>
    kept ? m : '&amp;',
  );

describe('the ampersand repair is one pass, bounded', () => {
  it('gives what the regular expression it replaced gave, on documents made of the pieces that matter', () => {
    // Split on "|": one piece is a space.
    const pieces = '&|amp;|&amp;|&#38;|&#x26;|&#X26;|&#;|&#x;|&a.b-c_d;|&1;|;|#|x|a| |<|!|<!|<!--|-->|--|<![CDATA[|]]>|]]|<a>|</a>'.split('|');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (parts) => {
        const doc = parts.join('');
        expect(repairAmpersands(doc)).toBe(REGEX_REPAIR(doc));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads megabyte documents built to make a scan start over (unclosed sections, long names, "&" runs) in one pass', () => {
    // The regular expression took minutes on the first two (each "<!--" looked for its end to the end of the document).
    const cases: [string, string][] = [
      ['<!--'.repeat(250_000), '<!--'.repeat(250_000)],
      ['<![CDATA['.repeat(110_000), '<![CDATA['.repeat(110_000)],
      [`${'<!x'.repeat(300_000)}&amp;`, `${'<!x'.repeat(300_000)}&amp;`],
      [`<!--${'&'.repeat(200_000)}`, `<!--${'&amp;'.repeat(200_000)}`],
      [`<a>${'&a'.repeat(500_000)}</a>`, `<a>${'&amp;a'.repeat(500_000)}</a>`],
      [`<a>&${'a'.repeat(1_000_000)}</a>`, `<a>&amp;${'a'.repeat(1_000_000)}</a>`],
    ];
    for (const [doc, want] of cases) expect(repairAmpersands(doc, 4 * 1024 * 1024) === want).toBe(true);
  });

  it('refuses a document that its bare "&" would grow past 1 MB, with a 413 saying why, and leaves one just under alone', () => {
    const grows = (n: number) => `<a>${'& '.repeat(n)}</a>`;
    // Each bare "&" adds four characters: 1,048,576 less the document, in fours.
    const fits = Math.floor((1024 * 1024 - grows(0).length) / 6);
    expect(repairAmpersands(grows(fits))).toHaveLength(grows(fits).length + 4 * fits);
    expect(() => repairAmpersands(grows(fits + 1))).toThrow(expect.objectContaining({ status: 413, code: 'too_large' }));
    expect(() => repairAmpersands(grows(450_000))).toThrow(/too large once its bare "&" characters are read as "&amp;" \(max 1,048,576 characters\)/);
    expect(() => parseAdf(`<adf><prospect>${`<c>${'& '.repeat(15_000)}</c>`.repeat(30)}</prospect></adf>`)).toThrow(/bare "&"/);
  });
});

describe('decoding by the declared encoding', () => {
  it('takes the BOM first, then the HTTP charset, then the XML declaration', () => {
    const decl = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><adf/>');
    expect(detectEncoding(decl).encoding).toBe('windows-1252');
    expect(detectEncoding(decl, 'text/xml; charset=UTF-8').encoding).toBe('utf-8');
    expect(detectEncoding(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), decl]), 'text/xml; charset=latin1')).toMatchObject({ encoding: 'utf-8', skip: 3 });
    expect(detectEncoding(Buffer.from('<adf/>', 'utf16le'))).toMatchObject({ encoding: 'utf-16le', skip: 0 });
    expect(detectEncoding(Buffer.from('<adf/>', 'utf16le').swap16(), 'text/xml; charset="utf-16"').encoding).toBe('utf-16be');
    expect(detectEncoding(Buffer.from('<adf/>')).encoding).toBe('utf-8');
  });

  it('reads Windows-1252 punctuation and refuses what does not decode', () => {
    expect(decodeXml(Buffer.from([0x93, 0x80, 0x94, 0xe9]), 'text/xml; charset=windows-1252')).toBe('\u201c\u20ac\u201d\u00e9');
    expect(() => decodeXml(Buffer.from([0x3c, 0xff]), 'text/xml')).toThrow(/not valid UTF-8 text/);
    expect(() => decodeXml(Buffer.from('<a/>'), 'text/xml; charset=koi8-r')).toThrow(/"koi8-r" is not supported/);
  });
});

describe('the repeat rule', () => {
  const who = (key: string, phone: string | null, email: string | null) => ({ key, phone, email });
  it('is the same customer: the same name and a phone or e-mail in common', () => {
    expect(isRepeat(who('ann lee', '843-555-0101', null), who('ann lee', '+1 (843) 555 0101', 'x@y.z'), false)).toBe(true);
    expect(isRepeat(who('ann lee', null, 'Ann@X.com'), who('ann lee', '1', 'ann@x.com'), false)).toBe(true);
    expect(isRepeat(who('ann lee', '1', 'a@x.com'), who('ann lee', '2', 'b@x.com'), false)).toBe(false);
    expect(isRepeat(who('ann lee', '1', 'a@x.com'), who('bob lee', '1', 'a@x.com'), false)).toBe(false);
    expect(isRepeat(who('ann lee', null, null), who('ann lee', null, null), false)).toBe(true);
    expect(isRepeat(who('ann lee', null, null), who('ann lee', '1', null), false)).toBe(false);
  });
  it('or a prospect that says it is a resend', () => {
    expect(isRepeat(who('ann lee', '1', null), who('bob', '2', null), true)).toBe(true);
  });
  it('reads phone numbers as digits without a US country code', () => {
    expect(phoneKey('+1 (843) 555-0101')).toBe(phoneKey('843.555.0101'));
  });
});

describe('a prospect without a name', () => {
  it('comes in under a placeholder made from its phone or e-mail, flagged', () => {
    expect(placeholderName('843-555-0101', 'a@x.com')).toBe('Customer 843-555-0101');
    expect(placeholderName('', 'a@x.com')).toBe('a@x.com');
    const p = one('<adf><prospect><customer><contact><email>a@x.com</email></contact></customer></prospect></adf>');
    expect(prospectFields(p, '')).toMatchObject({ ok: true, nameMissing: true, fields: { customer: 'a@x.com' } });
    const none = one('<adf><prospect><customer/></prospect></adf>');
    expect(prospectFields(none, 'Prospect 3: ')).toMatchObject({ ok: false, error: expect.stringMatching(/^Prospect 3: A customer name, phone or e-mail/) });
  });
});

/** Text a sender may put in a field: printable, escaped for XML, in the given code point ranges. */
const textIn = (ranges: [number, number][]) =>
  fc
    .array(
      fc.oneof(...ranges.map(([lo, hi]) => fc.integer({ min: lo, max: hi }))).map((cp) => String.fromCodePoint(cp)),
      { minLength: 1, maxLength: 12 },
    )
    .map((cs) => cs.join(''));
const LATIN1: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0xff],
];
const UNICODE: [number, number][] = [...LATIN1, [0x100, 0xd7ff], [0xe000, 0xfffd], [0x10000, 0x10ffff]];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const adfDoc = (ranges: [number, number][]) =>
  fc
    .record({
      first: textIn(ranges),
      last: textIn(ranges),
      phone: textIn(ranges),
      email: textIn(ranges),
      make: textIn(ranges),
      model: textIn(ranges),
      comments: textIn(ranges),
      provider: textIn(ranges),
      id: textIn(ranges),
      trade: fc.option(textIn(ranges), { nil: undefined }),
    })
    .map(
      (f) => (encoding: string) =>
        `<?xml version="1.0" encoding="${encoding}"?>\n<?adf version="1.0"?>\n<adf><prospect><id source="${esc(f.id).replace(/"/g, '&quot;')}">${esc(f.id)}</id>` +
        `<vehicle interest="buy"><make>${esc(f.make)}</make><model>${esc(f.model)}</model></vehicle>` +
        (f.trade ? `<vehicle interest="trade-in"><make>${esc(f.trade)}</make></vehicle>` : '') +
        `<customer><contact><name part="first">${esc(f.first)}</name><name part="last">${esc(f.last)}</name>` +
        `<phone>${esc(f.phone)}</phone><email>${esc(f.email)}</email></contact><comments>${esc(f.comments)}</comments></customer>` +
        `<provider><name part="full">${esc(f.provider)}</name></provider></prospect></adf>`,
    );

/** The lead a document gives, as bytes with a content type, or the refusal message. */
const leadOf = (bytes: Buffer, contentType = 'application/xml') => {
  try {
    return parseAdf(decodeXml(bytes, contentType)).map((p) => prospectFields(p, ''));
  } catch (err) {
    return (err as Error).message;
  }
};
const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();

describe('property: any valid ADF document re-encoded gives the same lead as its UTF-8 form', () => {
  it('in UTF-16 (LE and BE, with a BOM or a charset) for any text', () => {
    fc.assert(
      fc.property(adfDoc(UNICODE), (doc) => {
        const want = leadOf(Buffer.from(doc('UTF-8'), 'utf8'));
        expect(typeof want).not.toBe('string');
        const u16 = doc('UTF-16');
        expect(leadOf(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(u16, 'utf16le')]))).toEqual(want);
        expect(leadOf(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(u16)]))).toEqual(want);
        expect(leadOf(Buffer.from(u16, 'utf16le'), 'text/xml; charset=utf-16le')).toEqual(want);
        expect(leadOf(utf16be(u16), 'text/xml; charset=UTF-16BE')).toEqual(want);
      }),
      { numRuns: 150 },
    );
  });

  it('in ISO-8859-1 (declared in the XML or in the charset) where the text is representable', () => {
    fc.assert(
      fc.property(adfDoc(LATIN1), (doc) => {
        const want = leadOf(Buffer.from(doc('UTF-8'), 'utf8'));
        expect(typeof want).not.toBe('string');
        expect(leadOf(Buffer.from(doc('ISO-8859-1'), 'latin1'))).toEqual(want);
        expect(leadOf(Buffer.from(doc('ISO-8859-1'), 'latin1'), 'application/x-adf+xml; charset=iso-8859-1')).toEqual(want);
        expect(leadOf(Buffer.from(doc('windows-1252'), 'latin1'))).toEqual(want);
      }),
      { numRuns: 150 },
    );
  });
});
