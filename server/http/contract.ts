import type { FastifyInstance } from 'fastify';
import { routes } from '../../domain/contract/routes';
import { intakeResult } from '../../domain/contract/answers';

// The intake API's answer is not the web's, but the OpenAPI document shows its schema: it is held to it too.
const contracts: Record<string, { answer: { safeParse: (v: unknown) => { success: boolean; error?: { issues: unknown[] } } } }> = {
  ...routes,
  'POST /v1/leads': { answer: intakeResult },
};

/**
 * In the test build every JSON answer of the API is checked against its schema in
 * domain/contract, so a mapper that drifts from the contract fails the tests that call it.
 */
export function checkAnswers(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    const url = req.routeOptions.url;
    if (!url?.startsWith('/api/') || reply.statusCode >= 300 || typeof payload !== 'string') return payload;
    const route = `${req.method} ${url.slice('/api'.length)}`;
    const contract = contracts[route];
    if (!contract) return payload;
    const checked = contract.answer.safeParse(JSON.parse(payload));
    if (checked.success) return payload;
    req.log.error({ route, issues: checked.error?.issues }, 'answer does not match its contract');
    reply.status(500);
    return JSON.stringify({ error: `Answer of ${route} does not match its contract: ${JSON.stringify(checked.error?.issues).slice(0, 500)}` });
  });
}
