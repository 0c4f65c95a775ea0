import { Suspense, useCallback, useEffect, useState } from 'react';
import { NavLink as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { AppShell, Burger, Center, Group, Loader, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { SIGNED_OUT_WHY, useSession } from '../session/SessionProvider';
import { useLiveEvents } from '../api/live';
import { WeatherReadout } from './WeatherReadout';
import { greetingFor } from '../../domain/greeting';
import { APP_NAME } from '../api/meta';
import { useQueryClient } from '@tanstack/react-query';
import { Notifications } from '@mantine/notifications';
import { ModalsProvider } from '@mantine/modals';
import '../styles/dashboard';
import { likelyNext, prefetchWhenIdle } from '../screens';
import { UpNow } from '../leads/UpNow';
import { registerServiceWorker } from '../leads/alerts';

function useHour() {
  const [hour, setHour] = useState(() => new Date().getHours());
  useEffect(() => {
    const t = setInterval(() => setHour(new Date().getHours()), 60_000);
    return () => clearInterval(t);
  }, []);
  return hour;
}

export default function DashboardShell() {
  const { user, isManager, logout } = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const onStats = location.pathname.startsWith('/dashboard/stats');
  const [statsOpen, setStatsOpen] = useState(onStats);
  const hour = useHour();
  // Below the sm breakpoint the sidebar is a slide-over; while it is shut it is off screen, so it
  // must also be out of the tab order and the accessibility tree.
  const phone = useMediaQuery('(max-width: 47.99em)');

  // Arriving on a Stats page opens its group in the menu.
  const [wasOnStats, setWasOnStats] = useState(onStats);
  if (onStats !== wasOnStats) {
    setWasOnStats(onStats);
    if (onStats) setStatsOpen(true);
  }
  useEffect(close, [location.pathname, close]);
  useEffect(() => prefetchWhenIdle(likelyNext(location.pathname, isManager)), [location.pathname, isManager]);

  const onRevoked = useCallback(() => {
    // The sign-in page tells him why (his own session knew who he was, so no stranger learns it).
    sessionStorage.setItem(SIGNED_OUT_WHY, 'access-off');
    qc.setQueryData(['me'], null);
    void navigate('/', { replace: true });
  }, [qc, navigate]);
  useLiveEvents(onRevoked);
  useEffect(registerServiceWorker, []);

  const link = (to: string, label: string) => <NavLink key={to} component={RouterLink} to={to} label={label} active={location.pathname === to} />;

  return (
    <ModalsProvider>
      <Notifications position="top-right" />
      <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close menu' : 'Open menu'} />
              <Text fw={700} visibleFrom="xs" truncate>
                {APP_NAME}
              </Text>
            </Group>
            <Group gap="md" wrap="nowrap" miw={0}>
              <Text size="sm" truncate data-testid="greeting">
                {greetingFor(hour, user?.profile.greeting)}, <b>{user?.name}</b>
              </Text>
              <WeatherReadout />
            </Group>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar p="xs" aria-label="Main" inert={phone && !opened}>
          <AppShell.Section grow component={ScrollArea}>
            {link('/dashboard/overview', 'Overview')}
            {link('/dashboard/associates', 'Salesman')}
            <NavLink component="button" label="Stats" aria-expanded={statsOpen} opened={statsOpen} onChange={setStatsOpen} active={false} childrenOffset={28}>
              {link('/dashboard/stats/sales', 'Sales')}
              {link('/dashboard/stats/leads', 'Leads')}
            </NavLink>
            {isManager && (
              <>
                {link('/dashboard/management', 'Manager')}
                {link('/dashboard/routing', 'Routing')}
                {link('/dashboard/leads', 'Leads')}
              </>
            )}
            {link('/dashboard/settings', 'Settings')}
            <NavLink component="button" label="Logout" onClick={() => void logout().then(() => navigate('/', { replace: true }))} />
          </AppShell.Section>
          <AppShell.Section>
            <Text size="xs" c="dimmed" p="xs" truncate data-testid="user-email">
              {user?.email}
            </Text>
          </AppShell.Section>
        </AppShell.Navbar>

        <AppShell.Main>
          <UpNow />
          <Suspense
            fallback={
              <Center p="xl">
                <Loader aria-label="Loading" />
              </Center>
            }
          >
            <Outlet />
          </Suspense>
        </AppShell.Main>
      </AppShell>
    </ModalsProvider>
  );
}
