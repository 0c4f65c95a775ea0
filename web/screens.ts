import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { whenIdle } from './components/idle';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each screen has props of its own
type Module = { default: ComponentType<any> };
/** A screen's loader, and the screen drawn from its code (View). */
type Loader<M extends Module> = (() => Promise<M>) & { View: LazyExoticComponent<M['default']> };

/**
 * A screen's loader and its View. Code already in (the page named it, or it was fetched when
 * idle) is handed to the View at once, not a promise later: otherwise the screen suspends for a
 * moment, shows the loader, and React then holds that loader for 300 ms before it draws the screen.
 */
function kept<M extends Module>(load: () => Promise<M>): Loader<M> {
  let loaded: M | undefined;
  const fetch = () => load().then((m) => (loaded = m));
  const View = lazy(() => {
    const m = loaded;
    return m ? ({ then: (ok: (v: M) => void) => ok(m) } as Promise<M>) : fetch();
  });
  return Object.assign(fetch, { View });
}

/**
 * Each screen's code, loaded on demand (main.tsx draws their Views); the same loaders fetch the
 * screen a user most likely opens next once the browser is idle, so that click waits for nothing.
 */
export const screens = {
  shell: kept(() => import('./shell/DashboardShell')),
  overview: kept(() => import('./overview/OverviewPage')),
  associates: kept(() => import('./associates/AssociatesPage')),
  sales: kept(() => import('./stats/SalesPage')),
  salesTv: kept(() => import('./stats/SalesTvPage')),
  tvLink: kept(() => import('./tv/TvPage')),
  leadsKpi: kept(() => import('./stats/LeadsKpiPage')),
  funnel: kept(() => import('./stats/FunnelPage')),
  management: kept(() => import('./management/ManagementPage')),
  routing: kept(() => import('./routing/RoutingPage')),
  leads: kept(() => import('./leads/LeadsPage')),
  settings: kept(() => import('./settings/SettingsPage')),
  group: kept(() => import('./group/GroupPage')),
  desk: kept(() => import('./desk/DeskPage')),
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
