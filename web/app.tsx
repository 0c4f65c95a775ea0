import { StrictMode, Suspense, type ReactNode } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MantineProvider } from '@mantine/core';
import './styles/base';
import { SessionProvider } from './session/SessionProvider';
import { PageLoader, RequireAuth, RequireGroupManager, RequireManager } from './shell/guards';
import { HomeRedirect, StoreScope } from './stores/StoreScope';
import SignInPage from './signin/SignInPage';
import FinishLoginPage from './signin/FinishLoginPage';
import ConfirmEmailPage from './signin/ConfirmEmailPage';
import NotFoundPage from './components/NotFoundPage';
import { ScreenError } from './components/ScreenError';
import { DrawnForPhone } from './components/AfterDraw';
import { cssVariablesResolver, theme } from './theme';
import { screens } from './screens';
import { rotationQuery } from './api/rotation';
import { rulesQuery } from './api/rules';
import { OVERVIEW_LOG_SIZE, ROUTING_LOG_SIZE } from '../domain/rotation';
import type { AskedAtStart } from '../domain/first-data';

// The portal's screens and what holds them, the same in the browser (main.tsx) and where the
// server draws a screen's first frame with its data (entry-server.tsx).

// The shell and every screen load on demand (their Views), so the sign-in page stays small.
const routes: RouteObject[] = [
  { path: '/', element: <SignInPage /> },
  { path: '/finish-login', element: <FinishLoginPage /> },
  { path: '/confirm-email', element: <ConfirmEmailPage /> },
  {
    // The showroom TV by its own link (/tv#secret): no one signed in, the board only.
    path: '/tv',
    element: (
      <Suspense fallback={<PageLoader />}>
        <screens.tvLink.View />
      </Suspense>
    ),
  },
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

export const newQueryClient = () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 1 } } });

/** What a screen asks for first in its store, as server/http/preload.ts names it with the page. */
type First = (store: string) => { queryKey: unknown[]; queryFn: () => Promise<unknown> };
export const FIRST: Record<AskedAtStart, First[]> = {
  overview: [(s) => rotationQuery(OVERVIEW_LOG_SIZE, s), rulesQuery],
  routing: [(s) => rotationQuery(ROUTING_LOG_SIZE, s)],
};

/** The portal around its router (the browser's, or the server's for one address); `phone`: a drawn page's, drawn for a phone. */
export function Portal({ client, phone = false, children }: { client: QueryClient; phone?: boolean; children: ReactNode }) {
  return (
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={cssVariablesResolver}>
        <QueryClientProvider client={client}>
          <DrawnForPhone.Provider value={phone}>
            <SessionProvider>{children}</SessionProvider>
          </DrawnForPhone.Provider>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}

/** The screens, each drawn from its address; a screen that cannot be drawn says so. */
export const Screens = () => (
  <ScreenError>
    <AppRoutes />
  </ScreenError>
);
