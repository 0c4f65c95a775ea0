import { whenIdle } from './components/idle';

/**
 * Each screen's code, loaded on demand (main.tsx makes them lazy); the same loaders fetch the
 * screen a user most likely opens next once the browser is idle, so that click waits for nothing.
 */
export const screens = {
  shell: () => import('./shell/DashboardShell'),
  overview: () => import('./overview/OverviewPage'),
  associates: () => import('./associates/AssociatesPage'),
  sales: () => import('./stats/SalesPage'),
  salesTv: () => import('./stats/SalesTvPage'),
  leadsKpi: () => import('./stats/LeadsKpiPage'),
  funnel: () => import('./stats/FunnelPage'),
  management: () => import('./management/ManagementPage'),
  routing: () => import('./routing/RoutingPage'),
  leads: () => import('./leads/LeadsPage'),
  settings: () => import('./settings/SettingsPage'),
  group: () => import('./group/GroupPage'),
  desk: () => import('./desk/DeskPage'),
};
type Screen = keyof typeof screens;

/** The screens a user on `path` most likely opens next. The chart screens are left to a click: their library is large. */
export function likelyNext(path: string, isManager: boolean): Screen[] {
  if (path.endsWith('/overview')) return isManager ? ['routing', 'leads'] : ['associates'];
  if (path.endsWith('/routing')) return ['leads', 'overview'];
  if (path.endsWith('/leads')) return ['routing', 'overview'];
  return ['overview'];
}

/** Loads the screens' code when the browser has nothing else to do; nothing is shown. */
export function prefetchWhenIdle(names: Screen[]): () => void {
  return whenIdle(() => {
    for (const n of names) screens[n]().catch(() => undefined);
  }, 4000);
}
