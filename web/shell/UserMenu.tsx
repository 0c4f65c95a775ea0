import { useNavigate } from 'react-router';
import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconLogout, IconSettings } from '@tabler/icons-react';
import { useSession } from '../session/SessionProvider';
import { displayName, initials } from '../../domain/format';

/** The header's account menu: who is signed in, Settings and Logout. */
export function UserMenu() {
  const { user, logout } = useSession();
  const navigate = useNavigate();
  if (!user) return null;
  const name = displayName(user.name, user.email);
  return (
    <Menu position="bottom-end" width={240} withinPortal shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={`Account: ${name}`} data-testid="user-menu" style={{ borderRadius: '50%', flexShrink: 0 }}>
          <Avatar color="blue" radius="xl" size={36} variant="filled">
            {initials(user.name, user.email)}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <div style={{ padding: '6px 12px 8px' }}>
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="user-menu-name">
            {name}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Text>
        </div>
        <Menu.Divider />
        <Menu.Item leftSection={<IconSettings size={16} aria-hidden />} onClick={() => void navigate('/dashboard/settings')}>
          Settings
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void logout().then(() => navigate('/', { replace: true }))}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
