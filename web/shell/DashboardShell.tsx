import { useMedia } from '../components/useCompact';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AppShell, Burger, Center, Group, Loader, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useSession } from '../session/SessionProvider';
import { useSignedOut } from '../session/useSignedOut';
import { ALL_STORES, useLiveEvents } from '../api/live';
import { WeatherReadout } from './WeatherReadout';
import { greetingFor } from '../../domain/greeting';
import { displayName } from '../../domain/format';
import { localHour } from '../../domain/time';
import { APP_NAME } from '../api/meta';
import { useStore, useTimeZone } from '../stores/store';
import { StoreSwitcher } from '../stores/StoreSwitcher';
import { UserMenu } from './UserMenu';
import { MainMenu } from './MainMenu';
import { AfterFirstFrame, TakenOver } from '../components/AfterDraw';
import { NamePrompt } from './NamePrompt';
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
  const { user, isManager } = useSession();
  const store = useStore();
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const hour = useHour();
  // Below the sm breakpoint the sidebar is a slide-over; while it is shut it is off screen, so it
  // must also be out of the tab order and the accessibility tree.
  const phone = useMedia('(max-width: 47.99em)');

  useEffect(close, [location.pathname, close]);
  useEffect(() => prefetchWhenIdle(likelyNext(location.pathname, isManager)), [location.pathname, isManager]);

  const onRevoked = useSignedOut();
  useLiveEvents(group ? ALL_STORES : store.code, onRevoked);
  useEffect(registerServiceWorker, []);

  const name = displayName(user?.name, user?.email);
  const greeting = greetingFor(hour, user?.profile.greeting);

  return (
    <ModalsProvider>
      {/* Bottom right: never over the header, and clear of a dialog's title bar and close button. */}
      <AfterFirstFrame>
        <Notifications position="bottom-right" containerWidth={360} />
      </AfterFirstFrame>
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
          {/* On a phone the menu is off screen until opened: its dozen links wait for the first frame. */}
          <AfterFirstFrame>
            <MainMenu />
          </AfterFirstFrame>
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
            {/* Under the screen: appearing as the page is taken over, it moves nothing a hand is about to tap. */}
            <NamePrompt />
            <TakenOver />
          </Suspense>
        </AppShell.Main>
      </AppShell>
    </ModalsProvider>
  );
}
