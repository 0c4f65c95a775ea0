import { z } from 'zod';
import * as a from '../../domain/contract/answers';
import { routes, type Route } from '../../domain/contract/routes';
import { completeLinkSchema, keyNameSchema, leadSchema, sendLinkSchema } from '../../domain/schemas';
import { SESSION_COOKIE } from '../auth/tokens';

/**
 * The public API as OpenAPI 3.1, served at GET /api/docs. Bodies and answers come from the same
 * zod schemas the server parses with and is checked against (domain/contract); what a schema
 * cannot say (summaries, examples, error answers) is written here, once per route.
 */

/** Named schemas, shown under components.schemas; a schema used inside another becomes a $ref. */
const INPUTS = { SendLink: sendLinkSchema, CompleteLink: completeLinkSchema, Lead: leadSchema, KeyName: keyNameSchema };
const ANSWERS = {
  Ok: a.ok,
  Error: a.refusal,
  Profile: a.profile,
  SessionUser: a.sessionUser,
  Session: a.session,
  Me: routes['GET /auth/me'].answer,
  Result: a.intakeResult,
  ApiKey: a.apiKey,
  KeyList: a.keyList,
  CreatedKey: a.createdKey,
  RevokedKey: a.revokedKey,
};

type Security = 'apiKey' | 'bearer' | 'session';
interface Operation {
  tag: 'Leads' | 'Sign-in' | 'Integration keys' | 'Documentation' | 'Web app (internal)';
  summary: string;
  description?: string;
  /** Any one of these lets the call through; none: anyone may call it. */
  security: Security[];
  /** The success status; 200 unless said. */
  status?: number;
  example?: { body?: unknown; answer?: unknown };
  errors: Record<number, string>;
}

const BAD_JSON = 'Bad input: the first problem, naming its field where it is about one.';
const MANAGER_ONLY = { 401: 'Not signed in.', 403: 'Signed in, but not a manager.' };
const ISO = '2026-03-02T15:04:05.000Z';
const KEY = { id: 3, name: 'Website', prefix: 'bdc_7Hq2', createdAt: ISO, lastUsedAt: null, revokedAt: null };
const PROFILE = {
  id: 'u_4f1c',
  email: 'ann@dealer.com',
  name: 'Ann Walker',
  role: 'staff',
  active: true,
  onDuty: true,
  snoozeUntil: null,
  disabled: false,
  deletedAt: null,
  greeting: null,
  signedInAt: ISO,
  createdAt: ISO,
  updatedAt: ISO,
};
const SESSION = {
  user: {
    uid: PROFILE.id,
    email: PROFILE.email,
    name: PROFILE.name,
    claimRole: null,
    profileRole: 'staff',
    role: 'staff',
    isManager: false,
    groupManager: false,
    stores: [{ id: 1, code: 'MAIN', name: 'Main store', timezone: 'America/New_York' }],
    store: 'MAIN',
    profile: PROFILE,
  },
};

/** The routes this document describes. The intake API, its keys, and signing in. */
const DOCUMENTED: { [R in Route | 'POST /v1/leads' | 'GET /docs']?: Operation } = {
  'POST /v1/leads': {
    tag: 'Leads',
    summary: 'Send one lead (JSON) or one or more prospects (ADF/XML)',
    description:
      'ADF/XML: every <prospect> becomes a lead and is answered on its own (assigned, unassigned, duplicate, or refused ' +
      'with its reason); the good ones come in even when another is refused. The customer is <customer><contact><name> ' +
      '(full, or first and last; <contact> may be left out); without a name, a phone or e-mail is enough and the lead comes ' +
      'in as "Customer <phone>" (or the e-mail), flagged for a salesman to name. Phone, e-mail, the <vehicle> with ' +
      'interest="buy" or "lease" (year/make/model/trim/VIN), a trade-in (interest="trade-in"), comments from prospect, ' +
      'customer, contact and vehicle, and the <provider> (in the prospect, in <vendor> or beside the prospect) as the ' +
      'source are read. With a key for the whole group, the <vendor> (its <id>, else its <vendorname>) picks the store the ' +
      'lead goes to, as mapped under Manager → Integrations; an unmapped one answers "unassigned" and waits for a group ' +
      'manager. Element names match in any case and with any namespace prefix. The encoding is taken from a BOM, ' +
      'the charset, or <?xml encoding>: UTF-8, UTF-16, ISO-8859-1 or Windows-1252. <id source="..."> (or <customer><id>) ' +
      'is the prospect id: the same id from the same key is a duplicate only for the same customer (name and a phone or ' +
      'e-mail) or when the prospect says status="resend". DOCTYPE and ENTITY declarations are refused. At most 1 MB, ' +
      '100 prospects. Per key (by default) 10 requests at once, then one a second; beyond that 429, with a Retry-After ' +
      'saying when the next one is let through. When too many documents wait to be read, 503 with a Retry-After.',
    security: ['apiKey', 'bearer'],
    status: 201,
    example: {
      body: { customer: 'Jane Doe', phone: '555-0100', email: 'jane@example.com', vehicle: '2024 Honda Accord', source: 'Website' },
      answer: { leads: [{ id: 1042, customer: 'Jane Doe', status: 'assigned', assignedTo: 'Ann Walker' }] },
    },
    errors: {
      400: 'Bad input: not well-formed or hostile XML, text that does not decode in its declared encoding, or every prospect refused.',
      401: 'The API key is missing, wrong or revoked.',
      409: 'A request with the same Idempotency-Key is still running (a claim left by a crash is taken over after 60 s at most).',
      413: 'The body is over 1 MB.',
      415: 'Neither JSON nor ADF/XML, or an encoding that is not read.',
      422: 'This Idempotency-Key was already used with a different request.',
      429: 'Too many requests with this key: past its burst, wait as Retry-After says.',
      503: 'The portal is busy reading other documents (or the database is not answering); try again as Retry-After says.',
    },
  },

  'GET /integrations/keys': {
    tag: 'Integration keys',
    summary: 'List the API keys (managers)',
    security: ['session'],
    example: { answer: { keys: [KEY] } },
    errors: MANAGER_ONLY,
  },
  'POST /integrations/keys': {
    tag: 'Integration keys',
    summary: 'Create an API key (managers); the key is shown in this answer only',
    security: ['session'],
    status: 201,
    example: { body: { name: 'Website' }, answer: { key: 'bdc_7Hq2…', apiKey: KEY } },
    errors: { 400: BAD_JSON, ...MANAGER_ONLY },
  },
  'POST /integrations/keys/:id/revoke': {
    tag: 'Integration keys',
    summary: 'Revoke an API key (managers): requests with it are refused from now on',
    security: ['session'],
    example: { answer: { apiKey: { ...KEY, revokedAt: ISO } } },
    errors: { ...MANAGER_ONLY, 404: 'No such key.' },
  },

  'POST /auth/link': {
    tag: 'Sign-in',
    summary: 'E-mail a sign-in link',
    description:
      'The answer is the same whether or not the address may sign in, so it does not tell which addresses exist. The link is valid for 15 minutes, once.',
    security: [],
    example: { body: { email: 'ann@dealer.com' }, answer: { ok: true } },
    errors: { 400: BAD_JSON, 429: 'Too many links asked for; wait a minute.' },
  },
  'POST /auth/complete': {
    tag: 'Sign-in',
    summary: 'Sign in with the e-mail and token of a link; sets the session cookie',
    security: [],
    example: { body: { email: 'ann@dealer.com', token: 'k3J9x2LqV8' }, answer: SESSION },
    errors: { 400: `${BAD_JSON} A used, expired or refused link answers code invalid-action-code.` },
  },
  'GET /auth/me': {
    tag: 'Sign-in',
    summary: 'Who is signed in (user null when no one)',
    security: [],
    example: { answer: SESSION },
    errors: {},
  },
  'POST /auth/logout': {
    tag: 'Sign-in',
    summary: 'Sign out: ends the session and clears its cookie',
    security: [],
    example: { answer: { ok: true } },
    errors: {},
  },
  'GET /docs': { tag: 'Documentation', summary: 'This document', security: [], errors: {} },
};

/**
 * Left out: what answers no JSON document of ours (the event stream, spreadsheets), the API's
 * own 404, and the routes outside the API. A route added to the server must be in the contract
 * (domain/contract/routes.ts, which describes it here), DOCUMENTED, or here (the test says so).
 */
export const LEFT_OUT = [
  'GET /api/events',
  'GET /api/tv/events',
  'GET /api/leads/export.csv',
  'GET /api/leads/funnel.csv',
  'GET /api/floor/report.csv',
  'GET /api/group/report.csv',
  'GET /api/sales/export.csv',
  'GET /api/sales/board.csv',
  // The SMS provider's webhooks: form-encoded, in the provider's shape, signed with its token.
  'POST /api/sms/inbound',
  'POST /api/sms/status',
  // Unknown API paths: the 404 answer, for every method.
  '* /api/*',
  // Outside the API: the probes of a load balancer, and the web app's pages.
  'GET /healthz',
  'GET /readyz',
  'GET /robots.txt',
  // Single sign-on's browser redirects (to the provider and back), pages rather than API.
  'GET /auth/oidc/start',
  'GET /auth/oidc/callback',
  'GET /',
  'GET /*',
];

type Described = Route | 'POST /v1/leads' | 'GET /docs';
/** Every route of the document: the contract's, the intake API and this document. */
const isRoute = (r: string): r is Route => Object.hasOwn(routes, r);
const described = (): Described[] => [...Object.keys(routes).filter(isRoute), 'POST /v1/leads', 'GET /docs'];

/** "METHOD /path" of every route the document describes, as the server registers it. */
export const documentedRoutes = () => described().map((r) => r.replace(' ', ' /api'));

/** The web app's own routes: in the document for completeness, marked internal (they change with the screens). */
function internal(route: Route): Operation {
  const def: { access: string; params?: unknown; query?: unknown; body?: unknown; status?: number } = routes[route];
  const errors: Record<number, string> = {};
  if (def.body || def.query) errors[400] = BAD_JSON;
  if (def.access === 'tv') errors[401] = 'No live TV link in the X-TV-Token header.';
  else if (def.access !== 'public') errors[401] = 'Not signed in.';
  if (def.access === 'manager') errors[403] = 'Signed in, but not a manager.';
  if (def.params) errors[404] = 'No such row.';
  // A TV link's route reads its secret, never a session.
  const security: Security[] = def.access === 'public' || def.access === 'tv' ? [] : ['session'];
  return { tag: 'Web app (internal)', summary: route, security, status: def.status, errors };
}

/** A query schema's fields as OpenAPI query parameters. */
function queryParameters(query: z.ZodType) {
  const json = z.toJSONSchema(query, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' });
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: !!json.required?.includes(name), schema }));
}

function components() {
  const ids = new Map<z.ZodType, string>();
  const registry = (schemas: Record<string, z.ZodType>) => {
    const reg = z.registry<{ id: string }>();
    for (const [id, schema] of Object.entries(schemas)) {
      reg.add(schema, { id });
      ids.set(schema, id);
    }
    return reg;
  };
  const convert = (schemas: Record<string, z.ZodType>, io: 'input' | 'output') =>
    z.toJSONSchema(registry(schemas), {
      io,
      target: 'draft-2020-12',
      uri: (id) => `#/components/schemas/${id}`,
      // Refinements and transforms check more than JSON Schema says; the shape is what a caller needs.
      unrepresentable: 'any',
      override: ({ jsonSchema }) => {
        // "format: date-time" says it; zod's long pattern for it only makes the document harder to read.
        if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
      },
    }).schemas;
  const schemas = { ...convert(INPUTS, 'input'), ...convert(ANSWERS, 'output') };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  /** A named schema by reference; any other (the web app's internal routes) written out in place. */
  const ref = (schema: z.ZodType, io: 'input' | 'output' = 'output'): object => {
    const id = ids.get(schema);
    if (id) return { $ref: `#/components/schemas/${id}` };
    const { $schema, ...inline } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });
    void $schema;
    return inline;
  };
  return { schemas, ref };
}

const ADF_EXAMPLE =
  '<?xml version="1.0"?><?adf version="1.0"?><adf><prospect><id source="Website">A-1</id>' +
  '<vehicle><year>2024</year><make>Honda</make><model>Accord</model></vehicle>' +
  '<customer><contact><name part="first">Jane</name><name part="last">Doe</name><phone>555-0100</phone></contact>' +
  '<comments><![CDATA[Trade-in?]]></comments></customer><provider><name part="full">Website</name></provider>' +
  '</prospect></adf>';

/** The parts only the intake route has: its XML bodies, the Idempotency-Key, and a 200 for repeats. */
function intakeParts(ref: (s: z.ZodType) => object, op: Operation) {
  return {
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', maxLength: 200 },
        description: 'Send the same value when you retry: the request is carried out once and the first answer is repeated (for 24 hours).',
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: ref(leadSchema), example: op.example?.body },
        'application/x-adf+xml': { schema: { type: 'string' }, example: ADF_EXAMPLE },
        'text/xml': { schema: { type: 'string' } },
        'application/xml': { schema: { type: 'string' } },
        'text/plain': { schema: { type: 'string', description: 'ADF/XML posted as plain text (e-mail relays).' } },
      },
    },
    extra: {
      '200': {
        description: 'Every lead was a duplicate: nothing new was stored.',
        content: {
          'application/json': {
            schema: ref(a.intakeResult),
            example: { leads: [{ id: 1042, customer: 'Jane Doe', status: 'duplicate', assignedTo: 'Ann Walker' }] },
          },
        },
      },
    },
  };
}

export function openapi(publicUrl: string) {
  const { schemas, ref } = components();
  const paths: Record<string, Record<string, object>> = {};
  for (const route of described()) {
    const op = DOCUMENTED[route] ?? (isRoute(route) ? internal(route) : null);
    if (!op) throw new Error(`${route} is described nowhere`);
    const [method, path] = route.split(' ');
    const contract: { body?: z.ZodType; answer?: z.ZodType; query?: z.ZodType } =
      route === 'POST /v1/leads' ? { answer: a.intakeResult } : route === 'GET /docs' ? {} : routes[route];
    const pathParams = [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: name === 'id' && path.includes('/users/') ? 'string' : 'integer' },
    }));
    const queryParams = contract.query ? queryParameters(contract.query) : [];
    const intake = route === 'POST /v1/leads' ? intakeParts(ref, op) : null;
    const errorAnswer = { content: { 'application/json': { schema: ref(a.refusal) } } };
    paths[path.replace(/:(\w+)/g, '{$1}')] ??= {};
    paths[path.replace(/:(\w+)/g, '{$1}')][method.toLowerCase()] = {
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      operationId: route.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()).replace(/^./, (c) => c.toLowerCase()),
      security: op.security.length ? op.security.map((s) => ({ [s]: [] })) : [],
      ...(op.tag === 'Web app (internal)' ? { 'x-internal': true } : {}),
      ...(pathParams.length || queryParams.length || intake ? { parameters: [...pathParams, ...queryParams, ...(intake?.parameters ?? [])] } : {}),
      ...(intake
        ? { requestBody: intake.requestBody }
        : contract.body
          ? { requestBody: { required: true, content: { 'application/json': { schema: ref(contract.body, 'input'), example: op.example?.body } } } }
          : {}),
      responses: {
        [op.status ?? 200]: {
          description: 'Done.',
          content: contract.answer
            ? { 'application/json': { schema: ref(contract.answer), ...(op.example?.answer ? { example: op.example.answer } : {}) } }
            : { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document.' } } },
        },
        ...intake?.extra,
        ...Object.fromEntries(Object.entries(op.errors).map(([status, description]) => [status, { description, ...errorAnswer }])),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'BDC Portal API',
      version: '1.0.0',
      description:
        'Send leads from your website, marketplaces and OEM programmes. Each lead is handed to the next salesman in the ' +
        'round robin at once, and the salesman is e-mailed. When no one is on duty the lead is kept unassigned and handed ' +
        'out as soon as someone is. Ask a manager for an API key (Management → Integrations). Managers manage the keys, ' +
        'and everyone signs in, through the routes below.',
    },
    servers: [{ url: `${publicUrl}/api` }],
    tags: [
      { name: 'Leads', description: 'The intake API, for integrations.' },
      { name: 'Integration keys', description: "The intake API's keys, for managers." },
      { name: 'Sign-in', description: 'Sessions: a link sent by e-mail, then a cookie.' },
      { name: 'Documentation' },
      {
        name: 'Web app (internal)',
        description: "The portal's own screens' routes, marked x-internal: they change with the screens, so integrations should not rely on them.",
      },
    ],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The key shown once when a manager created it.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The same key as `Authorization: Bearer <key>`.' },
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by POST /auth/complete.' },
      },
      schemas,
    },
    paths,
  };
}
