// Builds the portal once and tells whether a build still matches its sources. Plain Node, no
// TypeScript, so that `npm start` runs without the build tools when the build is up to date.
//
//   node scripts/build.mjs           build now (web app and its server drawing with Vite, server with esbuild)
//   node scripts/build.mjs --check   exit 0 when the build matches the sources, 1 when not
//
// The web app goes to WEB_DIST (default ./dist), the server to ./build as plain JavaScript.
// build/stamp.json records a hash of every source the build reads and where the web app went.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** Folders whose every file goes into the hash. */
const SOURCE_DIRS = ['web', 'domain', 'server'];
/** Single files that change what a build makes. */
const SOURCE_FILES = ['package-lock.json', 'vite.config.ts', 'tsconfig.json', 'scripts/build.mjs'];
/**
 * The server's entry points, each compiled to build/<name>.js: the server, the command line, and
 * the intake parser's worker thread (server/intake/parser.ts looks for it beside the bundle).
 */
export const ENTRIES = { main: 'server/main.ts', cli: 'server/cli.ts', 'intake-worker': 'server/intake/worker.ts' };

/** @typedef {{ hash: string, web: string }} Stamp */
/** @typedef {Record<string, string | undefined>} Env */
/** @typedef {(root: string, webDir: string) => Promise<void>} Compile */

/** Where the built web app lives: WEB_DIST (as the server reads it) or ./dist. */
function webDir(/** @type {string} */ root, /** @type {Env} */ env = process.env) {
  return env.WEB_DIST ? path.resolve(env.WEB_DIST) : path.join(root, 'dist');
}

/** Every file under `dir`, relative to `root`, in a stable order. */
function listFiles(/** @type {string} */ root, /** @type {string} */ dir) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ rel) => {
    const entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(child);
      else if (e.isFile()) out.push(child);
    }
  };
  if (fs.existsSync(path.join(root, dir))) walk(dir);
  return out;
}

/** One hash over the names and contents of every source of the build. */
function sourceHash(root = ROOT) {
  const h = crypto.createHash('sha256');
  const files = [...SOURCE_DIRS.flatMap((d) => listFiles(root, d)), ...SOURCE_FILES.filter((f) => fs.existsSync(path.join(root, f)))];
  for (const f of files) {
    h.update(`${f}\0`);
    h.update(fs.readFileSync(path.join(root, f)));
    h.update('\0');
  }
  return h.digest('hex');
}

const stampFile = (/** @type {string} */ root) => path.join(root, 'build', 'stamp.json');

/** @returns {Stamp | null} */
function readStamp(/** @type {string} */ root) {
  try {
    /** @type {unknown} */
    const stamp = JSON.parse(fs.readFileSync(stampFile(root), 'utf8'));
    if (stamp && typeof stamp === 'object' && 'hash' in stamp && 'web' in stamp && typeof stamp.hash === 'string' && typeof stamp.web === 'string') {
      return { hash: stamp.hash, web: stamp.web };
    }
  } catch {
    /* no stamp, or not one we wrote */
  }
  return null;
}

/** Why the build must be made again, or null when it matches the sources. */
export function staleReason(root = ROOT, /** @type {Env} */ env = process.env) {
  const stamp = readStamp(root);
  if (!stamp) return 'there is no build yet';
  const web = webDir(root, env);
  if (path.resolve(root, stamp.web) !== web || !fs.existsSync(path.join(web, 'index.html'))) return `the web app is not built in ${web}`;
  if (!fs.existsSync(path.join(web, '.server', 'entry-server.js'))) return "the server's drawing of the first screens is missing";
  for (const e of Object.keys(ENTRIES)) if (!fs.existsSync(path.join(root, 'build', `${e}.js`))) return `build/${e}.js is missing`;
  if (stamp.hash !== sourceHash(root)) return 'the sources changed since the last build';
  return null;
}

function run(/** @type {string} */ cmd, /** @type {string[]} */ args, /** @type {string} */ cwd, /** @type {Env} */ env) {
  return new Promise((resolve, reject) => {
    spawn(cmd, args, { cwd, env, stdio: 'inherit' })
      .on('error', reject)
      .on('exit', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`${path.basename(args[0] ?? cmd)} exited with ${code}`))));
  });
}

/** The server's entry points as ES modules for Node 20, with node_modules left to `import`. */
export async function compileServer(root = ROOT, outdir = path.join(root, 'build')) {
  /** @type {typeof import('esbuild')} */
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.entries(ENTRIES).map(([out, entry]) => ({ in: entry, out })),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

const viteBin = (/** @type {string} */ root) => path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');

/** After `npm ci --omit=dev` only a fresh build can start: say so instead of failing half-way. */
function checkTools(/** @type {string} */ root) {
  if (!fs.existsSync(viteBin(root)) || !fs.existsSync(path.join(root, 'node_modules', 'esbuild'))) {
    throw new Error('The build tools are not installed. Run `npm install` (with dev dependencies), then start again.');
  }
}

/** @type {Compile} */
async function compileAll(root, web) {
  const vite = viteBin(root);
  await run(process.execPath, [vite, 'build', '--logLevel', 'warn'], root, { ...process.env, WEB_DIST: web });
  // The server's drawing of the first screens (web/entry-server.tsx), beside the app.
  await run(process.execPath, [vite, 'build', '--ssr', '--logLevel', 'warn'], root, { ...process.env, WEB_DIST: web });
  await compileServer(root);
}

/** Builds everything, then writes the stamp: a build stopped half-way is never taken as fresh. */
export async function build(root = ROOT, /** @type {Env} */ env = process.env, /** @type {Compile} */ compile = compileAll) {
  const hash = sourceHash(root);
  const web = webDir(root, env);
  if (compile === compileAll) checkTools(root);
  fs.rmSync(stampFile(root), { force: true });
  await compile(root, web);
  fs.mkdirSync(path.dirname(stampFile(root)), { recursive: true });
  // Inside the tree the web app's place is kept relative, so a copied or moved tree stays fresh.
  const inside = !path.relative(root, web).startsWith('..') && !path.isAbsolute(path.relative(root, web));
  fs.writeFileSync(stampFile(root), JSON.stringify({ hash, web: inside ? path.relative(root, web) : web }, null, 2) + '\n');
}

/** Builds only when the build is missing or does not match the sources; true when it built. */
export async function ensureBuilt(
  root = ROOT,
  /** @type {Env} */ env = process.env,
  /** @type {Compile} */ compile = compileAll,
  log = (/** @type {string} */ line) => console.log(line),
) {
  const reason = staleReason(root, env);
  if (!reason) return false;
  log(`Building the portal (${reason})…`);
  const started = Date.now();
  await build(root, env, compile);
  log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === '--check') {
    const reason = staleReason();
    console.log(reason ? `Stale: ${reason}.` : 'The build matches the sources.');
    process.exitCode = reason ? 1 : 0;
  } else {
    await build();
  }
}
