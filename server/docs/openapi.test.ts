import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/harness';
import { routes, type Route } from '../../domain/contract/routes';
import { leadSchema } from '../../domain/schemas';
import { intakeResult } from '../../domain/contract/answers';
import { documentedRoutes, LEFT_OUT } from './openapi';

describe('the OpenAPI document at /api/docs', () => {
  let t: TestApp;
  let doc: OpenAPIV3_1.Document;
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-web-'));

  beforeAll(async () => {
    // A built web app of one page, so the page routes are registered too.
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>__APP_NAME__</title></head>');
    t = await testApp('sqlite', {}, { webDist });
    const r = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(r.statusCode).toBe(200);
    doc = r.json();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  });

  it('describes every route the server registers, or the route is left out on purpose', () => {
    const registered = new Set<string>();
    for (const r of t.app.routeList) {
      const methods = [r.method].flat();
      // A route for every method is the API's own 404 for unknown paths.
      if (methods.length > 4) registered.add(`* ${r.url}`);
      else for (const m of methods) if (m !== 'HEAD' && m !== 'OPTIONS') registered.add(`${m} ${r.url}`);
    }
    expect(registered.size).toBeGreaterThan(40);
    const described = documentedRoutes();
    const inDoc = Object.entries(doc.paths!).flatMap(([p, item]) => Object.keys(item!).map((m) => `${m.toUpperCase()} /api${p.replace(/\{(\w+)\}/g, ':$1')}`));
    expect(inDoc.sort()).toEqual([...described].sort());
    const undecided = [...registered].filter((r) => !described.includes(r) && !LEFT_OUT.includes(r));
    expect(undecided, 'routes neither in the OpenAPI document nor in LEFT_OUT (server/docs/openapi.ts)').toEqual([]);
    const gone = [...described, ...LEFT_OUT].filter((r) => !registered.has(r));
    expect(gone, 'listed routes the server does not register').toEqual([]);
    expect(described.filter((r) => LEFT_OUT.includes(r))).toEqual([]);
  });

  it('covers the intake API, its keys and the session routes, and marks the web app’s own routes internal', () => {
    const ops = Object.entries(doc.paths!).flatMap(([p, item]) =>
      Object.entries(item!).map(([m, op]) => ({ route: `${m.toUpperCase()} ${p}`, op: op as OpenAPIV3_1.OperationObject & { 'x-internal'?: boolean } })),
    );
    const open = ops.filter((o) => !o.op['x-internal']);
    expect(new Set(open.map((o) => o.route.split(' ')[1]))).toEqual(
      new Set(['/auth/complete', '/auth/link', '/auth/logout', '/auth/me', '/docs', '/integrations/keys', '/integrations/keys/{id}/revoke', '/v1/leads']),
    );
    // Every route of the contract is described, from the same definition: its query too.
    expect(ops.length).toBe(Object.keys(routes).length + 2);
    expect(ops.filter((o) => o.op['x-internal']).every((o) => o.op.tags?.[0] === 'Web app (internal)')).toBe(true);
    const leads = doc.paths!['/leads']!.get!;
    expect((leads.parameters as OpenAPIV3_1.ParameterObject[]).map((q) => q.name).sort()).toEqual(['cursor', 'limit', 'open', 'q', 'unassigned', 'waiting']);
    expect(doc.paths!['/rules']!.patch!.security).toEqual([{ session: [] }]);
    expect(Object.keys(doc.paths!['/rules']!.patch!.responses).sort()).toEqual(['200', '400', '401', '403']);
    const intake = doc.paths!['/v1/leads']!.post!;
    expect(intake.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
    expect(Object.keys(intake.responses).sort()).toEqual(['200', '201', '400', '401', '409', '413', '415', '422', '429', '503']);
    expect(doc.paths!['/integrations/keys']!.post!.security).toEqual([{ session: [] }]);
    expect(doc.paths!['/auth/link']!.post!.security).toEqual([]);
  });

  it('has examples that its own schemas accept', () => {
    let checked = 0;
    for (const [p, item] of Object.entries(doc.paths!)) {
      for (const [method, op] of Object.entries(item!) as [string, OpenAPIV3_1.OperationObject][]) {
        const route = `${method.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`;
        const contract = route === 'POST /v1/leads' ? { body: leadSchema, answer: intakeResult } : routes[route as Route];
        const body = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content['application/json']?.example;
        if (body !== undefined && contract && 'body' in contract) {
          expect(contract.body.safeParse(body).error, `${route} body example`).toBeUndefined();
          checked++;
        }
        for (const [status, ok] of Object.entries(op.responses!) as [string, OpenAPIV3_1.ResponseObject][]) {
          const answer = ok.content?.['application/json']?.example;
          if (!status.startsWith('2') || answer === undefined || !contract) continue;
          expect(contract.answer.safeParse(answer).error, `${route} ${status} example`).toBeUndefined();
          checked++;
        }
      }
    }
    expect(checked).toBe(13);
  });
});
