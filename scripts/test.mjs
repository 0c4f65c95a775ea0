// Runs the whole suite in stages and says where its time went (npm test).
//
//   node scripts/test.mjs           lint, types, unit and server tests, build, browser tests
//   node scripts/test.mjs --quick   lint, types, domain and SQLite server tests (npm run test:quick)
//
// Lint and the type check run side by side (each is mostly one core). A stage that fails stops
// the run; the stage lines are printed all the same.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';

const ROOT = path.resolve(import.meta.dirname, '..');
const quick = process.argv.includes('--quick');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-test-'));
const playwrightJson = path.join(out, 'playwright.json');

/** @typedef {{ name: string, ms: number, ok: boolean, note?: string }} Stage */
/** @type {Stage[]} */
const stages = [];

/**
 * Runs a command; its output goes to the terminal, or is kept and printed whole at its end when
 * `buffered` (two stages side by side do not interleave their lines).
 * @param {string} cmd @param {string[]} args @param {{ env?: Record<string, string>, buffered?: boolean }} [opts]
 * @returns {Promise<boolean>}
 */
function run(cmd, args, { env = {}, buffered = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let text = '';
    child.stdout?.on('data', (c) => (text += c));
    child.stderr?.on('data', (c) => (text += c));
    child.on('close', (code) => {
      if (buffered) process.stdout.write(text);
      resolve(code === 0);
    });
  });
}

/** @param {string} name @param {() => Promise<boolean>} work @param {() => string | undefined} [note] */
async function stage(name, work, note) {
  const start = Date.now();
  const ok = await work();
  /** @type {Stage} */
  const s = { name, ms: Date.now() - start, ok };
  try {
    s.note = note?.();
  } catch {
    /* no report to read */
  }
  stages.push(s);
  return ok;
}

const npx = (/** @type {string[]} */ args, /** @type {{ env?: Record<string, string>, buffered?: boolean }} */ opts = {}) =>
  run(process.platform === 'win32' ? 'npx.cmd' : 'npx', args, opts);
const npm = (/** @type {string} */ script, buffered = false) =>
  run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', script], { buffered });

/**
 * What Vitest's JSON report and Playwright's hold that the summary reads.
 * @typedef {{ numTotalTests: number, numFailedTests: number, testResults: { name: string, startTime: number, endTime: number }[] }} VitestReport
 * @typedef {{ specs?: { tests: { results: { duration: number }[] }[] }[], suites?: PwSuite[], file: string }} PwSuite
 * @typedef {{ suites: PwSuite[], stats: { unexpected: number, flaky: number }, config: { workers: number, metadata?: { actualWorkers?: number } } }} PlaywrightReport
 */

/** @returns {unknown} */
const readJson = (/** @type {string} */ file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** @type {{ file: string, ms: number }[]} */
const files = [];

/** Vitest's arguments, its JSON report in `json`. */
const vitest = (/** @type {string} */ json, /** @type {string[]} */ more = []) => [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${json}`,
  ...more,
];

function vitestNote(json = path.join(out, 'vitest.json')) {
  const r = /** @type {VitestReport} */ (readJson(json));
  for (const f of r.testResults) files.push({ file: path.relative(ROOT, f.name), ms: f.endTime - f.startTime });
  return `${r.numTotalTests} tests in ${r.testResults.length} files${r.numFailedTests ? `, ${r.numFailedTests} failed` : ''}`;
}

function playwrightNote() {
  const r = /** @type {PlaywrightReport} */ (readJson(playwrightJson));
  let tests = 0;
  /** @param {PwSuite} suite @returns {number} the time in its tests */
  const walk = (suite) => {
    let ms = 0;
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests) {
        tests++;
        for (const res of t.results) ms += res.duration;
      }
    for (const s of suite.suites ?? []) ms += walk(s);
    return ms;
  };
  for (const suite of r.suites) files.push({ file: `e2e/${suite.file}`, ms: walk(suite) });
  const { unexpected, flaky } = r.stats;
  const workers = r.config.metadata?.actualWorkers ?? r.config.workers;
  return `${tests} tests, ${workers} workers${unexpected ? `, ${unexpected} failed` : ''}${flaky ? `, ${flaky} flaky` : ''}`;
}

const min = (/** @type {number} */ ms) => `${(ms / 60_000).toFixed(1).padStart(5)} min`;

const started = Date.now();

function summary() {
  // Lint and types overlap: the total is the clock's, not the stages' sum.
  const total = Date.now() - started;
  const width = Math.max(...stages.map((s) => s.name.length), 5);
  console.log('\nWhere the time went');
  for (const s of stages) console.log(`  ${s.name.padEnd(width)} ${min(s.ms)}  ${s.ok ? 'passed' : 'FAILED'}${s.note ? `  ${s.note}` : ''}`);
  console.log(`  ${'total'.padEnd(width)} ${min(total)}`);
  if (files.length) {
    console.log('Slowest test files (time in their tests)');
    for (const f of [...files].sort((a, b) => b.ms - a.ms).slice(0, 5)) console.log(`  ${min(f.ms)}  ${f.file}`);
  }
}

async function main() {
  // Lint and types side by side: each mostly uses one core.
  const checks = () => Promise.all([stage('lint', () => npm('lint', true)), stage('types', () => npm('typecheck', true))]);
  if (quick) {
    // The quick loop: domain and server tests on SQLite only (the PostgreSQL suite says it is
    // skipped), beside lint and types, which leave the cores room without PostgreSQL; then the
    // files that must run alone (vitest.config.ts), once nothing else runs.
    const env = { TEST_DATABASE: 'sqlite' };
    const [main, alone] = [path.join(out, 'vitest.json'), path.join(out, 'vitest-alone.json')];
    const [[lint, types], tests] = await Promise.all([
      checks(),
      stage(
        'unit and server',
        () => npx(vitest(main, ['--project', 'domain and server']), { env, buffered: true }),
        () => vitestNote(main),
      ),
    ]);
    if (!lint || !types || !tests) return false;
    return stage(
      'unit and server, alone',
      () => npx(vitest(alone, ['--project', 'alone*']), { env }),
      () => vitestNote(alone),
    );
  }
  const [lint, types] = await checks();
  if (!lint || !types) return false;
  if (!(await stage('unit and server', () => npx(vitest(path.join(out, 'vitest.json'))), vitestNote))) return false;
  if (!(await stage('build', () => npm('build')))) return false;
  return stage('browser', () => npx(['playwright', 'test', '--reporter=list,json'], { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson } }), playwrightNote);
}

const ok = await main();
summary();
fs.rmSync(out, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
