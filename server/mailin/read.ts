import { simpleParser, type Attachment, type HeaderValue, type ParsedMail, type SimpleParserOptions } from 'mailparser';
import { messageOf } from '../../domain/errors';
import { BAD_TEXT, isCleanText } from '../http/text';
import { MAX_DOCUMENT, parseAdf } from '../intake/adf';
import { readDocument, type ReadDocument } from '../intake/read';

export interface ReadMail {
  /** Message-ID without <>, trimmed, at most 500 chars; null when the mail has none. */
  messageId: string | null;
  /** The sender's address, lower case ('' when none) and display name. */
  from: string;
  fromName: string;
  /** At most 500 chars. */
  subject: string;
  /** The Date header in ms, null when missing/invalid. */
  sentAt: number | null;
  /** What a person reads: the plain text part, else the HTML part as text; at most 100,000 chars. */
  text: string;
  /** Every ADF document found, in the order found, each once (the same document in the text and the HTML part, or twice in a forward, counts once). */
  documents: ReadDocument[];
  /** Why something that looked like ADF was not taken, one sentence each (e.g. the parser's message), and parts not opened (an archive attachment is never unpacked: "The attachment leads.zip is an archive; archives are not opened."). */
  problems: string[];
}

const MAX_DOCUMENTS = 20;
const MAX_TEXT = 100_000;
const MAX_HEADER = 500;
/** How deep forwarded messages (message/rfc822) are opened: a forward of a forward of a forward. */
const MAX_DEPTH = 3;
/** Bounds the parsing a hostile mail can ask for: distinct things that look like ADF, and sentences about them. */
const MAX_CANDIDATES = 100;
const MAX_PROBLEMS = 50;

const PARSER_OPTIONS: SimpleParserOptions = {
  // The HTML is turned into text here: mailparser's conversion wraps lines and drops tags it does not know (<adf>).
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  keepCidLinks: true,
  // Every message/rfc822 part stays an attachment, read by Reader.read with the same rules.
  ignoreEmbedded: true,
  checksumAlgo: false,
  maxHeadSize: 256 * 1024,
  maxChildNodes: 500,
};

const ARCHIVE_NAME = /\.(zip|zipx|gz|tgz|7z|rar|tar|bz2|tbz2?|xz|txz|lz|lzma|z|zst|cab|arj|lzh|jar)$/i;
const ARCHIVE_TYPE =
  /^application\/(zip|x-zip|x-zip-compressed|gzip|x-gzip|x-gtar|x-tar|x-7z-compressed|x-rar|x-rar-compressed|vnd\.rar|x-bzip2?|x-xz|x-lzma|x-compress|x-compressed|zstd|x-zstd|vnd\.ms-cab-compressed|java-archive)$/i;
const XML_NAME = /\.(xml|adf)$/i;
/** text/xml, application/xml, application/x-adf+xml and the like. */
const XML_TYPE = /^(text|application)\/([\w.-]+\+)?xml$/i;

const OPEN = /<(?:[a-z_][\w.-]*:)?adf(?=[\s/>])/gi;
const QUOTED = /^[ \t]*(?:>[ \t]?)+/;

/** A letter-for-letter key: the same document with other line breaks or indentation (text part, HTML part, quoted) is one. */
const compact = (xml: string) => xml.replace(/\s+/g, '');

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Text a database stores as it is: no NUL, no half of a surrogate pair (a cut may make one). */
const clean = (s: string, max: number) => s.slice(0, max).replaceAll('\u0000', '').replace(LONE_SURROGATE, '\ufffd');

// HTML's named character references: the Latin-1 ones by code point from U+00A0, then the others senders use.
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm ' +
  'raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde ' +
  'Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave ' +
  'eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';
const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITIES = new Map<string, string>([
  ...LATIN1.split(' ').map((name, i): [string, string] => [name, String.fromCharCode(0xa0 + i)]),
  ...Object.entries({
    ...XML_ENTITIES,
    OElig: '\u0152',
    oelig: '\u0153',
    Scaron: '\u0160',
    scaron: '\u0161',
    Yuml: '\u0178',
    fnof: '\u0192',
    circ: '\u02c6',
    tilde: '\u02dc',
    ensp: '\u2002',
    emsp: '\u2003',
    thinsp: '\u2009',
    zwnj: '\u200c',
    zwj: '\u200d',
    lrm: '\u200e',
    rlm: '\u200f',
    ndash: '\u2013',
    mdash: '\u2014',
    lsquo: '\u2018',
    rsquo: '\u2019',
    sbquo: '\u201a',
    ldquo: '\u201c',
    rdquo: '\u201d',
    bdquo: '\u201e',
    dagger: '\u2020',
    Dagger: '\u2021',
    bull: '\u2022',
    hellip: '\u2026',
    permil: '\u2030',
    prime: '\u2032',
    Prime: '\u2033',
    lsaquo: '\u2039',
    rsaquo: '\u203a',
    euro: '\u20ac',
    trade: '\u2122',
  }),
]);

const validCodePoint = (cp: number) => cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);

/**
 * HTML character references decoded, numeric and named. `keepXml` leaves the ones XML reads itself
 * (&amp; &lt; &gt; &quot; &apos; and numeric): for ADF that stands as raw tags in the HTML source.
 */
function decodeEntities(s: string, keepXml = false): string {
  return s.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z][a-z0-9]{1,31}));/gi, (ref, dec?: string, hex?: string, name?: string) => {
    if (name) return keepXml && Object.hasOwn(XML_ENTITIES, name) ? ref : (ENTITIES.get(name) ?? ref);
    if (keepXml) return ref;
    const cp = dec ? Number(dec) : parseInt(hex ?? '', 16);
    return validCodePoint(cp) ? String.fromCodePoint(cp) : '\ufffd';
  });
}

const BLOCKS = new Set('br p div tr li dt dd ul ol table blockquote pre hr h1 h2 h3 h4 h5 h6 section article header footer address center'.split(' '));
const UNSEEN = new Set(['script', 'style', 'head', 'title']);

/** An HTML part as a person reads it: tags gone, blocks and <br> on their own lines, entities decoded, <pre> as written. */
function htmlText(html: string): string {
  const out: string[] = [];
  let pre = 0;
  let gt = -1;
  const words = (s: string) => {
    const t = pre > 0 ? s : s.replace(/\s+/g, ' ');
    out.push(decodeEntities(t).replace(/\u00a0/g, ' '));
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    if (lt > i) words(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    // The next ">" is looked for once for a run of "<" that are text ("a < b").
    if (gt <= lt) gt = html.indexOf('>', lt);
    if (gt < 0) break;
    const tag = /^(\/?)([a-z][a-z0-9]*)/i.exec(html.slice(lt + 1, Math.min(gt, lt + 40)));
    if (!tag && !/^[!?]/.test(html.slice(lt + 1, lt + 2))) {
      words('<');
      i = lt + 1;
      continue;
    }
    i = gt + 1;
    if (!tag) continue;
    const name = tag[2].toLowerCase();
    const closing = tag[1] === '/';
    if (UNSEEN.has(name) && !closing) {
      const end = new RegExp(`</${name}`, 'gi');
      end.lastIndex = gt;
      i = end.exec(html)?.index ?? html.length;
      continue;
    }
    if (name === 'pre') pre = Math.max(0, pre + (closing ? -1 : 1));
    if (BLOCKS.has(name)) out.push('\n');
  }
  if (i < html.length) words(html.slice(i));
  return out
    .join('')
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** HTML formatting a sender's editor puts between raw ADF tags; ADF has no element by these names. */
const HTML_FORMATTING = /<\/?(?:br|p|div|span|font|b|i|u|strong|em|pre|code|tt|small|big|center)\b[^>]*>/gi;

/** A text's own lines, and its quoted lines ("> ", "> > ") without their marks: a quoted document is read from the latter. */
function quoteLevels(text: string): string[] {
  if (!/^[ \t]*>/m.test(text)) return [text];
  const own: string[] = [];
  const quoted: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const mark = QUOTED.exec(line);
    if (mark) quoted.push(line.slice(mark[0].length));
    else own.push(line);
  }
  return [own.join('\n'), quoted.join('\n')];
}

/** The last `<!DOCTYPE` in head before `end` when it is a declaration up to `end` (only <!...> and <?...?> inside), else -1. */
function doctypeBefore(head: string, end: number): number {
  const at = Math.max(head.lastIndexOf('<!DOCTYPE', end), head.lastIndexOf('<!doctype', end));
  return at >= 0 && !/<[^!?]/.test(head.slice(at + 1, end)) ? at : -1;
}

/** How far before <adf a prolog is looked for, and how many parts it may have: bounds the work a hostile text can ask for. */
const PROLOG_WINDOW = 16 * 1024;
const PROLOG_PARTS = 20;

/**
 * Where the document whose root starts at `at` begins: its prolog (XML declaration, processing
 * instructions, comments, DOCTYPE) directly before it is part of it, not before `floor`. A DOCTYPE
 * goes to the parser with its document, which refuses it: cut off, its entities would be read as text.
 */
function prologStart(text: string, at: number, floor: number): number {
  const from = Math.max(floor, at - PROLOG_WINDOW);
  const head = text.slice(from, at);
  let start = head.length;
  for (let part = 0; part < PROLOG_PARTS; part++) {
    let end = start;
    while (end > 0 && /\s/.test(head[end - 1])) end--;
    if (head[end - 1] !== '>') break;
    let open = -1;
    if (head.startsWith('?>', end - 2)) {
      open = head.lastIndexOf('<?', end - 3);
      if (open >= 0 && head.indexOf('?>', open + 2) !== end - 2) open = -1;
    } else if (head.startsWith('-->', end - 3)) {
      open = head.lastIndexOf('<!--', end - 4);
      if (open >= 0 && head.indexOf('-->', open + 4) !== end - 3) open = -1;
    } else {
      open = doctypeBefore(head, end);
      // The end of a DOCTYPE whose start is out of sight stays with the document, so the parser refuses it.
      if (open < 0 && head[end - 2] === ']') open = end - 2;
    }
    if (open < 0) break;
    start = open;
  }
  return from + start;
}

/**
 * Every `<adf>...</adf>` in a text with its prolog, in order, up to one more than would be read;
 * `unclosed` when one has no end (nothing after it can be read).
 */
function cutDocuments(text: string): { xml: string[]; unclosed: boolean } {
  const xml: string[] = [];
  const open = new RegExp(OPEN.source, OPEN.flags);
  let floor = 0;
  for (let m = open.exec(text); m && xml.length <= MAX_CANDIDATES; m = open.exec(text)) {
    const prefix = m[0].slice(1, -3).replace(/\./g, '\\.');
    const close = new RegExp(`</${prefix}adf\\s*>`, 'gi');
    close.lastIndex = m.index;
    const c = close.exec(text);
    if (!c) return { xml, unclosed: true };
    const end = c.index + c[0].length;
    xml.push(text.slice(prologStart(text, m.index, floor), end));
    floor = open.lastIndex = end;
  }
  return { xml, unclosed: false };
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** A structured header (Content-Type) as mailparser gives it: the value and its parameters. */
const structured = (h: HeaderValue | undefined): { value: string; params: Record<string, string> } | null =>
  h && typeof h === 'object' && !Array.isArray(h) && 'value' in h && typeof h.value === 'string' && 'params' in h
    ? { value: h.value, params: h.params as Record<string, string> }
    : null;

/** Starts like an XML document once a BOM, whitespace and UTF-16's zero bytes are skipped. */
function startsLikeXml(bytes: Uint8Array): boolean {
  for (const b of bytes.subarray(0, 256)) {
    if (b === 0 || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf || b === 0xfe || b === 0xff) continue;
    return b === 0x3c;
  }
  return false;
}

/** A text attachment's characters by its charset, UTF-8 when it names none or one Node does not know. */
function decodeText(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

/** The headers mailparser names when it understood a mail: without any, and without a body, the bytes are not a mail. */
const MAIL_HEADERS = ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type', 'received', 'return-path'];

/** One mail read: the documents and problems of all its parts and forwarded messages, kept across them so each document counts once. */
class Reader {
  documents: ReadDocument[] = [];
  problems: string[] = [];
  private seen = new Set<string>();
  private candidates = 0;
  private done = false;

  problem(sentence: string, depth: number) {
    if (this.problems.length > MAX_PROBLEMS) return;
    if (this.problems.length === MAX_PROBLEMS) this.problems.push('There were more problems; they are not listed.');
    else this.problems.push(depth > 0 ? `In a forwarded message, ${lowerFirst(sentence)}` : sentence);
  }

  /** Counts a distinct thing that looks like ADF; false once enough were tried (or 20 documents were taken). */
  private next(depth: number): boolean {
    if (this.done) return false;
    if (++this.candidates <= MAX_CANDIDATES) return true;
    this.done = true;
    this.problem(`The mail holds more than ${MAX_CANDIDATES} things that look like ADF; the rest were not read.`, depth);
    return false;
  }

  private take(doc: ReadDocument, depth: number) {
    // The same prospects, however the document was laid out (an HTML part may drop the XML declaration), are the same lead.
    const key = JSON.stringify(doc.prospects);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.documents.length < MAX_DOCUMENTS) {
      this.documents.push(doc);
      return;
    }
    this.done = true;
    this.problem(`The mail holds more than ${MAX_DOCUMENTS} ADF documents; only the first ${MAX_DOCUMENTS} were taken.`, depth);
  }

  private attempt(read: () => ReadDocument, where: string, depth: number) {
    let doc: ReadDocument;
    try {
      doc = read();
    } catch (err) {
      this.problem(`${where} was not read: ${messageOf(err)}`, depth);
      return;
    }
    this.seen.add(compact(doc.xml));
    this.take(doc, depth);
  }

  /** ADF in decoded text (a text part, an HTML part as text): read as it is, never decoded again by its XML declaration. */
  scanText(text: string, place: string, depth: number) {
    for (const part of quoteLevels(text)) {
      const { xml, unclosed } = cutDocuments(part);
      for (const doc of xml) this.readXml(doc, place, depth);
      if (unclosed) this.problem(`An <adf> in ${place} has no closing </adf>; it was not read.`, depth);
    }
  }

  private readXml(xml: string, place: string, depth: number) {
    const key = compact(xml);
    if (this.seen.has(key) || !this.next(depth)) return;
    this.seen.add(key);
    const where = `An ADF document in ${place}`;
    if (xml.length > MAX_DOCUMENT) this.problem(`${where} is larger than ${MAX_DOCUMENT / 1024 / 1024} MB; it was not read.`, depth);
    else if (!isCleanText(xml)) this.problem(`${where} was not read: ${BAD_TEXT}`, depth);
    else this.attempt(() => ({ xml, prospects: parseAdf(xml) }), where, depth);
  }

  /** ADF in an HTML part, as raw tags in the source or escaped as text; returns the part as text. */
  scanHtml(html: string, place: string, depth: number): string {
    const { xml } = cutDocuments(html);
    for (const doc of xml) this.readXml(decodeEntities(doc.replace(HTML_FORMATTING, ''), true), place, depth);
    const text = htmlText(html);
    this.scanText(text, place, depth);
    return text;
  }

  /** An attachment: ADF read from its bytes, a forwarded message opened, an archive named. Returns what a person reads of it, if anything. */
  async attachment(a: Attachment, depth: number): Promise<string> {
    const header = structured(a.headers.get('content-type'));
    const type = (header?.value ?? a.contentType).toLowerCase();
    const charset = header?.params.charset ?? '';
    const name = a.filename ?? '';
    const label = name ? `the attachment ${name}` : `an attachment of type ${type}`;
    if (type === 'message/rfc822' || /\.eml$/i.test(name)) {
      if (depth < MAX_DEPTH) return (await this.read(a.content, depth + 1)).text;
      this.problem(`${upperFirst(label)} is a message forwarded more than ${MAX_DEPTH} levels deep; it was not opened.`, depth);
      return '';
    }
    if (type.startsWith('image/')) return '';
    if (ARCHIVE_NAME.test(name) || ARCHIVE_TYPE.test(type)) {
      this.problem(`${upperFirst(label)} is an archive; archives are not opened.`, depth);
      return '';
    }
    if (XML_NAME.test(name) || XML_TYPE.test(type) || (type === 'application/octet-stream' && startsLikeXml(a.content))) {
      if (!this.next(depth)) return '';
      if (a.content.length > MAX_DOCUMENT) this.problem(`${upperFirst(label)} is larger than ${MAX_DOCUMENT / 1024 / 1024} MB; it was not read.`, depth);
      else this.attempt(() => readDocument(a.content, charset ? `${type}; charset=${charset}` : type), upperFirst(label), depth);
      return '';
    }
    if (type === 'text/plain') this.scanText(decodeText(a.content, charset), label, depth);
    else if (type === 'text/html') this.scanHtml(decodeText(a.content, charset), label, depth);
    return '';
  }

  /** A message's parts in order: text, HTML, attachments (forwarded messages read the same way). Returns the mail and what a person reads of it. */
  async read(raw: Uint8Array, depth: number): Promise<{ mail: ParsedMail | null; text: string }> {
    let mail: ParsedMail;
    try {
      mail = await simpleParser(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), PARSER_OPTIONS);
    } catch (err) {
      this.problem(`The mail could not be read as MIME: ${messageOf(err)}`, depth);
      const text = new TextDecoder().decode(raw);
      this.scanText(text, 'the mail', depth);
      return { mail: null, text };
    }
    const texts: string[] = [];
    if (mail.text?.trim()) {
      this.scanText(mail.text, "the mail's text", depth);
      texts.push(mail.text.trim());
    }
    if (mail.html) {
      const text = this.scanHtml(mail.html, "the mail's HTML", depth);
      if (!texts.length) texts.push(text);
    }
    if (!mail.text && !mail.html && !mail.attachments.length) {
      // No body: either a mail of headers only, or bytes that are no mail at all, which are then the text.
      const known = mail.headerLines.some((h) => MAIL_HEADERS.includes(h.key));
      const text = known ? mail.headerLines.filter((h) => !h.key).map((h) => h.line) : [new TextDecoder().decode(raw)];
      this.scanText(text.join('\n'), 'the mail', depth);
      texts.push(text.join('\n').trim());
    }
    for (const a of mail.attachments) {
      const text = await this.attachment(a, depth);
      if (text) texts.push(text);
    }
    return { mail, text: texts.filter(Boolean).join('\n\n') };
  }
}

/** The Date header in ms: mailparser gives the time of reading for a date it cannot read, so the header's own text is parsed. */
function sentAt(mail: ParsedMail): number | null {
  const line = mail.headerLines.find((h) => h.key === 'date')?.line;
  if (!line) return null;
  const value = line
    .slice(line.indexOf(':') + 1)
    .replace(/\([^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Reads a raw e-mail (RFC 5322, MIME or not) and finds every ADF lead document in it: in the text
 * and HTML parts (raw, HTML-escaped, quoted under a forward or reply), in XML attachments and in
 * forwarded messages. Never throws on what a sender can send: what could not be read is a problem.
 */
export async function readMail(raw: Uint8Array): Promise<ReadMail> {
  const reader = new Reader();
  const { mail, text } = await reader.read(raw, 0);
  const messageId = mail?.messageId?.trim().replace(/^<|>$/g, '').trim();
  const sender = mail?.from?.value[0];
  const address = sender?.address ?? sender?.group?.[0]?.address ?? '';
  return {
    messageId: messageId ? clean(messageId, MAX_HEADER) : null,
    from: clean(address.toLowerCase(), MAX_HEADER),
    fromName: clean(sender?.name ?? '', MAX_HEADER),
    subject: clean(mail?.subject ?? '', MAX_HEADER),
    sentAt: mail ? sentAt(mail) : null,
    text: clean(text, MAX_TEXT),
    documents: reader.documents,
    problems: reader.problems,
  };
}
