import { lazy, type ComponentType } from 'react';
import { whenIdle } from './components/idle';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each screen has props of its own
type Module = { default: ComponentType<any> };
/** A screen's loader, which keeps the code once it is in. */
type Loader<M extends Module> = (() => Promise<M>) & { loaded?: M };

function kept<M extends Module>(load: () => Promise<M>): Loader<M> {
  const loader: Loader<M> = () => load().then((m) => (loader.loaded = m));
  return loader;
}

/**
 * Each screen's code, loaded on demand (main.tsx makes them lazy); the same loaders fetch the
 * screen a user most likely opens next once the browser is idle, so that click waits for nothing.
 */
export const screens = {
  shell: kept(() => import('./shell/DashboardShell')),
  overview: kept(() => import('./overview/OverviewPage')),
  associates: kept(() => import('./associates/AssociatesPage')),
  sales: kept(() => import('./stats/SalesPage')),
  salesTv: kept(() => import('./stats/SalesTvPage')),
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

/**
 * A screen drawn on demand. Code already in (the page named it, or it was fetched when idle) is
 * handed over at once, not a promise later: otherwise the screen suspends for a moment, shows the
 * loader, and React then holds that loader for 300 ms before it draws the screen.
 */
export function lazyScreen<M extends Module>(load: Loader<M>) {
  return lazy(() => {
    const m = load.loaded;
    return m ? ({ then: (ok: (v: typeof m) => void) => ok(m) } as Promise<typeof m>) : load();
  });
}

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
