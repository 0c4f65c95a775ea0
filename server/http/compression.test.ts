import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGER, testApp, type TestApp } from '../test/harness';
import { pickEncoding, precompressDir } from './compress';

const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "Customer ${i}" }`).join(', ')}];\n`;

/** A built web app in miniature, precompressed the way the build does it. */
function fakeDist() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<head><title>__APP_NAME__</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body></body>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'OverviewPage-Ef56Gh78.js'), 'export default 1;');
  fs.writeFileSync(path.join(dir, 'assets', 'dashboard-Ij90Kl12.js'), 'export default 2;');
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(
    path.join(dir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-Ab12Cd34.js', isEntry: true },
      '_dashboard-Ij90Kl12.js': { file: 'assets/dashboard-Ij90Kl12.js', css: ['assets/dashboard-Mn34Op56.css'] },
      'overview/OverviewPage.tsx': { file: 'assets/OverviewPage-Ef56Gh78.js', imports: ['index.html', '_dashboard-Ij90Kl12.js'] },
      'leads/LeadsPage.tsx': { file: 'assets/LeadsPage-Qr78St90.js', imports: ['index.html', '_dashboard-Ij90Kl12.js'] },
      'settings/SettingsPage.tsx': { file: 'assets/SettingsPage-Uv12Wx34.js', imports: ['index.html', '_dashboard-Ij90Kl12.js'] },
      'group/GroupPage.tsx': { file: 'assets/GroupPage-Yz56Ab78.js', imports: ['index.html', '_dashboard-Ij90Kl12.js'] },
    }),
  );
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  precompressDir(dir);
  return dir;
}

const BROWSER = 'gzip, deflate, br, zstd';
const decode = (body: Buffer, enc: unknown) =>
  (enc === 'br' ? zlib.brotliDecompressSync(body) : enc === 'gzip' ? zlib.gunzipSync(body) : body).toString('utf8');

/** What a browser gets: compressed where it helps, cached only where it is safe. */
describe('compression and caching as a browser sees them', () => {
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

  it('the build leaves brotli and gzip copies beside each asset, never beside the page template', () => {
    expect(fs.existsSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.gz'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'index.html.br'))).toBe(false);
  });

  it('a hashed asset comes back compressed (brotli where accepted, else gzip), varying on Accept-Encoding, kept for a year', async () => {
    for (const [accept, want] of [
      [BROWSER, 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['', undefined],
    ] as const) {
      const r = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': accept } });
      expect(r.statusCode, accept).toBe(200);
      expect(r.headers['content-encoding'], accept).toBe(want);
      expect(r.headers['content-type'], accept).toMatch(/javascript/);
      expect(r.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(r.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      expect(decode(r.rawPayload, r.headers['content-encoding'])).toBe(SCRIPT);
      if (want) expect(r.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
    }
    expect(t.app.routeList.some((r) => r.url.endsWith('.br') || r.url.endsWith('.gz'))).toBe(false);
  });

  it('an asset that is not there is a 404, never the page (a stale tab asking for an old chunk must fail, not parse HTML as script)', async () => {
    for (const url of ['/assets/index-Gone1234.js', '/assets/', '/assets/nested/x.css']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type'], url).not.toMatch(/html/);
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('the page itself is compressed but never kept: every visit asks again', async () => {
    for (const url of ['/', '/dashboard/overview']) {
      const r = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': BROWSER } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-encoding']).toBe('br');
      expect(r.headers.vary).toMatch(/accept-encoding/i);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['cache-control']).not.toMatch(/immutable|max-age/);
      expect(decode(r.rawPayload, 'br')).toContain('<title>Lot Rotation</title>');
    }
  });

  it("the API's larger JSON answers are compressed, small ones not, and none is ever stored", async () => {
    const cookie = await t.signIn(MANAGER);
    const big = await t.app.inject({ method: 'GET', url: '/api/docs', headers: { 'accept-encoding': BROWSER } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    expect(big.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(decode(big.rawPayload, 'br'))).toHaveProperty('openapi');
    const gz = await t.app.inject({ method: 'GET', url: '/api/docs', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(gz.rawPayload, 'gzip')).toBe(decode(big.rawPayload, 'br'));

    const small = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie, 'accept-encoding': BROWSER } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['cache-control']).toBe('no-store');
    expect(small.json().user.email).toBe(MANAGER);
  });

  it("a dashboard address names its screen's code and its store's first data with the page, so they load at once", async () => {
    const r = await t.app.inject({ method: 'GET', url: '/s/MAIN/dashboard/overview' });
    for (const hint of [
      '<link rel="modulepreload" crossorigin href="/assets/OverviewPage-Ef56Gh78.js">',
      '<link rel="modulepreload" crossorigin href="/assets/dashboard-Ij90Kl12.js">',
      '<link rel="preload" as="style" crossorigin href="/assets/dashboard-Mn34Op56.css">',
      '<link rel="preload" as="fetch" crossorigin href="/api/auth/me">',
      '<link rel="preload" as="fetch" crossorigin href="/api/rotation?log=10&store=MAIN">',
      '<link rel="preload" as="fetch" crossorigin href="/api/rules?store=MAIN">',
      '<link rel="preload" as="fetch" crossorigin href="/api/weather">',
    ])
      expect(r.body).toContain(hint);
    expect(r.body).not.toContain('modulepreload crossorigin href="/assets/index-Ab12Cd34.js"');
    // An address without a store goes on to the person's own: the screen's code, the shell's data,
    // and the overview's first data without a store (the app asks for it so as it starts).
    const bare = (await t.app.inject({ method: 'GET', url: '/dashboard/overview' })).body;
    expect(bare).toContain('<link rel="modulepreload" crossorigin href="/assets/OverviewPage-Ef56Gh78.js">');
    expect(bare).toContain('<link rel="preload" as="fetch" crossorigin href="/api/auth/me">');
    expect(bare).toContain('<link rel="preload" as="fetch" crossorigin href="/api/rotation?log=10">');
    expect(bare).not.toContain('store=');
    // A screen whose data the app asks for only once its store is known: the shell's data alone.
    const bareLeads = (await t.app.inject({ method: 'GET', url: '/dashboard/leads' })).body;
    expect(bareLeads).toContain('<link rel="preload" as="fetch" crossorigin href="/api/auth/me">');
    expect(bareLeads).not.toContain('/api/leads');
    // Each screen its own first data; an address with a query asks for other data, so it gets the code alone.
    const leads = (await t.app.inject({ method: 'GET', url: '/s/NSH/dashboard/leads' })).body;
    expect(leads).toContain('<link rel="preload" as="fetch" crossorigin href="/api/leads?open=1&store=NSH">');
    expect(leads).not.toContain('/api/rotation');
    const unassigned = (await t.app.inject({ method: 'GET', url: '/s/MAIN/dashboard/leads?view=unassigned' })).body;
    expect(unassigned).toContain('<link rel="modulepreload" crossorigin href="/assets/LeadsPage-Qr78St90.js">');
    expect(unassigned).toContain('<link rel="preload" as="fetch" crossorigin href="/api/auth/me">');
    expect(unassigned).not.toContain('/api/leads');
    // A person's own data is named on any address of its screen, with a store or without.
    const settings = (await t.app.inject({ method: 'GET', url: '/dashboard/settings' })).body;
    expect(settings).toContain('<link rel="preload" as="fetch" crossorigin href="/api/auth/passkeys">');
    expect(settings).not.toContain('/api/profile/notify');
    const storeSettings = (await t.app.inject({ method: 'GET', url: '/s/MAIN/dashboard/settings' })).body;
    expect(storeSettings).toContain('<link rel="preload" as="fetch" crossorigin href="/api/profile/notify?store=MAIN">');
    expect(storeSettings).toContain('<link rel="preload" as="fetch" crossorigin href="/api/auth/passkeys">');
    // The group's screen (/group, no store) its code and the group's figures.
    const group = (await t.app.inject({ method: 'GET', url: '/group' })).body;
    expect(group).toContain('<link rel="modulepreload" crossorigin href="/assets/GroupPage-Yz56Ab78.js">');
    expect(group).toContain('<link rel="preload" as="fetch" crossorigin href="/api/group">');
    // The sign-in page asks for nothing of the dashboard, and the build's manifest is never served.
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).not.toContain('preload');
    expect((await t.app.inject({ method: 'GET', url: '/.vite/manifest.json' })).headers['content-type']).toMatch(/text\/html/);
  });

  it('stays out of search engines: robots.txt refuses everything and every answer says noindex', async () => {
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.body).toBe('User-agent: *\nDisallow: /\n');
    for (const url of ['/', '/assets/index-Ab12Cd34.js', '/api/auth/me']) {
      expect((await t.app.inject({ method: 'GET', url })).headers['x-robots-tag'], url).toBe('noindex, nofollow');
    }
  });

  it('signed out, "who am I" answers no one rather than an error', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ user: null });
  });

  it('reads Accept-Encoding as browsers and proxies send it', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
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
