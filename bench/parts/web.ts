/** First-load JavaScript and CSS of the sign-in and overview pages, and the time to the overview's content in Chromium. */
import zlib from 'node:zlib';
import { round, say } from '../load';
import type { Results } from '../table';

export async function webBench(port: number, cookie: string): Promise<Results> {
  say('[web] first-load JavaScript and CSS, and time to the overview in Chromium…');
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const base = `http://127.0.0.1:${port}`;
  const measure = async (url: string, withCookie: boolean, ready: string) => {
    const ctx = await browser.newContext();
    if (withCookie) await ctx.addCookies([{ name: 'bdc_session', value: cookie.split('=')[1], url: base }]);
    const page = await ctx.newPage();
    // The first load is what the page asked for before it showed its content and took taps (moments
    // the page itself notes): a page the server drew shows its content before any code, and takes
    // taps once the app has taken it over (#root no longer inert). The next screen's code, fetched
    // afterwards while idle, counts on the wire (pages) but not here.
    // (A string: tsx would wrap the inner function in a helper the page does not have.)
    const selector = url.includes('overview') ? '[data-testid="queue-size"]' : 'h1';
    await page.addInitScript(`new MutationObserver(() => {
      const el = document.querySelector('${selector}');
      const root = document.getElementById('root');
      if (window.shownAt === undefined && el && /\\S/.test(el.textContent) && root && !root.hasAttribute('inert')) window.shownAt = performance.now();
    }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['inert'] });`);
    const bodies = new Map<string, Promise<number>>();
    page.on('response', (res) => {
      const type = res.request().resourceType();
      if (type === 'script' || type === 'stylesheet')
        bodies.set(
          res.url(),
          res
            .body()
            .catch(() => Buffer.alloc(0))
            .then((body) => zlib.gzipSync(body).length),
        );
    });
    const t0 = Date.now();
    await page.goto(base + url);
    await page.getByRole('heading', { name: ready, exact: true }).waitFor();
    if (url.includes('overview')) await page.getByTestId('queue-size').filter({ hasText: /^\d+$/ }).waitFor();
    const ms = Date.now() - t0;
    await page.waitForLoadState('networkidle');
    const asked = await page.evaluate(() => {
      const shownAt = (window as unknown as { shownAt?: number }).shownAt ?? Infinity;
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime < shownAt)
        .map((e) => e.name);
    });
    const bytes = { js: 0, css: 0 };
    if (process.env.BENCH_DEBUG) say(`${url}: ${asked.join(' ')}`);
    for (const u of asked) {
      const size = await bodies.get(u);
      if (size !== undefined) bytes[/\.css(\?|$)/.test(u) ? 'css' : 'js'] += size;
    }
    await ctx.close();
    return { jsKb: bytes.js / 1024, cssKb: bytes.css / 1024, ms };
  };
  const signin = await measure('/', false, process.env.APP_NAME ?? 'BDC Portal');
  await measure('/dashboard/overview', true, 'Round Robin'); // warm the server and the disk cache
  const overview = await measure('/dashboard/overview', true, 'Round Robin');
  await browser.close();
  return {
    signin_js_gzip_kb: round(signin.jsKb),
    signin_css_gzip_kb: round(signin.cssKb),
    overview_js_gzip_kb: round(overview.jsKb),
    overview_css_gzip_kb: round(overview.cssKb),
    overview_content_ms: overview.ms,
  };
}
