import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { pathId } from '../http/params';
import { HttpError, badRequest, notFound, parse } from '../http/errors';
import { parseAdf } from './adf';
import { decodeXml } from './encoding';
import { openapi } from '../docs/openapi';
import { keyNameSchema, leadSchema } from '../../domain/schemas';
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
  INTAKE_BODY_LIMIT,
  INTAKE_PER_MINUTE,
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
const TYPES_WE_TAKE =
  'Send the lead as JSON (application/json) or ADF/XML (application/xml, text/xml or application/x-adf+xml; XML sent as text/plain is read too).';

/** An XML body as bytes: it is decoded by the encoding it declares, once the key is known. */
class XmlBody {
  constructor(
    public bytes: Buffer,
    public contentType: string,
  ) {}
}

/** The document's text; a text/plain body must be XML (e-mail relays post ADF that way). */
function readXml(body: XmlBody): string {
  const text = decodeXml(body.bytes, body.contentType);
  if (/^text\/plain/i.test(body.contentType) && !text.replace(/^[\uFEFF\s]+/, '').startsWith('<')) throw new HttpError(415, TYPES_WE_TAKE);
  return text;
}

const keyOf = (req: FastifyRequest) => {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header) return header.trim();
  const auth = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return auth?.[1];
};

/** POST /api/v1/leads: leads from integrations, authenticated by an API key, not a session. */
export async function intakeRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;
  app.decorateRequest('apiKey', null);
  // Here the body is decoded by the encoding the document declares, not taken as UTF-8 only.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser([...XML_TYPES, 'text/plain'], { parseAs: 'buffer' }, (req, body, done) =>
    done(null, new XmlBody(body as Buffer, req.headers['content-type'] ?? '')),
  );
  app.addContentTypeParser('*', (_req, _payload, done) => done(new HttpError(415, TYPES_WE_TAKE)));

  app.post(
    '/leads',
    {
      config: {
        access: 'apikey',
        rateLimit: { max: INTAKE_PER_MINUTE, timeWindow: 60_000, keyGenerator: (req: FastifyRequest) => `apikey:${req.apiKey?.id ?? req.ip}` },
      },
      bodyLimit: INTAKE_BODY_LIMIT,
      // Before the body is read: a caller without a valid key gets 401 and nothing else.
      onRequest: async (req) => {
        req.apiKey = await authenticate(db, keyOf(req));
      },
    },
    async (req, reply) => {
      const key = req.apiKey!;
      const xml = req.body instanceof XmlBody ? readXml(req.body) : null;
      let leads: Planned[] = xml !== null ? prospectsToLeads(parseAdf(xml), key) : [{ lead: toNewLead(parse(leadSchema, req.body), key) }];
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
export async function integrationRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;
  app.get('/docs', access('public'), async () => openapi(ctx.config.PUBLIC_URL));

  app.get('/integrations/keys', access('manager'), async () => ({ keys: await listKeys(db) }));

  app.post('/integrations/keys', access('manager'), async (req, reply) => {
    const { name } = parse(keyNameSchema, req.body);
    const created = await createKey(db, name, req.user!.id);
    return reply.status(201).send(created);
  });

  /** The ADF document a lead came in, as text, for managers only. */
  app.get('/leads/:id/document', access('manager'), async (req) => {
    const id = pathId(req.params, 'Lead not found');
    const document = await leadDocument(db, id);
    if (document === null) throw notFound('This lead did not come in as an ADF document.');
    return { document };
  });

  app.post('/integrations/keys/:id/revoke', access('manager'), async (req) => {
    const id = pathId(req.params, 'API key not found');
    const apiKey = await revokeKey(db, id);
    return { apiKey };
  });
}
