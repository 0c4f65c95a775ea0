import { startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, useRoutes, type RouteObject } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MantineProvider } from '@mantine/core';
import './styles/base';
import { SessionProvider } from './session/SessionProvider';
import { PageLoader, RequireAuth, RequireGroupManager, RequireManager } from './shell/guards';
import { HomeRedirect, StoreScope } from './stores/StoreScope';
import { codeInPath } from './stores/paths';
import { readCode } from '../domain/stores';
import SignInPage from './signin/SignInPage';
import FinishLoginPage from './signin/FinishLoginPage';
import ConfirmEmailPage from './signin/ConfirmEmailPage';
import NotFoundPage from './components/NotFoundPage';
import { ScreenError } from './components/ScreenError';
import { cssVariablesResolver, theme } from './theme';
import { screens } from './screens';
import { rotationQuery } from './api/rotation';
import { rulesQuery } from './api/rules';
import { meQuery } from './session/SessionProvider';
import { OVERVIEW_LOG_SIZE, ROUTING_LOG_SIZE } from '../domain/rotation';
import { isAskedAtStart, type AskedAtStart } from '../domain/first-data';

// The page's CSP allows no eval: zod's probe for it (a new Function, when its first object schema
// is built) would be refused and reported. zod reads its settings from this global, so it is set
// here, before any schema exists, without loading zod with the sign-in page.
Object.assign(globalThis, { __zod_globalConfig: { jitless: true } });

// Opening a dashboard address: fetch the shell and that screen now, alongside "who am I", rather
// than one after the other once the session is known. A store's address is /s/CODE/dashboard/...;
// one from before stores, /dashboard/..., goes to the same screen in the person's own store.
const addressCode = readCode(codeInPath(window.location.pathname));
const [top, sub, part] = window.location.pathname.split('/').slice(addressCode ? 3 : 1);
/** The dashboard screen this address opens ('overview' for /dashboard itself); null elsewhere. */
const screen = top === 'dashboard' ? sub || 'overview' : top === 'group' && !addressCode ? 'group' : null;
if (screen) {
  const byPath: Record<string, () => Promise<unknown>> = {
    overview: screens.overview,
    routing: screens.routing,
    leads: screens.leads,
    associates: screens.associates,
    management: screens.management,
    settings: screens.settings,
    stats: part === 'leads' ? screens.leadsKpi : part === 'funnel' ? screens.funnel : screens.sales,
    group: screens.group,
    desk: screens.desk,
  };
  // Own keys only: /dashboard/constructor is just an unknown address.
  const first = Object.hasOwn(byPath, screen) ? byPath[screen] : undefined;
  for (const load of [screens.shell, first]) load?.().catch(() => undefined);
}

// The shell and every screen load on demand (their Views), so the sign-in page stays small.
const routes: RouteObject[] = [
  { path: '/', element: <SignInPage /> },
  { path: '/finish-login', element: <FinishLoginPage /> },
  { path: '/confirm-email', element: <ConfirmEmailPage /> },
  {
    path: '/dashboard/*',
    element: (
      <RequireAuth>
        <HomeRedirect />
      </RequireAuth>
    ),
  },
  {
    // The group's screen, in the shell of the person's own store.
    path: '/group',
    element: (
      <RequireAuth>
        <StoreScope />
      </RequireAuth>
    ),
    children: [
      {
        element: (
          <Suspense fallback={<PageLoader />}>
            <screens.shell.View group />
          </Suspense>
        ),
        children: [
          {
            index: true,
            element: (
              <RequireGroupManager>
                <screens.group.View />
              </RequireGroupManager>
            ),
          },
        ],
      },
    ],
  },
  {
    path: '/s/:code',
    element: (
      <RequireAuth>
        <StoreScope />
      </RequireAuth>
    ),
    children: [
      { index: true, element: <Navigate to="dashboard/overview" replace /> },
      {
        path: 'dashboard',
        element: (
          <Suspense fallback={<PageLoader />}>
            <screens.shell.View />
          </Suspense>
        ),
        children: [
          { index: true, element: <Navigate to="overview" replace /> },
          { path: 'overview', element: <screens.overview.View /> },
          { path: 'associates', element: <screens.associates.View /> },
          { path: 'stats', element: <Navigate to="sales" replace /> },
          { path: 'stats/sales', element: <screens.sales.View /> },
          { path: 'stats/leads', element: <screens.leadsKpi.View /> },
          { path: 'stats/funnel', element: <screens.funnel.View /> },
          { path: 'routing', element: <screens.routing.View /> },
          {
            path: 'management',
            element: (
              <RequireManager>
                <screens.management.View />
              </RequireManager>
            ),
          },
          {
            path: 'leads',
            element: (
              <RequireManager>
                <screens.leads.View />
              </RequireManager>
            ),
          },
          {
            path: 'desk',
            element: (
              <RequireManager>
                <screens.desk.View />
              </RequireManager>
            ),
          },
          { path: 'settings', element: <screens.settings.View /> },
          { path: '*', element: <NotFoundPage embedded /> },
        ],
      },
      {
        // The showroom TV's leaderboard: full screen, without the menu, live on its own stream.
        path: 'tv/sales',
        element: (
          <Suspense fallback={<PageLoader />}>
            <RequireManager>
              <screens.salesTv.View />
            </RequireManager>
          </Suspense>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];
// The declarative router, not the data router (createBrowserRouter): the portal uses no loaders or
// actions, and the data router's code is twice the size on every page's first path.
const AppRoutes = () => useRoutes(routes);

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 1 } },
});

/** What a screen asks for first in its store, as server/http/preload.ts names it with the page. */
type First = (store: string) => { queryKey: unknown[]; queryFn: () => Promise<unknown> };
const FIRST: Record<AskedAtStart, First[]> = {
  overview: [(s) => rotationQuery(OVERVIEW_LOG_SIZE, s), rulesQuery],
  routing: [(s) => rotationQuery(ROUTING_LOG_SIZE, s)],
};
// A screen's first data is asked for now (the page named it, so it is on its way): its first render
// then has it, instead of drawing placeholders and then the data once the shell and the screen have
// drawn. An address without a store (/dashboard/..., the installed app's start) named it without
// one, which the server answers from the person's own store: the address goes on to that store,
// so the answers are kept under its code once "who am I" says which it is.
const first = screen && isAskedAtStart(screen) ? FIRST[screen] : [];
if (addressCode) for (const q of first) void queryClient.prefetchQuery(q(addressCode));
else if (first.length) {
  const asked = first.map((q) => {
    const answer = q('').queryFn();
    answer.catch(() => undefined);
    return { q, answer };
  });
  queryClient.fetchQuery(meQuery).then(
    (user) => {
      if (user?.store) for (const { q, answer } of asked) void queryClient.prefetchQuery({ queryKey: q(user.store).queryKey, queryFn: () => answer });
    },
    () => undefined,
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element to draw the portal in.');
// Drawn as a transition: React then builds the first screen in slices of a few milliseconds,
// between which a phone paints and answers a tap, instead of in one long task.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={cssVariablesResolver}>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>
            <BrowserRouter>
              <ScreenError>
                <AppRoutes />
              </ScreenError>
            </BrowserRouter>
          </SessionProvider>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
