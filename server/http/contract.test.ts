import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/harness';
import { NOT_JSON, routes } from '../../domain/contract/routes';

describe('the API contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('sqlite');
  });
  afterAll(() => t.close());

  it('names every route the server registers, and no route it does not', () => {
    const registered = t.app.routeList
      .filter((r) => r.url.startsWith('/api/') && !r.url.endsWith('*'))
      .flatMap((r) =>
        [r.method]
          .flat()
          .filter((m) => m !== 'HEAD')
          .map((m) => `${m} ${r.url.slice('/api'.length)}`),
      );
    const named = [...Object.keys(routes), ...NOT_JSON];
    expect(registered.filter((r) => !named.includes(r))).toEqual([]);
    expect(named.filter((r) => !registered.includes(r))).toEqual([]);
  });
});
