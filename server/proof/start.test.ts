import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build, compileServer, ENTRIES, ensureBuilt, staleReason } from '../../scripts/build.mjs';
import { openDb } from '../db';
import { createKey } from '../intake/service';
import { startServerProcess } from '../test/process';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** A small tree with the same shape as the portal's, and a stand-in compiler that counts its runs. */
function fakeTree() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-start-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('web/main.tsx', 'export const screen = 1;\n');
  write('web/overview/Overview.tsx', 'export const overview = 1;\n');
  write('domain/rotation.ts', 'export const next = 1;\n');
  write('server/main.ts', 'console.log("up");\n');
  write('server/cli.ts', 'console.log("cli");\n');
  write('package-lock.json', '{}\n');
  write('vite.config.ts', 'export default {};\n');
  write('tsconfig.json', '{}\n');
  write('README.md', '# Portal\n');
  const builds: string[] = [];
  const compile = async (r: string, web: string) => {
    builds.push(web);
    fs.mkdirSync(web, { recursive: true });
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html>');
    fs.mkdirSync(path.join(web, '.server'), { recursive: true });
    fs.writeFileSync(path.join(web, '.server', 'entry-server.js'), '');
    fs.mkdirSync(path.join(r, 'build'), { recursive: true });
    for (const e of Object.keys(ENTRIES)) fs.writeFileSync(path.join(r, 'build', `${e}.js`), '');
    return Promise.resolve();
  };
  const start = (env: Record<string, string> = {}) => ensureBuilt(root, env, compile, () => {});
  return { root, write, builds, start };
}

describe('npm start builds only when the build does not match the sources', () => {
  let tree: ReturnType<typeof fakeTree>;
  beforeEach(() => {
    tree = fakeTree();
  });
  afterEach(() => fs.rmSync(tree.root, { recursive: true, force: true }));

  it('builds on the first start and not on the next ones', async () => {
    expect(staleReason(tree.root, {})).toBe('there is no build yet');
    expect(await tree.start()).toBe(true);
    expect(staleReason(tree.root, {})).toBeNull();
    expect(await tree.start()).toBe(false);
    expect(await tree.start()).toBe(false);
    expect(tree.builds).toEqual([path.join(tree.root, 'dist')]);
  });

  it('rebuilds after a change to any source, and only once', async () => {
    await tree.start();
    const changes: [string, string][] = [
      ['domain/rotation.ts', 'export const next = 2;\n'],
      ['web/overview/Overview.tsx', 'export const overview = 2;\n'],
      ['web/overview/New.tsx', 'export const added = 1;\n'],
      ['server/cli.ts', 'console.log("cli 2");\n'],
      ['package-lock.json', '{"lockfileVersion":3}\n'],
      ['vite.config.ts', 'export default { base: "/" };\n'],
      ['tsconfig.json', '{"compilerOptions":{"target":"ES2023"}}\n'],
    ];
    for (const [file, text] of changes) {
      tree.write(file, text);
      expect(staleReason(tree.root, {}), file).toBe('the sources changed since the last build');
      expect(await tree.start(), file).toBe(true);
      expect(await tree.start(), file).toBe(false);
    }
    fs.rmSync(path.join(tree.root, 'web/overview/New.tsx'));
    expect(await tree.start()).toBe(true);
    expect(tree.builds).toHaveLength(1 + changes.length + 1);
  });

  it('does not rebuild for files outside the sources, or for a source saved unchanged', async () => {
    await tree.start();
    tree.write('README.md', '# Portal, edited\n');
    tree.write('data/portal.sqlite', 'rows');
    tree.write('domain/rotation.ts', 'export const next = 1;\n');
    expect(await tree.start()).toBe(false);
    expect(tree.builds).toHaveLength(1);
  });

  it('keeps a copied tree fresh: a build made here may be shipped with the sources', async () => {
    await tree.start();
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-start-copy-'));
    try {
      fs.cpSync(tree.root, copy, { recursive: true });
      expect(staleReason(copy, {})).toBeNull();
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it('rebuilds when an output is missing or the web app is wanted elsewhere (WEB_DIST)', async () => {
    await tree.start();
    fs.rmSync(path.join(tree.root, 'build/main.js'));
    expect(staleReason(tree.root, {})).toBe('build/main.js is missing');
    expect(await tree.start()).toBe(true);
    fs.rmSync(path.join(tree.root, 'dist/.server/entry-server.js'));
    expect(staleReason(tree.root, {})).toBe("the server's drawing of the first screens is missing");
    expect(await tree.start()).toBe(true);
    fs.rmSync(path.join(tree.root, 'dist/index.html'));
    expect(await tree.start()).toBe(true);
    const elsewhere = path.join(tree.root, 'other-dist');
    expect(await tree.start({ WEB_DIST: elsewhere })).toBe(true);
    expect(await tree.start({ WEB_DIST: elsewhere })).toBe(false);
    expect(tree.builds.at(-1)).toBe(elsewhere);
  });

  it('never takes a build that failed half-way for a fresh one', async () => {
    await tree.start();
    tree.write('domain/rotation.ts', 'export const next = 3;\n');
    await expect(build(tree.root, {}, () => Promise.reject(new Error('syntax error')))).rejects.toThrow('syntax error');
    expect(staleReason(tree.root, {})).toBe('there is no build yet');
    expect(await tree.start()).toBe(true);
  });
});

describe('the compiled server', () => {
  it('runs under plain node, without tsx, and serves the web app, the intake API (its worker thread too) and the command line', async () => {
    // Inside the repository, so that node finds node_modules from the compiled files.
    const out = path.join(ROOT, 'build', `.test-${crypto.randomBytes(6).toString('hex')}`);
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-web-'));
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-data-'));
    fs.writeFileSync(path.join(web, 'index.html'), '<title>__APP_NAME__</title>');
    try {
      await compileServer(ROOT, out);
      const env = { DATA_DIR: data, WEB_DIST: web, APP_NAME: 'Compiled Motors', DATABASE_URL: '' };
      const server = await startServerProcess(env, undefined, [path.join(out, 'main.js')]);
      try {
        const page = await fetch(`${server.base}/`);
        expect(page.status).toBe(200);
        expect(await page.text()).toBe('<title>Compiled Motors</title>');
        // ADF documents are read by build/intake-worker.js on a thread of its own: found, started, answering.
        const dbh = await openDb({ dataDir: data });
        const { key } = await createKey(dbh.db, 1, 'Compiled feed', 'test');
        await dbh.close();
        const adf = (body: string) =>
          fetch(`${server.base}/api/v1/leads`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/x-adf+xml' }, body });
        const lead = await adf('<adf><prospect><customer><contact><name part="full">Compiled Customer</name></contact></customer></prospect></adf>');
        expect(lead.status).toBe(201);
        expect(await lead.json()).toMatchObject({ leads: [{ customer: 'Compiled Customer', status: 'unassigned' }] });
        const broken = await adf('<adf>\n<prospect></adf>');
        expect(broken.status).toBe(400);
        expect(((await broken.json()) as { error: string }).error).toMatch(/^The XML is not well-formed: .*\(line 2, column/);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      const cli = (...args: string[]) => run(process.execPath, [path.join(out, 'cli.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env } });
      expect((await cli('user', 'add', 'first.boss@dealer.test', '--name', 'First Boss', '--role', 'manager')).stdout).toContain(
        'Added first.boss@dealer.test',
      );
      expect((await cli('user', 'list')).stdout).toMatch(/manager\s+first\.boss@dealer\.test\s+First Boss/);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
      fs.rmSync(web, { recursive: true, force: true });
      fs.rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});
