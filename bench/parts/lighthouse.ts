/** Lighthouse 12 on the demo dealership's pages, mobile. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { say } from '../load';
import { withDemo, type Demo } from '../server';
import type { Results } from '../table';
import { perPage } from './pages';

interface LighthouseRow {
  page: string;
  /** The category scores, 0 to 100. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
}

/**
 * LIGHTHOUSE_REPORTS=<folder> keeps each page's median report (`leads.json`) and each run's
 * (`leads-2.json`), to open in Lighthouse's viewer and see why one run was slower.
 */
function keep(name: string, report: unknown) {
  const folder = process.env.LIGHTHOUSE_REPORTS;
  if (!folder) return;
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, `${name}.json`), JSON.stringify(report));
}

/** Chromium with a DevTools port for Lighthouse, on a fresh profile under `dir`; its port and a way to stop it. */
async function devtoolsChromium(dir: string) {
  const profile = fs.mkdtempSync(path.join(dir, 'profile-'));
  const proc = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--remote-debugging-port=0',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    proc.stderr.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    proc.on('exit', (code) => reject(new Error(`Chromium exited (${code}) before it listened: ${seen.slice(-500)}`)));
  });
  return {
    port,
    stop: async () => {
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill();
      await gone;
    },
  };
}

/**
 * Lighthouse 12 in its default mobile mode (a phone screen, simulated slow 4G and a 4× slower
 * CPU), against the demo dealership: each page three times (LIGHTHOUSE_RUNS), the run with the
 * median performance score kept. A signed-in page gets the session cookie with every request.
 */
async function lighthouseRuns(demo: Demo, runs: number): Promise<LighthouseRow[]> {
  const { default: lighthouse } = await import('lighthouse');
  // Every screen: the manager's (the group manager of the demo) with his cookie, the salesman's
  // sales tracker with his; the manager's sales page is the team's board. The routing rules are a
  // section of the management screen.
  const pages: [string, string, string | null][] = [
    ['sign-in', '/', null],
    ['overview', '/dashboard/overview', demo.manager],
    ['routing', '/dashboard/routing', demo.manager],
    ['leads', '/dashboard/leads', demo.manager],
    ['mail-review', '/dashboard/leads?view=mail', demo.manager],
    ['sales', '/dashboard/stats/sales', demo.salesman],
    ['team-sales', '/dashboard/stats/sales', demo.manager],
    ['lead-stats', '/dashboard/stats/leads', demo.manager],
    ['funnel', '/dashboard/stats/funnel', demo.manager],
    ['management', '/dashboard/management', demo.manager],
    ['settings', '/dashboard/settings', demo.manager],
    ['group', '/group', demo.manager],
    ['desk', '/dashboard/desk', demo.manager],
  ];
  const out: LighthouseRow[] = [];
  // Chromium's helpers write to a profile for a moment after it exits: the profiles go at the end.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-lighthouse-'));
  // LIGHTHOUSE_PAGES=overview,leads runs only those pages (the others keep their last figures).
  const only = process.env.LIGHTHOUSE_PAGES?.split(',');
  for (const [name, url, cookie] of pages.filter(([n]) => !only || only.includes(n))) {
    const tries: (LighthouseRow & { report: unknown })[] = [];
    let failed = 0;
    for (let i = 0; i < runs; i++) {
      const chrome = await devtoolsChromium(dir);
      try {
        const result = await lighthouse(demo.base + url, {
          port: chrome.port,
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
        });
        if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
        const { categories, audits, runtimeError } = result.lhr;
        if (runtimeError) {
          // Now and then the trace of a load is not recorded (NO_NAVSTART): that load is run again.
          const why = `Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`;
          if (++failed > 2) throw new Error(why);
          process.stdout.write(`(${why}; running it again)\n`);
          i--;
          continue;
        }
        const score = (k: string) => Math.round((categories[k]?.score ?? 0) * 100);
        const ms = (k: string) => Math.round(audits[k]?.numericValue ?? NaN);
        tries.push({
          page: name,
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          fcpMs: ms('first-contentful-paint'),
          lcpMs: ms('largest-contentful-paint'),
          tbtMs: ms('total-blocking-time'),
          report: result.lhr,
        });
        const t = tries[tries.length - 1];
        say(`[lighthouse] ${name} ${i + 1}/${runs}: ${t.performance}, LCP ${t.lcpMs} ms, TBT ${t.tbtMs} ms`);
        keep(`${name}-${i + 1}`, result.lhr);
      } finally {
        await chrome.stop();
      }
    }
    tries.sort((a, b) => a.performance - b.performance);
    const { report, ...median } = tries[Math.floor(tries.length / 2)];
    keep(name, report);
    out.push(median);
  }
  // A helper still writing after all the retries leaves the folder to the system's tmp cleaning.
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (err) {
    process.stdout.write(`(could not remove ${dir}: ${(err as Error).message})\n`);
  }
  return out;
}

export async function lighthouseBench(): Promise<Results> {
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
  say(`[lighthouse] Lighthouse 12, mobile (simulated slow 4G, CPU 4×), the demo dealership, each page ${runs} times…`);
  return withDemo(async (demo) =>
    perPage('lh', await lighthouseRuns(demo, runs), {
      performance: (l) => l.performance,
      accessibility: (l) => l.accessibility,
      best_practices: (l) => l.bestPractices,
      fcp_ms: (l) => l.fcpMs,
      lcp_ms: (l) => l.lcpMs,
      tbt_ms: (l) => l.tbtMs,
    }),
  );
}
