import { Suspense, useEffect, useState } from 'react';
import { NavLink as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { AppShell, Burger, Center, Group, Loader, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useSession } from '../session/SessionProvider';
import { useSignedOut } from '../session/useSignedOut';
import { ALL_STORES, useLiveEvents } from '../api/live';
import { WeatherReadout } from './WeatherReadout';
import { greetingFor } from '../../domain/greeting';
import { displayName } from '../../domain/format';
import { localHour } from '../../domain/time';
import { APP_NAME } from '../api/meta';
import { useStore, useStorePath, useTimeZone } from '../stores/store';
import { StoreSwitcher } from '../stores/StoreSwitcher';
import { UserMenu } from './UserMenu';
import { NamePrompt } from './NamePrompt';
import {
  IconChartBar,
  IconChartDots,
  IconFilter,
  IconClipboardList,
  IconHome,
  IconInbox,
  IconLogout,
  IconBuildingStore,
  IconPresentationAnalytics,
  IconRoute,
  IconSettings,
  IconUser,
  IconUsers,
} from '@tabler/icons-react';
import { Notifications } from '@mantine/notifications';
import { ModalsProvider } from '@mantine/modals';
import '../styles/dashboard';
import { likelyNext, prefetchWhenIdle } from '../screens';
import { UpNow } from '../leads/UpNow';
import { registerServiceWorker } from '../leads/alerts';

function useHour() {
  // The greeting follows the store's clock, like every other time shown. The shell is drawn anew
  // in another store (StoreScope), so its zone is the one it started with.
  const tz = useTimeZone();
  const [hour, setHour] = useState(() => localHour(new Date(), tz));
  useEffect(() => {
    const t = setInterval(() => setHour(localHour(new Date(), tz)), 60_000);
    return () => clearInterval(t);
  }, [tz]);
  return hour;
}

/** The frame of every screen: header, menu, live updates. `group`: the group's screen, live on every store. */
export default function DashboardShell({ group = false }: { group?: boolean }) {
  const { user, isManager, logout } = useSession();
  const store = useStore();
  const to = useStorePath();
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const navigate = useNavigate();
  const onStats = location.pathname.startsWith(to('/dashboard/stats'));
  const [statsOpen, setStatsOpen] = useState(onStats);
  const hour = useHour();
  // Below the sm breakpoint the sidebar is a slide-over; while it is shut it is off screen, so it
  // must also be out of the tab order and the accessibility tree. Read at the first render (the
  // app is never rendered on a server), so a phone does not build the whole screen twice.
  const phone = useMediaQuery('(max-width: 47.99em)', undefined, { getInitialValueInEffect: false });

  // Arriving on a Stats page opens its group in the menu.
  const [wasOnStats, setWasOnStats] = useState(onStats);
  if (onStats !== wasOnStats) {
    setWasOnStats(onStats);
    if (onStats) setStatsOpen(true);
  }
  useEffect(close, [location.pathname, close]);
  useEffect(() => prefetchWhenIdle(likelyNext(location.pathname, isManager)), [location.pathname, isManager]);

  const onRevoked = useSignedOut();
  useLiveEvents(group ? ALL_STORES : store.code, onRevoked);
  useEffect(registerServiceWorker, []);

  const icon = (I: typeof IconHome) => <I size={18} stroke={1.6} aria-hidden />;
  const link = (to: string, label: string, I: typeof IconHome) => (
    <NavLink key={to} component={RouterLink} to={to} label={label} leftSection={icon(I)} active={location.pathname === to} />
  );
  const name = displayName(user?.name, user?.email);
  const greeting = greetingFor(hour, user?.profile.greeting);

  return (
    <ModalsProvider>
      {/* Bottom right: never over the header, and clear of a dialog's title bar and close button. */}
      <Notifications position="bottom-right" containerWidth={360} />
      <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close menu' : 'Open menu'} />
              <Text fw={700} visibleFrom="md" truncate>
                {APP_NAME}
              </Text>
              <StoreSwitcher group={group} />
            </Group>
            <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: 1, justifyContent: 'flex-end' }}>
              <Text size="sm" truncate data-testid="greeting" title={name ? `${greeting}, ${name}` : greeting} miw={0}>
                {name ? (
                  <>
                    {greeting}, <b>{name}</b>
                  </>
                ) : (
                  greeting
                )}
              </Text>
              <WeatherReadout />
              {/* While the slide-over menu is open it holds Settings and Logout itself; Tab goes from its button straight into it. */}
              {!(phone && opened) && <UserMenu />}
            </Group>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar p="xs" aria-label="Main" inert={phone && !opened}>
          <AppShell.Section grow component={ScrollArea}>
            {user?.groupManager && link('/group', 'Group', IconBuildingStore)}
            {link(to('/dashboard/overview'), 'Overview', IconHome)}
            {link(to('/dashboard/associates'), 'Salesman', IconUser)}
            <NavLink
              component="button"
              label="Stats"
              leftSection={icon(IconPresentationAnalytics)}
              aria-expanded={statsOpen}
              opened={statsOpen}
              onChange={setStatsOpen}
              active={false}
              childrenOffset={28}
            >
              {link(to('/dashboard/stats/sales'), 'Sales', IconChartBar)}
              {link(to('/dashboard/stats/leads'), 'Leads', IconChartDots)}
              {link(to('/dashboard/stats/funnel'), 'Funnel', IconFilter)}
            </NavLink>
            {isManager && (
              <>
                {link(to('/dashboard/management'), 'Manager', IconUsers)}
                {link(to('/dashboard/routing'), 'Routing', IconRoute)}
                {link(to('/dashboard/leads'), 'Leads', IconInbox)}
                {link(to('/dashboard/desk'), 'Desk log', IconClipboardList)}
              </>
            )}
            {link(to('/dashboard/settings'), 'Settings', IconSettings)}
            <NavLink
              component="button"
              label="Logout"
              leftSection={icon(IconLogout)}
              onClick={() => void logout().then(() => navigate('/', { replace: true }))}
            />
          </AppShell.Section>
          <AppShell.Section>
            <Text size="xs" c="dimmed" px="xs" pt="xs" truncate data-testid="store-name">
              {store.name}
            </Text>
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
            <NamePrompt />
            <Outlet />
          </Suspense>
        </AppShell.Main>
      </AppShell>
    </ModalsProvider>
  );
}
