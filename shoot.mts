import { chromium } from '@playwright/test';
import fs from 'node:fs';
const BASE = process.env.BASE!;
const LOG = process.env.LOG!;
const OUT = process.env.OUT!;
const [email, ...paths] = process.argv.slice(2);
fs.mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
async function newLink() {
const before = fs.readFileSync(LOG, 'utf8').length;
await fetch(`${BASE}/api/auth/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
let link = '';
for (let i = 0; i < 50 && !link; i++) {
  await new Promise((r) => setTimeout(r, 200));
  const m = /(https?:\/\/\S+\/finish-login\?e=[^\s"]+&t=[A-Za-z0-9_-]+)/.exec(fs.readFileSync(LOG, 'utf8').slice(before));
  if (m) link = m[1].replace('localhost:', '127.0.0.1:');
}
  return link;
}
for (const scheme of ['light', 'dark'] as const) {
  for (const width of [375, 1280]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    const page = await ctx.newPage();
    await page.goto(await newLink());
    await page.waitForURL(/dashboard/);
    for (const p of paths) {
      await page.goto(BASE + p);
      await page.waitForTimeout(1500);
      const name = `${email.split('@')[0]}-${p.replace(/\W+/g, '_')}-${width}-${scheme}.png`;
      await page.screenshot({ path: `${OUT}/${name}`, fullPage: true });
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      if (sw > width) console.log('SIDEWAYS', name, sw);
    }
    await ctx.close();
  }
}
await browser.close();
