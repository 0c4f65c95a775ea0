import { useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Badge, Button, Divider, Popover, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconBuildingStore, IconCheck, IconChevronDown, IconLayoutGrid } from '@tabler/icons-react';
import { useSession } from '../session/SessionProvider';
import { useStore } from './store';
import { useChooseStore } from './api';
import { sameScreenIn } from './paths';

/**
 * The header's store switcher: the store on screen, and his other stores. Choosing one opens the
 * same screen there and remembers it for his next visit. Hidden for someone with one store; a
 * group manager always has it (and the group's screen in it). A popover, like the account menu.
 */
export function StoreSwitcher({ group }: { group: boolean }) {
  const { user } = useSession();
  const store = useStore();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const choose = useChooseStore();
  const [opened, setOpened] = useState(false);
  if (!user || (user.stores.length < 2 && !user.groupManager)) return null;

  const open = (code: string) => {
    setOpened(false);
    if (!group && code === store.code) return;
    void navigate(sameScreenIn(pathname, code));
    if (code !== user.store) choose.mutate(code);
  };
  const item = (key: string, current: boolean, onClick: () => void, label: ReactNode) => (
    <Button
      key={key}
      variant={current ? 'light' : 'subtle'}
      color={current ? 'blue' : 'gray'}
      justify="flex-start"
      fullWidth
      aria-current={current ? 'page' : undefined}
      leftSection={current ? <IconCheck size={16} aria-hidden /> : <span style={{ width: 16 }} aria-hidden />}
      onClick={onClick}
      styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
    >
      {label}
    </Button>
  );

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" width={280} shadow="md" trapFocus returnFocus withinPortal>
      <Popover.Target>
        <UnstyledButton
          data-testid="store-switcher"
          aria-haspopup="dialog"
          aria-expanded={opened}
          title={group ? 'All stores' : `${store.name} (${store.code})`}
          onClick={() => setOpened((o) => !o)}
          style={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: 6,
            minWidth: 0,
            flexShrink: 1,
            padding: '4px 8px',
            borderRadius: 'var(--mantine-radius-sm)',
            border: '1px solid var(--mantine-color-default-border)',
          }}
        >
          <IconBuildingStore size={18} stroke={1.6} aria-hidden style={{ flexShrink: 0 }} />
          <VisuallyHidden>Store: </VisuallyHidden>
          {group ? (
            <Text size="sm" fw={600} truncate>
              All stores
            </Text>
          ) : (
            <>
              <Text size="sm" fw={600} truncate visibleFrom="sm" data-testid="store-switcher-name">
                {store.name}
              </Text>
              <Badge variant="light" size="sm" style={{ flexShrink: 0 }} data-testid="store-switcher-code">
                {store.code}
              </Badge>
            </>
          )}
          <IconChevronDown size={14} aria-hidden style={{ flexShrink: 0 }} />
        </UnstyledButton>
      </Popover.Target>
      {/* Named by the button that opens it ("Store: Northside Honda NSH"). */}
      <Popover.Dropdown p="xs" role="dialog">
        <Text size="xs" c="dimmed" fw={700} tt="uppercase" px={6} pb={6}>
          Your stores
        </Text>
        <Stack gap={2} data-testid="store-choices">
          {user.groupManager &&
            item(
              'group',
              group,
              () => {
                setOpened(false);
                void navigate('/group');
              },
              <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                <IconLayoutGrid size={16} aria-hidden /> All stores
              </span>,
            )}
          {user.groupManager && <Divider my={4} />}
          {user.stores.map((s) =>
            item(
              s.code,
              !group && s.code === store.code,
              () => open(s.code),
              <span>
                {s.name}{' '}
                <Text span size="xs" c="dimmed">
                  {s.code}
                </Text>
              </span>,
            ),
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
