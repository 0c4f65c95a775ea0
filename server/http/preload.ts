import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { OVERVIEW_LOG_SIZE, ROUTING_LOG_SIZE } from '../../domain/rotation';
import { isAskedAtStart } from '../../domain/first-data';

/** A dashboard address's screen (the group's screen is 'group', /group), as the build's manifest names its source. */
const SCREENS: Record<string, string> = {
  '': 'overview/OverviewPage.tsx',
  overview: 'overview/OverviewPage.tsx',
  associates: 'associates/AssociatesPage.tsx',
  stats: 'stats/SalesPage.tsx',
  'stats/sales': 'stats/SalesPage.tsx',
  'stats/leads': 'stats/LeadsKpiPage.tsx',
  'stats/funnel': 'stats/FunnelPage.tsx',
  routing: 'routing/RoutingPage.tsx',
  management: 'management/ManagementPage.tsx',
  leads: 'leads/LeadsPage.tsx',
  desk: 'desk/DeskPage.tsx',
  settings: 'settings/SettingsPage.tsx',
  group: 'group/GroupPage.tsx',
};

/**
 * What a screen asks the API for first in its store, besides what the shell asks on every
 * screen: only what every person who may open the screen asks (a manager's team board, a group
 * manager's keys are left out), and no address that depends on the day.
 */
const DATA: Record<string, string[]> = {
  '': [`/api/rotation?log=${OVERVIEW_LOG_SIZE}`, '/api/rules'],
  overview: [`/api/rotation?log=${OVERVIEW_LOG_SIZE}`, '/api/rules'],
  routing: [`/api/rotation?log=${ROUTING_LOG_SIZE}`],
  leads: ['/api/leads?open=1'],
  stats: ['/api/sales'],
  'stats/sales': ['/api/sales'],
  'stats/leads': ['/api/leads/kpis'],
  management: ['/api/users', '/api/rules', '/api/routing', '/api/payplans', '/api/integrations/keys', '/api/mail/addresses'],
  desk: ['/api/rotation?log=1'],
  settings: ['/api/profile/notify'],
};
/** What a screen asks for first that is the person's own, not a store's: named on any of its addresses. */
const OWN_DATA: Record<string, string[]> = {
  management: ['/api/stores', '/api/auth/settings'],
  settings: ['/api/push/subscriptions', '/api/profile/mobile', '/api/auth/passkeys', '/api/auth/sessions'],
  group: ['/api/group', '/api/group/waiting'],
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
export function dashboardHints(webDist: string): (url: string, drawn?: boolean) => string {
  const file = path.join(webDist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return () => '';
  const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  const hints = new Map<string, { code: string; drawnCode: string; data: string[]; own: string[]; atStart: boolean }>();
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
    const scripts = js.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
    const code = css.map((f) => `<link rel="preload" as="style" crossorigin href="/${f}">`).join('') + scripts;
    // A drawn page is shown before its code runs: its screen's styles apply from the first paint.
    const drawnCode = css.map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`).join('') + scripts;
    // '' is /dashboard, the overview.
    hints.set(screen, { code, drawnCode, data: DATA[screen] ?? [], own: OWN_DATA[screen] ?? [], atStart: screen === '' || isAskedAtStart(screen) });
  }
  const fetches = (urls: string[]) => urls.map((u) => `<link rel="preload" as="fetch" crossorigin href="${u}">`).join('');
  // A page the server drew (./drawn.ts) holds its data: the code, and the header's weather.
  return (url, drawn = false) => {
    const [pathname, query] = url.split('?', 2);
    const m = /^(?:\/s\/([A-Z0-9]{2,8}))?\/dashboard(?:\/(.*?))?\/?$/.exec(pathname);
    const h = m ? hints.get(m[2] ?? '') : /^\/group\/?$/.test(pathname) ? hints.get('group') : undefined;
    if (!h) return '';
    if (drawn) return fetches(['/api/weather']) + h.drawnCode;
    // An address with a query (another salesman's tracker, the unassigned leads, the mail to
    // review) asks for other data: the code and the shell's questions alone.
    if (query) return fetches(SHELL_DATA) + h.code;
    // A screen's data is its store's, named last as the app names it (web/api/client.ts). An
    // address without a store goes on to the person's own: a screen whose data the app asks for
    // as it starts asks without a store (the server's answer is then his own store's).
    const store = m?.[1];
    const data = store ? h.data.map((u) => `${u}${u.includes('?') ? '&' : '?'}store=${store}`) : h.atStart ? h.data : [];
    return fetches([...SHELL_DATA, ...h.own, ...data]) + h.code;
  };
}
