import { ApiError } from '../http/errors';
import { parseAdf, type Prospect } from './adf';
import { decodeXml } from './encoding';

export const TYPES_WE_TAKE =
  'Send the lead as JSON (application/json) or ADF/XML (application/xml, text/xml or application/x-adf+xml; XML sent as text/plain is read too).';

/** A document as read: its text (kept for managers, hashed for Idempotency-Key) and its prospects. */
export interface ReadDocument {
  xml: string;
  prospects: Prospect[];
}

/**
 * An XML body from its bytes to its prospects: decoded by the encoding it declares, then read.
 * A text/plain body must be XML (e-mail relays post ADF that way). Anything wrong is an ApiError.
 * This is the CPU-heavy part of intake: it runs in the worker (./worker.ts), never on the event loop.
 */
export function readDocument(bytes: Uint8Array, contentType: string): ReadDocument {
  const xml = decodeXml(bytes, contentType);
  if (/^text\/plain/i.test(contentType) && !xml.replace(/^[\uFEFF\s]+/, '').startsWith('<')) throw new ApiError(415, TYPES_WE_TAKE);
  return { xml, prospects: parseAdf(xml) };
}
