import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';
import { toError } from '../../domain/errors';

/**
 * One guard for all text that comes in: the address (path and query, raw and percent-decoded)
 * and every body (JSON, XML, plain text) must be valid Unicode without NUL. Anything else is a
 * 400 here, before a route or a database sees it: SQLite's full-text search fails on a NUL,
 * PostgreSQL refuses it in text, and a lone surrogate is stored differently from what was sent.
 */
export const BAD_TEXT = 'Text must be valid Unicode (UTF-8) without NUL characters.';
const MAX_URL = 8 * 1024;

const badText = () => new ApiError(400, BAD_TEXT, 'bad_text');

/** True for a string a database stores exactly as it was sent. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isCleanText = (s: string) => !LONE_SURROGATE.test(s) && !s.includes('\u0000');

/** Strict decoding: invalid UTF-8 is an error, never a silent U+FFFD. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeBody(buf: Buffer): string {
  let s: string;
  try {
    s = utf8.decode(buf);
  } catch {
    throw badText();
  }
  if (s.includes('\u0000')) throw badText();
  return s;
}

/** Far beyond any form or lead we take, far below what costs time to walk. */
const JSON_LIMITS = { depth: 32, keys: 20_000 };
export const JSON_TOO_DEEP = `JSON may nest at most ${JSON_LIMITS.depth} levels deep.`;
export const JSON_TOO_MANY_KEYS = `JSON may hold at most ${JSON_LIMITS.keys.toLocaleString('en-US')} keys and values.`;

/**
 * Every string in a parsed JSON value, keys included (JSON escapes can spell "\u0000" and "\ud800"),
 * walked with a stack of its own: a document nested thousands deep is refused, not a stack overflow.
 */
function checkValue(root: unknown): void {
  const stack: [unknown, number][] = [[root, 0]];
  let seen = 0;
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, depth] = next;
    if (++seen > JSON_LIMITS.keys) throw new ApiError(400, JSON_TOO_MANY_KEYS, 'json_too_large');
    if (typeof v === 'string') {
      if (!isCleanText(v)) throw badText();
    } else if (v && typeof v === 'object') {
      if (depth >= JSON_LIMITS.depth) throw new ApiError(400, JSON_TOO_DEEP, 'json_too_deep');
      if (Array.isArray(v)) {
        const items: readonly unknown[] = v;
        for (const x of items) stack.push([x, depth + 1]);
      } else
        for (const [k, x] of Object.entries(v)) {
          if (!isCleanText(k)) throw badText();
          stack.push([x, depth + 1]);
        }
    }
  }
}

/** The address as sent, checked once: percent-escapes must decode to clean UTF-8. */
function checkUrl(url: string) {
  if (url.length > MAX_URL) throw new ApiError(414, 'The address is too long.');
  if (!url.includes('%') && isCleanText(url)) return;
  for (const part of url.split(/[?&=]/)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw badText();
    }
    if (!isCleanText(decoded)) throw badText();
  }
}

/** Registers the guard on the root instance: the address hook and the body parsers. */
export function textGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (req) => checkUrl(req.raw.url ?? ''));

  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    let text: string;
    try {
      text = decodeBody(body);
    } catch (err) {
      return done(toError(err), undefined);
    }
    void json(req, text, (err, value) => {
      if (err) return done(err, undefined);
      try {
        checkValue(value);
      } catch (e) {
        return done(toError(e), undefined);
      }
      done(null, value);
    });
  });
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_req, body: Buffer, done) => {
    try {
      done(null, decodeBody(body));
    } catch (err) {
      done(toError(err), undefined);
    }
  });
}
