import { INTAKE_PER_MINUTE } from './service';

/** The intake API as OpenAPI 3.1, served at GET /api/docs. */
export const openapi = (publicUrl: string) => ({
  openapi: '3.1.0',
  info: {
    title: 'BDC Portal lead intake API',
    version: '1.0.0',
    description:
      'Send leads from your website, marketplaces and OEM programmes. Each lead is handed to the next salesman in the ' +
      'round robin at once, and the salesman is e-mailed. When no one is on duty the lead is kept unassigned and handed ' +
      'out as soon as someone is. Ask a manager for an API key (Management → Integrations).',
  },
  servers: [{ url: `${publicUrl}/api` }],
  security: [{ apiKey: [] }, { bearer: [] }],
  components: {
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The key shown once when a manager created it.' },
      bearer: { type: 'http', scheme: 'bearer', description: 'The same key as `Authorization: Bearer <key>`.' },
    },
    schemas: {
      Lead: {
        type: 'object',
        additionalProperties: false,
        required: ['customer'],
        properties: {
          customer: { type: 'string', maxLength: 200, description: "The customer's name." },
          phone: { type: 'string', maxLength: 40 },
          email: { type: 'string', maxLength: 200 },
          vehicle: { type: 'string', maxLength: 200, description: 'Vehicle of interest, e.g. "2024 Honda Accord EX".' },
          vin: { type: 'string', maxLength: 40 },
          comments: { type: 'string', maxLength: 5000 },
          source: { type: 'string', maxLength: 100, description: "Where the lead came from; defaults to the integration's name." },
          externalId: {
            type: 'string',
            maxLength: 200,
            description: 'Your id for this lead. The same id from the same source is stored once; a repeat answers "duplicate".',
          },
        },
      },
      Result: {
        type: 'object',
        required: ['leads'],
        properties: {
          leads: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'customer', 'status', 'assignedTo'],
              properties: {
                id: { type: ['integer', 'null'], description: 'null for a refused prospect.' },
                customer: { type: 'string' },
                status: {
                  type: 'string',
                  enum: ['assigned', 'unassigned', 'duplicate', 'refused'],
                  description:
                    'unassigned: no one is eligible now; the lead waits and is handed out first when someone is. refused: this prospect was not stored (see error).',
                },
                error: { type: 'string', description: 'Why this prospect was refused.' },
                assignedTo: { type: ['string', 'null'], description: 'The salesman the lead went to.' },
              },
            },
          },
        },
      },
      Error: { type: 'object', required: ['error'], properties: { error: { type: 'string', description: 'What went wrong, for a person to read.' } } },
    },
  },
  paths: {
    '/v1/leads': {
      post: {
        summary: 'Send one lead (JSON) or one or more prospects (ADF/XML)',
        description:
          'ADF/XML: every <prospect> becomes a lead and is answered on its own (assigned, unassigned, duplicate, or refused ' +
          'with its reason); the good ones come in even when another is refused. The customer is <customer><contact><name> ' +
          '(full, or first and last; <contact> may be left out); without a name, a phone or e-mail is enough and the lead comes ' +
          'in as "Customer <phone>" (or the e-mail), flagged for a salesman to name. Phone, e-mail, the <vehicle> with ' +
          'interest="buy" or "lease" (year/make/model/trim/VIN), a trade-in (interest="trade-in"), comments from prospect, ' +
          'customer, contact and vehicle, and the <provider> (in the prospect, in <vendor> or beside the prospect) as the ' +
          'source are read. Element names match in any case and with any namespace prefix. The encoding is taken from a BOM, ' +
          'the charset, or <?xml encoding>: UTF-8, UTF-16, ISO-8859-1 or Windows-1252. <id source="..."> (or <customer><id>) ' +
          'is the prospect id: the same id from the same key is a duplicate only for the same customer (name and a phone or ' +
          'e-mail) or when the prospect says status="resend". DOCTYPE and ENTITY declarations are refused. At most 1 MB, ' +
          `100 prospects, and ${INTAKE_PER_MINUTE} requests a minute per key.`,
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
            'application/json': {
              schema: { $ref: '#/components/schemas/Lead' },
              example: { customer: 'Jane Doe', phone: '555-0100', email: 'jane@example.com', vehicle: '2024 Honda Accord', source: 'Website' },
            },
            'application/x-adf+xml': {
              schema: { type: 'string' },
              example:
                '<?xml version="1.0"?><?adf version="1.0"?><adf><prospect><id source="Website">A-1</id>' +
                '<vehicle><year>2024</year><make>Honda</make><model>Accord</model></vehicle>' +
                '<customer><contact><name part="first">Jane</name><name part="last">Doe</name><phone>555-0100</phone></contact>' +
                '<comments><![CDATA[Trade-in?]]></comments></customer><provider><name part="full">Website</name></provider>' +
                '</prospect></adf>',
            },
            'text/xml': { schema: { type: 'string' } },
            'application/xml': { schema: { type: 'string' } },
            'text/plain': { schema: { type: 'string' }, description: 'ADF/XML posted as plain text (e-mail relays).' },
          },
        },
        responses: {
          '201': {
            description: 'Stored and handed out (or kept unassigned).',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Result' } } },
          },
          '200': {
            description: 'Every lead was a duplicate: nothing new was stored.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Result' } } },
          },
          '400': {
            description: 'Bad input: not well-formed or hostile XML, text that does not decode in its declared encoding, or every prospect refused.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
          '401': {
            description: 'The API key is missing, wrong or revoked.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
          '409': {
            description: 'A request with the same Idempotency-Key is still running (a claim left by a crash is taken over after 60 s at most).',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
          '422': {
            description: 'This Idempotency-Key was already used with a different request.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
          '413': { description: 'The body is over 1 MB.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          '415': {
            description: 'Neither JSON nor ADF/XML, or an encoding that is not read.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
          '429': {
            description: 'Too many requests with this key; wait a minute.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    },
  },
});
