import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGER, testApp, type TestApp } from '../test/harness';

/** A built web app in miniature: the index template, one hashed asset, one plain file. */
function fakeDist() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<title>__APP_NAME__</title><script src="/assets/index-Ab12Cd34.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  return dir;
}

describe('caching', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fakeDist();
    t = await testApp('sqlite', { APP_NAME: 'Lot Rotation' }, { webDist: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('never lets an API answer be stored, success or error, signed in or not', async () => {
    const cookie = await t.signIn(MANAGER);
    for (const [url, headers] of [
      ['/api/auth/me', { cookie }],
      ['/api/auth/me', {}],
      ['/api/rotation', { cookie }],
      ['/api/no-such-route', { cookie }],
      ['/api/leads?q=a%00b', { cookie }],
      ['/api/docs', {}],
    ] as const) {
      const r = await t.app.inject({ method: 'GET', url, headers });
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('serves the page rendered, never the raw template, and keeps only hashed assets for a year', async () => {
    for (const url of ['/', '/index.html', '/dashboard/overview']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.body, url).toContain('<title>Lot Rotation</title>');
      expect(r.body, url).not.toContain('__APP_NAME__');
      expect(r.headers['cache-control'], url).toBe('no-cache');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });
});
