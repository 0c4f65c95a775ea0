import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { implement } from '../http/implement';
import { ApiError, badRequest, notFound, parse, unauthorized } from '../http/errors';
import { take, type Bucket } from '../http/limits';
import { MAX_DOCUMENT } from './adf';
import { createIntakeParser, IntakeBusy, type IntakeParser } from './parser';
import { TYPES_WE_TAKE, type ReadDocument } from './read';
import { openapi } from '../docs/openapi';
import { leadSchema } from '../../domain/schemas';
import {
  authenticate,
  claimIdempotency,
  createKey,
  intake,
  listKeys,
  prospectsToLeads,
  releaseIdempotency,
  requestHash,
  revokeKey,
  underIdempotencyKey,
  saveIdempotency,
  toNewLead,
  leadDocument,
  type ApiKey,
  type Planned,
} from './service';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
}

const XML_TYPES = ['application/x-adf+xml', 'text/xml', 'application/xml'];

/** An XML body as bytes: it is decoded by the encoding it declares, once the key is known. */
class XmlBody {
  constructor(
    public bytes: Buffer,
    public contentType: string,
  ) {}
}

/** The document read off the event loop (./parser.ts); a full queue is a 503 that says when to try again. */
async function readXml(parser: IntakeParser, body: XmlBody, reply: FastifyReply): Promise<ReadDocument> {
  try {
    return await parser.read(body.bytes, body.contentType);
  } catch (err) {
    if (err instanceof IntakeBusy) reply.header('retry-after', String(err.retryAfter));
    throw err;
  }
}

const perMinute = (n: number) => (n === 1 ? 'one a minute' : `${n} a minute`);

const keyOf = (req: FastifyRequest) => {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header) return header.trim();
  const auth = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return auth?.[1];
};

/**
 * POST /api/v1/leads: leads from integrations, authenticated by an API key, not a session.
 * `clock` is what time it is for the per-key limit (tests move it).
 */
export async function intakeRoutes(app: FastifyInstance, { ctx, clock = Date.now }: { ctx: Ctx; clock?: () => number }) {
  const { db } = ctx.dbh;
  const parser = createIntakeParser({ threads: ctx.config.INTAKE_WORKERS, log: ctx.log });
  app.addHook('onClose', () => parser.close());
  // Per key: a burst, then the rate (a token bucket counted in the database, so it holds across app servers).
  const bucket: Bucket = { burst: ctx.config.INTAKE_BURST, perMinute: ctx.config.INTAKE_PER_MINUTE };
  app.decorateRequest('apiKey', null);
  // Here the body is decoded by the encoding the document declares, not taken as UTF-8 only.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser([...XML_TYPES, 'text/plain'], { parseAs: 'buffer' }, (req, body: Buffer, done) =>
    done(null, new XmlBody(body, req.headers['content-type'] ?? '')),
  );
  app.addContentTypeParser('*', (_req, _payload, done) => done(new ApiError(415, TYPES_WE_TAKE)));

  app.post(
    '/leads',
    {
      config: { access: 'apikey' },
      bodyLimit: MAX_DOCUMENT,
      // Before the body is read: a caller without a valid key gets 401, one past its allowance 429, and nothing else.
      onRequest: async (req, reply) => {
        const key = (req.apiKey = await authenticate(db, keyOf(req)));
        const t = await take(db, `intake:${key.id}`, clock(), bucket);
        reply.header('x-ratelimit-limit', String(bucket.burst)).header('x-ratelimit-remaining', String(t.remaining));
        if (!t.allowed) {
          const seconds = Math.max(1, Math.ceil(t.retryAfterMs / 1000));
          reply.header('retry-after', String(seconds));
          throw new ApiError(
            429,
            `Too many requests with this API key: it may send ${bucket.burst} at once, then ${perMinute(bucket.perMinute)}. ` +
              `The next one is let through in ${seconds} s.`,
            'rate_limited',
          );
        }
      },
    },
    async (req, reply) => {
      const key = req.apiKey;
      if (!key) throw unauthorized();
      const doc = req.body instanceof XmlBody ? await readXml(parser, req.body, reply) : null;
      const xml = doc?.xml ?? null;
      let leads: Planned[] = doc ? prospectsToLeads(doc.prospects, key) : [{ lead: toNewLead(parse(leadSchema, req.body), key) }];
      const idem = req.headers['idempotency-key'];
      if (idem !== undefined && (typeof idem !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(idem))) {
        throw badRequest('Idempotency-Key must be 1 to 200 visible ASCII characters.');
      }
      if (idem) {
        const hash = requestHash(xml !== null ? 'xml' : 'json', xml ?? req.body);
        const prior = await claimIdempotency(db, key.id, idem, hash, ctx.config.INTAKE_LEASE_SECONDS * 1000);
        if (prior) return reply.status(prior.status).header('idempotent-replayed', 'true').send(prior.body);
        leads = underIdempotencyKey(leads, key, idem, hash);
      }
      try {
        const { status, body } = await intake(ctx, leads, key, xml ?? undefined);
        if (idem) await saveIdempotency(db, key.id, idem, status, body);
        return reply.status(status).send(body);
      } catch (err) {
        if (idem) await releaseIdempotency(db, key.id, idem);
        throw err;
      }
    },
  );
}

/** Managers create, list and revoke integration keys; anyone may read the API's description. */
export async function integrationRoutes(app: FastifyInstance, { ctx: root }: { ctx: Ctx }) {
  app.get('/docs', access('public'), async () => openapi(root.config.PUBLIC_URL));

  implement(app, 'GET /integrations/keys', async ({ ctx }) => ({ keys: await listKeys(ctx.dbh.db, ctx.store.id) }));

  implement(app, 'POST /integrations/keys', async ({ me, ctx, body }) => createKey(ctx.dbh.db, ctx.store.id, body.name, me.id));

  /** The ADF document a lead came in, as text, for managers only. */
  implement(app, 'GET /leads/:id/document', async ({ ctx, params }) => {
    const document = await leadDocument(ctx.dbh.db, ctx.store.id, params.id);
    if (document === null) throw notFound('This lead did not come in as an ADF document.');
    return { document };
  });

  implement(app, 'POST /integrations/keys/:id/revoke', async ({ ctx, params }) => ({ apiKey: await revokeKey(ctx.dbh.db, ctx.store.id, params.id) }));
}
