import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { badRequest } from '../http/errors';

/** What one ADF <prospect> says, before the lead's own checks (lengths, a customer name). */
export interface Prospect {
  customer: string;
  phone: string;
  email: string;
  vehicle: string;
  vin: string;
  comments: string;
  provider: string;
  id: string;
  idSource: string;
}

export const MAX_PROSPECTS = 100;
/** Far above any real ADF lead, far below what costs the parser time. */
export const ADF_LIMITS = { elements: 3000, attributes: 2000, attributesPerElement: 20, attributeLength: 1000, tagLength: 2000, textLength: 32_000, depth: 20 };

const n = (x: number) => x.toLocaleString('en-US');

/**
 * One linear pass over the document before the parser sees it: counts elements, attributes per
 * element and in all, nesting, and measures every tag, attribute and text run. A hostile document (tens
 * of thousands of attributes on one element, megabytes in one attribute) is refused here in a
 * few milliseconds instead of holding the event loop for a second in the parser.
 */
export function prescan(doc: string) {
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
// below in a single pass, so "&amp;lt;" stays "&lt;".
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
});

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

type Node = any;
const all = (v: Node): Node[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const first = (v: Node): Node => all(v)[0];
const attr = (v: Node, name: string): string => (v && typeof v === 'object' && typeof v[`@${name}`] === 'string' ? decode(v[`@${name}`]).trim() : '');

/** The text of an element: its character data (decoded) and its CDATA sections (kept as they are). */
function text(v: Node): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'object') return decode(String(v)).trim();
  if (Array.isArray(v)) return text(v[0]);
  const cdata = all(v['#cdata']).map(String).join('');
  return (decode(String(v['#text'] ?? '')) + cdata).trim();
}

const join = (parts: string[]) => parts.filter(Boolean).join(' ');

function personName(contact: Node): string {
  const names = all(contact?.name);
  const part = (p: string) => text(names.find((n) => attr(n, 'part').toLowerCase() === p));
  return part('full') || join([part('first'), part('middle'), part('last')]) || text(names.find((n) => !attr(n, 'part')));
}

function prospect(p: Node): Prospect {
  const customer = first(p?.customer);
  const contact = first(customer?.contact);
  const phones = all(contact?.phone);
  const vehicle = first(p?.vehicle);
  const provider = first(p?.provider);
  const id = first(p?.id);
  return {
    customer: personName(contact),
    phone: text(phones.find((ph) => (attr(ph, 'type') || 'voice') === 'voice') ?? phones[0]),
    email: text(first(contact?.email)),
    vehicle: join(['year', 'make', 'model', 'trim'].map((k) => text(first(vehicle?.[k])))),
    vin: text(first(vehicle?.vin)),
    comments: text(first(customer?.comments)) || text(first(vehicle?.comments)),
    provider: personName(provider) || text(first(provider?.service)),
    id: text(id),
    idSource: attr(id, 'source'),
  };
}

/** Reads an ADF/XML document into its prospects; anything wrong or hostile is a 400 that says what. */
export function parseAdf(xml: string): Prospect[] {
  const doc = xml.replace(/^\uFEFF/, '');
  if (!doc.trim()) throw badRequest('The ADF/XML body is empty.');
  if (/<!(DOCTYPE|ENTITY)/i.test(doc)) throw badRequest('DOCTYPE and ENTITY declarations are not allowed in ADF/XML.');
  prescan(doc);
  const valid = XMLValidator.validate(doc);
  if (valid !== true) throw badRequest(`The XML is not well-formed: ${valid.err.msg} (line ${valid.err.line}).`);
  let tree: Node;
  try {
    tree = parser.parse(doc);
  } catch (err) {
    throw badRequest(`The XML could not be read: ${(err as Error).message}`);
  }
  const adf = first(tree?.adf);
  if (adf === undefined) throw badRequest('The document is not ADF: its root element must be <adf>.');
  const prospects = all(adf?.prospect);
  if (!prospects.length) throw badRequest('The ADF document has no <prospect>.');
  if (prospects.length > MAX_PROSPECTS) throw badRequest(`Too many prospects in one document (max ${MAX_PROSPECTS}).`);
  return prospects.map(prospect);
}
