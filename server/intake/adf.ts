import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ApiError, badRequest } from '../http/errors';
import { isRecord } from '../../domain/guards';
import { messageOf } from '../../domain/errors';
import type { Dealer } from '../../domain/dealers';
import { conditionOf } from '../../domain/routing';

/** A vehicle the customer brings in (ADF `<vehicle interest="trade-in">`); empty parts are ''. */
export interface TradeIn {
  year: string;
  make: string;
  model: string;
  odometer: string;
}

/** What one ADF <prospect> says, before the lead's own checks (lengths, a customer name). */
export interface Prospect {
  /** '' when the sender gave no name. */
  customer: string;
  phone: string;
  email: string;
  vehicle: string;
  vin: string;
  tradeIn: TradeIn | null;
  comments: string;
  provider: string;
  /** The dealer the lead is for (<vendor>): what maps a group key's lead to a store. */
  dealer: Dealer;
  id: string;
  idSource: string;
  /** The prospect says `status="resend"`: the sender sends a lead it sent before. */
  resend: boolean;
  /** What routing rules read (domain/routing.ts): the vehicle's status="new|used" and make, and a lang="es" the sender gave. */
  condition: '' | 'new' | 'used';
  make: string;
  language: string;
}

const MAX_PROSPECTS = 100;
/** Far above any real ADF lead, far below what costs the parser time. */
const ADF_LIMITS = { elements: 3000, attributes: 2000, attributesPerElement: 20, attributeLength: 1000, tagLength: 2000, textLength: 32_000, depth: 20 };

const n = (x: number) => x.toLocaleString('en-US');

/**
 * One linear pass over the document before the parser sees it: counts elements, attributes per
 * element and in all, nesting, and measures every tag, attribute and text run. A hostile document (tens
 * of thousands of attributes on one element, megabytes in one attribute) is refused here in a
 * few milliseconds instead of holding the event loop for a second in the parser.
 */
function prescan(doc: string) {
  const L = ADF_LIMITS;
  let elements = 0;
  let attributes = 0;
  let depth = 0;
  let i = 0;
  const text = (from: number, to: number) => {
    if (to - from > L.textLength && /\S/.test(doc.slice(from, to))) throw badRequest(`An ADF element's text is too long (max ${n(L.textLength)} characters).`);
  };
  while (i < doc.length) {
    const lt = doc.indexOf('<', i);
    if (lt < 0) return text(i, doc.length);
    text(i, lt);
    const special = (open: string, close: string) => {
      if (!doc.startsWith(open, lt)) return false;
      const end = doc.indexOf(close, lt + open.length);
      if (end < 0) throw badRequest(`The XML is not well-formed: ${open} is not closed.`);
      if (open === '<![CDATA[') text(lt, end);
      i = end + close.length;
      return true;
    };
    if (special('<![CDATA[', ']]>') || special('<!--', '-->') || special('<?', '?>')) continue;
    let attrs = 0;
    let quote = '';
    let valueStart = 0;
    let j = lt + 1;
    for (; j < doc.length; j++) {
      const c = doc[j];
      if (quote) {
        if (c !== quote) continue;
        if (j - valueStart > L.attributeLength) throw badRequest(`An ADF attribute is too long (max ${n(L.attributeLength)} characters).`);
        quote = '';
      } else if (c === '"' || c === "'") {
        quote = c;
        valueStart = j + 1;
      } else if (c === '=') {
        if (++attrs > L.attributesPerElement) throw badRequest(`An ADF element has too many attributes (max ${L.attributesPerElement}).`);
        if (++attributes > L.attributes) throw badRequest(`The ADF document has too many attributes (max ${n(L.attributes)}).`);
      } else if (c === '>') break;
      if (j - lt > L.tagLength) throw badRequest(`An ADF tag is too long (max ${n(L.tagLength)} characters).`);
    }
    if (doc[lt + 1] === '/') depth--;
    else {
      if (++elements > L.elements) throw badRequest(`The ADF document has too many elements (max ${n(L.elements)}).`);
      if (doc[j - 1] !== '/' && ++depth > L.depth) throw badRequest(`The ADF document is nested too deeply (max ${L.depth} levels).`);
    }
    i = j + 1;
  }
}

// Entities are never expanded by the parser: a DOCTYPE (the only place one can be declared) is
// refused before parsing, and the five predefined ones and character references are decoded
// below in a single pass, so "&amp;lt;" stays "&lt;". Element and attribute names are read
// without regard to case or namespace prefix (<ADF>, <adf:prospect>), and in document order.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
  transformTagName: (name) => localName(name),
  transformAttributeName: (name) => localName(name),
});
const localName = (name: string) => name.replace(/^.*:/, '').toLowerCase();

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** The characters XML 1.0 allows: a reference to NUL or to half a surrogate pair is not text. */
const xmlChar = (cp: number) =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
const decode = (s: string) =>
  s.replace(/&(?:(lt|gt|amp|quot|apos)|#(\d{1,7})|#x([0-9a-f]{1,6}));/gi, (m, name: string, dec: string, hex: string) => {
    if (name) return NAMED[name.toLowerCase()] ?? m;
    const cp = dec ? Number(dec) : parseInt(hex, 16);
    if (!xmlChar(cp)) throw badRequest(`The XML refers to a character that is not valid Unicode text (${m}).`);
    return String.fromCodePoint(cp);
  });

/** An element as the reader sees it: lower-case local name, attributes, children in document order, its own text. */
interface El {
  name: string;
  attrs: Record<string, string>;
  kids: El[];
  text: string;
}

type Ordered = Record<string, unknown>;
/** The parser's preserveOrder output: a list of nodes, each an object (anything else is no node). */
const nodesOf = (v: unknown): Ordered[] => (Array.isArray(v) ? v.filter(isRecord) : []);
/** fast-xml-parser's ordered output ([{tag: [...children], ':@': {attrs}}, {'#text': '...'}]) as a tree of El. */
function toEl(name: string, nodes: Ordered[], attrs: Record<string, unknown> = {}): El {
  const el: El = { name, attrs: {}, kids: [], text: '' };
  for (const [k, v] of Object.entries(attrs)) if (typeof v === 'string') el.attrs[k] = decode(v).trim();
  for (const node of nodes) {
    for (const [key, value] of Object.entries(node)) {
      if (key === ':@') continue;
      if (key === '#text') el.text += decode(String(value));
      else if (key === '#cdata')
        el.text += nodesOf(value)
          .map((t) => (typeof t['#text'] === 'string' ? t['#text'] : ''))
          .join('');
      else el.kids.push(toEl(key, nodesOf(value), isRecord(node[':@']) ? node[':@'] : undefined));
    }
  }
  return el;
}

const kids = (el: El | undefined, name: string) => (el ? el.kids.filter((k) => k.name === name) : []);
const kid = (el: El | undefined, ...path: string[]): El | undefined => {
  let at = el;
  for (const name of path) at = kids(at, name)[0];
  return at;
};
const text = (el: El | undefined) => (el ? el.text.replace(/\s+/g, ' ').trim() : '');
/** Multi-line text (comments) keeps its line breaks but not the indentation around it. */
const block = (el: El) =>
  el.text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .join('\n')
    .trim();
const join = (parts: string[]) => parts.filter(Boolean).join(' ');

/** A person's name from <name part="..."> parts, a <name> with <first>/<last> inside, or a plain <name>. */
function personName(holder: El | undefined): string {
  const names = kids(holder, 'name');
  const part = (p: string) => text(names.find((n) => (n.attrs.part ?? '').toLowerCase() === p));
  const nested = (n: El) => text(kid(n, 'full')) || join(['first', 'middle', 'last'].map((k) => text(kid(n, k))));
  return (
    part('full') ||
    join([part('first'), part('middle'), part('last')]) ||
    names.map((n) => (n.attrs.part ? '' : text(n) || nested(n))).find(Boolean) ||
    join([text(kid(holder, 'firstname')), text(kid(holder, 'lastname'))])
  );
}

const BUY = ['buy', 'lease', 'purchase'];
const TRADE = ['trade-in', 'tradein', 'trade', 'sell'];
const interest = (v: El) => (v.attrs.interest ?? '').toLowerCase();

/** Comments are kept from every place senders put them, in document order. */
const COMMENT_HOLDERS = new Set(['prospect', 'customer', 'contact', 'vehicle']);
function comments(el: El, out: string[] = []): string[] {
  for (const k of el.kids) {
    if ((k.name === 'comments' || k.name === 'comment') && COMMENT_HOLDERS.has(el.name)) {
      const t = block(k);
      if (t) out.push(t);
    } else comments(k, out);
  }
  return out;
}

function prospect(p: El, adf: El): Prospect {
  const customer = kid(p, 'customer');
  // Loose dialects leave <contact> out: the name, phone and e-mail sit in <customer> itself.
  const contact = kid(customer, 'contact') ?? customer;
  const phones = [...kids(contact, 'phone'), ...(contact === customer ? [] : kids(customer, 'phone'))];
  const emails = [...kids(contact, 'email'), ...(contact === customer ? [] : kids(customer, 'email'))];
  const vehicles = kids(p, 'vehicle');
  const vehicle = vehicles.find((v) => BUY.includes(interest(v))) ?? vehicles.find((v) => !TRADE.includes(interest(v)));
  const trade = vehicles.find((v) => TRADE.includes(interest(v)));
  const odometer = kid(trade, 'odometer');
  const provider = kid(p, 'provider') ?? kid(p, 'vendor', 'provider') ?? kid(adf, 'provider');
  const vendor = kid(p, 'vendor') ?? kid(adf, 'vendor');
  const id = kid(p, 'id') ?? kid(customer, 'id');
  const tradeIn = trade && {
    year: text(kid(trade, 'year')),
    make: text(kid(trade, 'make')),
    model: text(kid(trade, 'model')),
    odometer: join([text(odometer), odometer && text(odometer) ? (odometer.attrs.units ?? '') : '']),
  };
  return {
    customer: personName(contact) || (contact === customer ? '' : personName(customer)),
    phone: text(phones.find((ph) => ['voice', 'cellphone', 'mobile', ''].includes((ph.attrs.type ?? '').toLowerCase())) ?? phones[0]),
    email: text(emails[0]),
    vehicle: vehicle ? join(['year', 'make', 'model', 'trim'].map((k) => text(kid(vehicle, k)))) : '',
    vin: text(kid(vehicle, 'vin')),
    tradeIn: tradeIn && Object.values(tradeIn).some(Boolean) ? tradeIn : null,
    comments: comments(p).join('\n'),
    provider: provider ? personName(provider) || text(kid(provider, 'service')) || text(provider) : '',
    dealer: { name: text(kid(vendor, 'vendorname')), id: text(kid(vendor, 'id')) },
    id: text(id),
    idSource: id?.attrs.source ?? '',
    resend: (p.attrs.status ?? '').toLowerCase() === 'resend',
    condition: conditionOf(vehicle?.attrs.status ?? ''),
    make: vehicle ? text(kid(vehicle, 'make')).slice(0, 40) : '',
    language:
      [contact, customer, p, adf]
        .map((el) => el?.attrs.lang ?? el?.attrs['xml:lang'] ?? '')
        .find(Boolean)
        ?.slice(0, 10) ?? '',
  };
}

/** The most a document may hold, in bytes as sent and in characters once its bare "&" are escaped: 1 MB. */
export const MAX_DOCUMENT = 1024 * 1024;

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isNameChar = (c: number) => isLetter(c) || isDigit(c) || c === 0x2e || c === 0x5f || c === 0x2d;

/** Where the reference starting at doc[at] ("&") ends after its ";", or -1 when the "&" is bare. */
function referenceEnd(doc: string, at: number): number {
  let i = at + 1;
  const c = doc.charCodeAt(i);
  if (isLetter(c)) {
    while (isNameChar(doc.charCodeAt(++i)));
  } else if (c === 0x23 /* # */) {
    const hex = doc.charCodeAt(i + 1) === 0x78; /* x */
    const digit = hex ? isHex : isDigit;
    i += hex ? 2 : 1;
    const first = i;
    while (digit(doc.charCodeAt(i))) i++;
    if (i === first) return -1;
  } else return -1;
  return doc.charCodeAt(i) === 0x3b /* ; */ ? i + 1 : -1;
}

/**
 * A bare "&" (senders paste "Tom & Ann" straight into the text) becomes "&amp;"; references and
 * CDATA sections and comments are left as they are. One pass, each character looked at a bounded
 * number of times (a name after "&" ends at the next "&"; a section without its end is looked for
 * once), and the result may not grow past `max` characters: a document of bare "&" would
 * otherwise grow five-fold. Past it, a 413 that says why.
 */
export function repairAmpersands(doc: string, max = MAX_DOCUMENT): string {
  // A section whose end is nowhere after one place is nowhere after any later place either.
  const unclosed = { '<![CDATA[': false, '<!--': false };
  const ends = { '<![CDATA[': ']]>', '<!--': '-->' } as const;
  const next = (what: string, from: number) => {
    const at = doc.indexOf(what, from);
    return at < 0 ? Infinity : at;
  };
  const out: string[] = [];
  let length = doc.length;
  let copied = 0;
  let i = 0;
  // The next "&" and "<!" at or after i, each found again only once passed: no stretch is searched twice.
  let amp = -1;
  let lt = -1;
  while (i < doc.length) {
    if (amp < i) amp = next('&', i);
    if (lt < i) lt = next('<!', i);
    if (amp === Infinity && lt === Infinity) break;
    if (lt < amp) {
      const open = doc.startsWith('<![CDATA[', lt) ? '<![CDATA[' : doc.startsWith('<!--', lt) ? '<!--' : null;
      const end = open && !unclosed[open] ? doc.indexOf(ends[open], lt + open.length) : -1;
      if (open && end < 0) unclosed[open] = true;
      // A section is kept whole; anything else after "<!" is read on from the next character.
      i = open && end >= 0 ? end + ends[open].length : lt + 2;
      continue;
    }
    const end = referenceEnd(doc, amp);
    if (end >= 0) {
      i = end;
      continue;
    }
    length += 4;
    if (length > max) {
      throw new ApiError(
        413,
        `The document is too large once its bare "&" characters are read as "&amp;" (max ${n(max)} characters): ` +
          'send "&" as "&amp;", or a smaller document.',
        'too_large',
      );
    }
    out.push(doc.slice(copied, amp), '&amp;');
    copied = i = amp + 1;
  }
  if (!out.length) return doc;
  out.push(doc.slice(copied));
  return out.join('');
}

/** Reads an ADF/XML document into its prospects; anything wrong or hostile is a 400 that says what. */
export function parseAdf(xml: string): Prospect[] {
  // A BOM, spaces or newlines before "<?xml" are ignored.
  const doc = xml.replace(/^[\uFEFF\s]+/, '');
  if (!doc.trim()) throw badRequest('The ADF/XML body is empty.');
  if (/<!(DOCTYPE|ENTITY)/i.test(doc)) throw badRequest('DOCTYPE and ENTITY declarations are not allowed in ADF/XML.');
  prescan(doc);
  const repaired = repairAmpersands(doc);
  const valid = XMLValidator.validate(repaired);
  if (valid !== true) throw badRequest(`The XML is not well-formed: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col}).`);
  let root: El | undefined;
  try {
    root = toEl('#document', nodesOf(parser.parse(repaired))).kids[0];
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest(`The XML could not be read: ${messageOf(err)}`);
  }
  if (root?.name !== 'adf') throw badRequest('The document is not ADF: its root element must be <adf>.');
  const prospects = kids(root, 'prospect');
  if (!prospects.length) throw badRequest('The ADF document has no <prospect>.');
  if (prospects.length > MAX_PROSPECTS) throw badRequest(`Too many prospects in one document (max ${MAX_PROSPECTS}).`);
  return prospects.map((p) => prospect(p, root));
}
