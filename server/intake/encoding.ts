import { ApiError, badRequest } from '../http/errors';
import { BAD_TEXT, isCleanText } from '../http/text';

/** The encodings an ADF sender may declare, by the names senders use for them. */
const LABELS: Record<string, Encoding> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'utf-16': 'utf-16',
  utf16: 'utf-16',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  iso_8859_1: 'windows-1252',
  'iso_8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'latin-1': 'windows-1252',
  l1: 'windows-1252',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'x-cp1252': 'windows-1252',
};
type Encoding = 'utf-8' | 'utf-16' | 'utf-16le' | 'utf-16be' | 'windows-1252';
const ACCEPTED_ENCODINGS = 'UTF-8, UTF-16, ISO-8859-1 or Windows-1252';

/** The charset parameter of a Content-Type header, lower-case, or ''. */
const charsetOf = (contentType: string | undefined) => /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase() ?? '';

function encodingFor(label: string, where: string): Encoding {
  // Own keys only: "__proto__" or "constructor" is a label we do not read, not a property of Object.
  const e = Object.hasOwn(LABELS, label.toLowerCase()) ? LABELS[label.toLowerCase()] : undefined;
  if (!e) throw new ApiError(415, `The ${where} "${label}" is not supported: send ${ACCEPTED_ENCODINGS}.`);
  return e;
}

/** UTF-16 without a byte-order mark: the zero byte of "<" or of leading whitespace says which half comes first. */
const utf16Order = (b: Uint8Array): 'utf-16le' | 'utf-16be' => (b.length > 1 && b[0] === 0 && b[1] !== 0 ? 'utf-16be' : 'utf-16le');
const looksUtf16 = (b: Uint8Array) => b.length > 1 && (b[0] === 0) !== (b[1] === 0);

/**
 * Which encoding a document is in, as XML says: a byte-order mark first, then the HTTP charset,
 * then the XML declaration's encoding; UTF-8 when none says. Returns the encoding, how many
 * bytes of BOM to skip, and what declared it (for the message when it does not decode).
 */
export function detectEncoding(buf: Uint8Array, contentType?: string): { encoding: Exclude<Encoding, 'utf-16'>; skip: number; by: string } {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return { encoding: 'utf-8', skip: 3, by: 'its byte-order mark' };
  if (buf[0] === 0xff && buf[1] === 0xfe) return { encoding: 'utf-16le', skip: 2, by: 'its byte-order mark' };
  if (buf[0] === 0xfe && buf[1] === 0xff) return { encoding: 'utf-16be', skip: 2, by: 'its byte-order mark' };
  const charset = charsetOf(contentType);
  if (charset) {
    const e = encodingFor(charset, 'charset');
    return { encoding: e === 'utf-16' ? utf16Order(buf) : e, skip: 0, by: `charset=${charset}` };
  }
  // UTF-16 without a BOM or charset: "<?" with a zero byte beside each character.
  if (looksUtf16(buf)) return { encoding: utf16Order(buf), skip: 0, by: 'its byte layout (UTF-16)' };
  const head = Buffer.from(buf.subarray(0, 512)).toString('latin1');
  const declared = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([^"']{1,40})["']/i.exec(head)?.[1];
  if (declared) {
    const e = encodingFor(declared, 'XML encoding');
    // ".NET wrote it to a string": the declaration says UTF-16 but the bytes are one per character.
    if (e === 'utf-16') return { encoding: 'utf-8', skip: 0, by: `<?xml encoding="${declared}"> on single-byte text (read as UTF-8)` };
    return { encoding: e, skip: 0, by: `<?xml encoding="${declared}">` };
  }
  return { encoding: 'utf-8', skip: 0, by: 'default (no BOM, charset or XML encoding was given)' };
}

/**
 * Windows-1252's 0x80-0x9F (the euro sign, curly quotes, dashes...). ISO-8859-1 has control
 * characters there, which no lead contains, so both are read as Windows-1252, as browsers do.
 * (Node 20's TextDecoder reads this label as plain Latin-1, so the table is here.)
 */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const windows1252 = (b: Uint8Array) =>
  Buffer.from(b)
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]);

const NAMES = { 'utf-8': 'UTF-8', 'utf-16le': 'UTF-16LE', 'utf-16be': 'UTF-16BE', 'windows-1252': 'ISO-8859-1/Windows-1252' } as const;

/**
 * The document's text in the encoding it declares. What cannot be decoded is a 400 that names the
 * encoding and says where it came from; NUL and lone surrogates are refused as everywhere else.
 */
export function decodeXml(buf: Uint8Array, contentType?: string): string {
  const { encoding, skip, by } = detectEncoding(buf, contentType);
  let s: string;
  try {
    const bytes = buf.subarray(skip);
    s = encoding === 'windows-1252' ? windows1252(bytes) : new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw badRequest(
      `The document is not valid ${NAMES[encoding]} text (the encoding was taken from ${by}), so it is not valid Unicode as sent. ` +
        `Declare the encoding it is in (charset=, or <?xml encoding="...">): ${ACCEPTED_ENCODINGS}.`,
      'bad_text',
    );
  }
  if (!isCleanText(s)) throw new ApiError(400, BAD_TEXT, 'bad_text');
  return s;
}
