import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { pathId } from '../http/params';
import { HttpError, badRequest, parse } from '../http/errors';
import { parseAdf } from './adf';
import { decodeBody } from '../http/text';
import { openapi } from './openapi';
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
  type ApiKey,
} from './service';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
}

export const XML_TYPES = ['application/x-adf+xml', 'text/xml', 'application/xml'];

class XmlBody {
  constructor(public text: string) {}
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
  app.addContentTypeParser(XML_TYPES, { parseAs: 'buffer' }, (_req, body, done) => {
    try {
      done(null, new XmlBody(decodeBody(body as Buffer)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.addContentTypeParser('*', (_req, _payload, done) =>
    done(new HttpError(415, 'Send the lead as JSON (application/json) or ADF/XML (application/x-adf+xml or text/xml).')),
  );

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
      const xml = req.body instanceof XmlBody;
      let leads = xml ? prospectsToLeads(parseAdf((req.body as XmlBody).text), key) : [toNewLead(parse(leadSchema, req.body), key)];
      const idem = req.headers['idempotency-key'];
      if (idem !== undefined && (typeof idem !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(idem))) {
        throw badRequest('Idempotency-Key must be 1 to 200 visible ASCII characters.');
      }
      if (idem) {
        const hash = requestHash(xml ? 'xml' : 'json', xml ? (req.body as XmlBody).text : req.body);
        const prior = await claimIdempotency(db, key.id, idem, hash, ctx.config.INTAKE_LEASE_SECONDS * 1000);
        if (prior) return reply.status(prior.status).header('idempotent-replayed', 'true').send(prior.body);
        leads = underIdempotencyKey(leads, key, idem, hash);
      }
      try {
        const { status, body } = await intake(ctx, leads, key);
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

  app.post('/integrations/keys/:id/revoke', access('manager'), async (req) => {
    const id = pathId(req.params, 'API key not found');
    const apiKey = await revokeKey(db, id);
    return { apiKey };
  });
}
