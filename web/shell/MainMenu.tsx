import { useState } from 'react';
import { NavLink as RouterLink, useLocation, useNavigate } from 'react-router';
import { AppShell, NavLink, Text } from '@mantine/core';
import {
  IconBuildingStore,
  IconChartBar,
  IconChartDots,
  IconClipboardList,
  IconFilter,
  IconHome,
  IconInbox,
  IconLogout,
  IconPresentationAnalytics,
  IconRoute,
  IconSettings,
  IconUser,
  IconUsers,
} from '@tabler/icons-react';
import { useSession } from '../session/SessionProvider';
import { useStore, useStorePath } from '../stores/store';

const icon = (I: typeof IconHome) => <I size={18} stroke={1.6} aria-hidden />;

/** The menu's links, the person's store and address. */
export function MainMenu() {
  const { user, isManager, logout } = useSession();
  const store = useStore();
  const to = useStorePath();
  const location = useLocation();
  const navigate = useNavigate();
  const onStats = location.pathname.startsWith(to('/dashboard/stats'));
  const [statsOpen, setStatsOpen] = useState(onStats);
  // Arriving on a Stats page opens its group in the menu.
  const [wasOnStats, setWasOnStats] = useState(onStats);
  if (onStats !== wasOnStats) {
    setWasOnStats(onStats);
    if (onStats) setStatsOpen(true);
  }

  const link = (to: string, label: string, I: typeof IconHome) => (
    <NavLink key={to} component={RouterLink} to={to} label={label} leftSection={icon(I)} active={location.pathname === to} />
  );
  return (
    <>
      <AppShell.Section grow style={{ overflowY: 'auto' }}>
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
        <NavLink component="button" label="Logout" leftSection={icon(IconLogout)} onClick={() => void logout().then(() => navigate('/', { replace: true }))} />
      </AppShell.Section>
      <AppShell.Section>
        <Text size="xs" c="dimmed" px="xs" pt="xs" truncate data-testid="store-name">
          {store.name}
        </Text>
        <Text size="xs" c="dimmed" p="xs" truncate data-testid="user-email">
          {user?.email}
        </Text>
      </AppShell.Section>
    </>
  );
}
