import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { OVERVIEW_LOG_SIZE, ROUTING_LOG_SIZE } from '../../domain/rotation';

/** A dashboard address's screen, as the build's manifest names its source. */
const SCREENS: Record<string, string> = {
  '': 'overview/OverviewPage.tsx',
  overview: 'overview/OverviewPage.tsx',
  associates: 'associates/AssociatesPage.tsx',
  stats: 'stats/SalesPage.tsx',
  'stats/sales': 'stats/SalesPage.tsx',
  'stats/leads': 'stats/LeadsKpiPage.tsx',
  routing: 'routing/RoutingPage.tsx',
  management: 'management/ManagementPage.tsx',
  leads: 'leads/LeadsPage.tsx',
  settings: 'settings/SettingsPage.tsx',
};

/** What a screen asks the API for first, besides what the shell asks on every screen. */
const DATA: Record<string, string[]> = {
  '': [`/api/rotation?log=${OVERVIEW_LOG_SIZE}`, '/api/rules'],
  overview: [`/api/rotation?log=${OVERVIEW_LOG_SIZE}`, '/api/rules'],
  routing: [`/api/rotation?log=${ROUTING_LOG_SIZE}`],
  leads: ['/api/leads?open=1'],
  stats: ['/api/sales'],
  'stats/sales': ['/api/sales'],
};
/** The shell's own questions: who am I, and the weather in its header. */
const SHELL_DATA = ['/api/auth/me', '/api/weather'];

/** What is read here of the build's manifest (Vite's): each source's file, entry flag, imports and styles. */
const manifestSchema = z.record(
  z.string(),
  z.object({ file: z.string(), isEntry: z.boolean().optional(), imports: z.array(z.string()).optional(), css: z.array(z.string()).optional() }),
);

/**
 * Link hints for a dashboard address: the screen's code and styles and its first data, fetched
 * with the page instead of one after another once the app has started (each step is a round
 * trip on a phone's network). Read from the build's manifest; nothing without one. An address
 * with a query (another salesman's tracker, the unassigned leads) asks for other data: it gets
 * the code only, as a hint the page then does not use is only a wasted download.
 */
export function dashboardHints(webDist: string): (url: string) => string {
  const file = path.join(webDist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return () => '';
  const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  const hints = new Map<string, { code: string; data: string[] }>();
  for (const [screen, source] of Object.entries(SCREENS)) {
    const js: string[] = [];
    const css: string[] = [];
    const seen = new Set<string>();
    const walk = (key: string) => {
      const e = manifest[key];
      if (!e || e.isEntry || seen.has(key)) return;
      seen.add(key);
      js.push(e.file);
      css.push(...(e.css ?? []));
      for (const i of e.imports ?? []) walk(i);
    };
    walk(source);
    if (!js.length) continue;
    const code = [
      ...css.map((f) => `<link rel="preload" as="style" crossorigin href="/${f}">`),
      ...js.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
    ].join('');
    hints.set(screen, { code, data: DATA[screen] ?? [] });
  }
  const fetches = (urls: string[]) => urls.map((u) => `<link rel="preload" as="fetch" crossorigin href="${u}">`).join('');
  return (url) => {
    const [pathname, query] = url.split('?', 2);
    const m = /^(?:\/s\/([A-Z0-9]{2,8}))?\/dashboard(?:\/(.*?))?\/?$/.exec(pathname);
    const h = m && hints.get(m[2] ?? '');
    if (!h) return '';
    // An address with a query (another salesman's tracker, the unassigned leads) asks for other data: the code alone.
    if (query) return h.code;
    // A screen's data is its store's, named last as the app names it (web/api/client.ts); an
    // address without a store goes on to the person's own, so only the shell's is known.
    const store = m[1];
    const data = store ? h.data.map((u) => `${u}${u.includes('?') ? '&' : '?'}store=${store}`) : [];
    return fetches([...SHELL_DATA, ...data]) + h.code;
  };
}
