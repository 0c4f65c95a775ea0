// Lists dependencies in package.json that no source file, config or npm script uses (part of npm run deadcode).
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
/** @typedef {{ scripts: Record<string, string>, dependencies: Record<string, string>, devDependencies: Record<string, string> }} Pkg */
/** @type {unknown} */
const raw = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const pkg = /** @type {Pkg} */ (raw);
const DIRS = ['domain', 'server', 'web', 'e2e', 'bench', 'scripts'];
const FILES = ['vite.config.ts', 'vitest.config.ts', 'playwright.config.ts', 'eslint.config.js'];
/** @type {Record<string, string>} Used without an import that names them; each says by whom. */
const USED_BY_NAME = {
  '@types/node': 'tsconfig.json types',
  'openapi-types': 'types of @apidevtools/swagger-parser',
  recharts: 'the chart library under @mantine/charts (its peer dependency)',
  typescript: 'tsc in npm run typecheck, and typescript-eslint',
};

/** @type {string[]} */
const sources = [];
const walk = (/** @type {string} */ dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.(m?[jt]sx?)$/.test(e.name)) sources.push(fs.readFileSync(p, 'utf8'));
  }
};
for (const d of DIRS) walk(path.join(ROOT, d));
for (const f of FILES) if (fs.existsSync(path.join(ROOT, f))) sources.push(fs.readFileSync(path.join(ROOT, f), 'utf8'));
const text = sources.join('\n');
const scripts = Object.values(pkg.scripts).join('\n');

const escape = (/** @type {string} */ s) => s.replace(/[/.]/g, '\\$&');
const imported = (/** @type {string} */ name) => new RegExp(`(from|import\\(|require\\(|resolve\\()\\s*['"]${escape(name)}(/[^'"]*)?['"]`).test(text);
const typesFor = (/** @type {string} */ name) => name.startsWith('@types/') && imported(name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2'));
const bin = (/** @type {string} */ name) => new RegExp(`(^|[\\s&|;])(npx )?${escape(name.replace(/^@[^/]+\//, ''))}\\b`, 'm').test(scripts);

const unused = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter(
  (name) => !(name in USED_BY_NAME) && !imported(name) && !typesFor(name) && !bin(name),
);
if (unused.length) {
  console.log(`Unused dependencies in package.json:\n${unused.map((n) => `  ${n}`).join('\n')}`);
  process.exit(1);
}
console.log('No unused dependencies');
