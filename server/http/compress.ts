import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Files worth compressing: text. Images and fonts are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|map|webmanifest)$/i;
/** Below this an answer fits one packet anyway; compressing it costs more than it saves. */
const API_MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Encoding = 'br' | 'gzip';

/** The best encoding the client accepts (brotli, else gzip), honouring q=0; null for none. */
export function pickEncoding(header: string | string[] | undefined): Encoding | null {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const q = new Map<string, number>();
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (name: Encoding) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

/** Adds Accept-Encoding to Vary, keeping what is there. */
function varyOnEncoding(reply: FastifyReply) {
  const had = reply.getHeader('vary');
  const list = (Array.isArray(had) ? had.join(',') : String(had ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.some((v) => v.toLowerCase() === 'accept-encoding' || v === '*')) list.push('Accept-Encoding');
  reply.header('vary', list.join(', '));
}

/**
 * Writes name.br (brotli, best) and name.gz (gzip, best) beside every text file under dir, once
 * at build time, so the server sends them as they are (@fastify/static preCompressed).
 * index.html is a template the server renders and compresses itself.
 */
export function precompressDir(dir: string): { files: number } {
  let files = 0;
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      // .vite holds the build's manifest, read by the server, never sent.
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.')) walk(full);
      } else if (COMPRESSIBLE.test(entry.name) && !(d === dir && entry.name === 'index.html')) {
        const body = fs.readFileSync(full);
        fs.writeFileSync(`${full}.br`, brotliBest(body));
        fs.writeFileSync(`${full}.gz`, zlib.gzipSync(body, { level: 9 }));
        files++;
      }
    }
  };
  walk(dir);
  return { files };
}

const brotliBest = (body: Buffer | string) =>
  zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body) },
  });

/** A page kept in memory in every encoding, compressed once. */
export function precompressed(body: string) {
  return { identity: Buffer.from(body), br: brotliBest(body), gzip: zlib.gzipSync(body, { level: 9 }) };
}

/** Sends a precompressed page in the best encoding the client accepts. */
export function sendPrecompressed(req: FastifyRequest, reply: FastifyReply, page: ReturnType<typeof precompressed>) {
  const enc = pickEncoding(req.headers['accept-encoding']);
  varyOnEncoding(reply);
  if (enc) reply.header('content-encoding', enc);
  return reply.send(enc ? page[enc] : page.identity);
}

/**
 * JSON answers of the API above API_MIN_BYTES go out compressed (brotli at a fast level, else
 * gzip). Streams (live events) are left alone.
 */
export function compressApi(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/api/') || req.method === 'HEAD') return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    if (Buffer.byteLength(payload) >= API_MIN_BYTES && !reply.getHeader('content-encoding')) return compressNow(req, reply, payload);
    varyOnEncoding(reply);
    return payload;
  });
}

/** An answer made for this request alone, compressed at a fast level in the best encoding the client accepts. */
export async function compressNow(req: FastifyRequest, reply: FastifyReply, payload: string | Buffer) {
  varyOnEncoding(reply);
  const enc = pickEncoding(req.headers['accept-encoding']);
  if (!enc) return payload;
  const out =
    enc === 'br'
      ? await brotli(payload, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } })
      : await gzip(payload, { level: 6 });
  reply.header('content-encoding', enc);
  reply.removeHeader('content-length');
  return out;
}
