import { useMedia } from '../components/useCompact';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert, Badge, Button, Checkbox, Group, Loader, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { PageTitle } from '../components/PageTitle';
import { useBuiltAfter, useOneByOne } from '../components/AfterDraw';
import { ApiError } from '../../domain/errors';
import { useSession } from '../session/SessionProvider';
import { statusOf, visibleUsers } from '../../domain/users';
import { useStatus, useUsers, type ManagedUser } from './api';
import { UserDialog } from './UserDialog';
import { Integrations } from './Integrations';
import { RulesSection } from './RulesSection';
import { RoutingRulesSection } from '../routing-rules/RoutingRulesSection';
import { PayPlanSection } from './PayPlanSection';
import { StoresSection } from '../stores/StoresSection';
import { SignInSection } from './SignInSection';
import { MANAGER_SECTIONS } from './sections';

/** A section brought into view stops below the header, not under it. */
const SECTION_MARGIN = { scrollMarginTop: 'calc(var(--app-shell-header-height, 60px) + 12px)' };

const NO_PERMISSION = 'You need manager permissions to view this page.';

/** The settings under the list of users, top to bottom (their addresses: sections.ts). */
const SECTIONS = [StoresSection, RulesSection, RoutingRulesSection, PayPlanSection, Integrations, SignInSection];
const SECTION_IDS = MANAGER_SECTIONS.slice(1).map((s) => s.id);

/** Links to the page's sections, wrapping on a phone. */
function SectionLinks() {
  return (
    <Group component="nav" aria-label="Manager sections" gap={6} wrap="wrap">
      {MANAGER_SECTIONS.map((s) => (
        <Button key={s.id} component="a" href={`#${s.id}`} size="compact-sm" variant="light" color="gray">
          {s.label}
        </Button>
      ))}
    </Group>
  );
}

/** The section the address names comes into view once it is drawn (the sections come one by one). */
function useSectionInView(drawn: number) {
  const { hash } = useLocation();
  const shown = useRef('');
  const id = hash.slice(1);
  const at = id === 'users' ? 0 : SECTION_IDS.indexOf(id as (typeof SECTION_IDS)[number]) + 1;
  useEffect(() => {
    if (!id || id === shown.current || at < 0 || drawn < at) return;
    document.getElementById(id)?.scrollIntoView({ block: 'start' });
    shown.current = id;
  }, [id, at, drawn]);
}

export default function ManagementPage() {
  const { isManager } = useSession();
  const [showDeleted, setShowDeleted] = useState(false);
  const [dialog, setDialog] = useState<{ user: ManagedUser | null } | null>(null);
  const phone = useMedia('(max-width: 48em)');
  const q = useUsers(showDeleted);
  const status = useStatus();
  // The page's frame comes first; the list of users and the sections under it are built after it,
  // in slices between which a phone still paints and answers taps (deferred values), or drawn
  // with it on the server.
  const list = useBuiltAfter(q.data ?? null);
  // Once the users have come the sections stay shown (Show deleted asks for another list).
  const [listed, setListed] = useState(false);
  if (list && !listed) setListed(true);
  // The sections come one by one after the frame (a phone builds each in a task of its own); a drawn page has them all.
  const sections = useOneByOne(SECTIONS.length);
  useSectionInView(listed ? sections : 0);

  if (!isManager || (q.error instanceof ApiError && q.error.status === 403)) {
    return (
      <Stack>
        <PageTitle>User Management</PageTitle>
        <Alert color="red">{NO_PERMISSION}</Alert>
      </Stack>
    );
  }

  const users = visibleUsers(list ?? [], showDeleted);
  const softDelete = (u: ManagedUser) =>
    modals.openConfirmModal({
      title: 'Soft Delete',
      children: <Text size="sm">{`Soft-delete ${u.email}? They will be hidden until restored.`}</Text>,
      labels: { confirm: 'Soft Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => status.mutate({ id: u.id, action: 'delete' }),
    });
  const disable = (u: ManagedUser) =>
    modals.openConfirmModal({
      title: 'Disable',
      children: <Text size="sm">{`Disable ${u.email}? They are signed out at once and cannot sign in until enabled.`}</Text>,
      labels: { confirm: 'Disable', cancel: 'Cancel' },
      confirmProps: { color: 'orange' },
      onConfirm: () => status.mutate({ id: u.id, action: 'disable' }),
    });
  const actions = (u: ManagedUser) => (
    <Actions
      user={u}
      busy={status.isPending && status.variables?.id === u.id}
      onEdit={() => setDialog({ user: u })}
      onStatus={(action) => (action === 'disable' ? disable(u) : status.mutate({ id: u.id, action }))}
      onDelete={() => softDelete(u)}
    />
  );

  return (
    <Stack>
      <PageTitle>User Management</PageTitle>
      <SectionLinks />
      <Group justify="space-between" wrap="wrap" id="users" style={SECTION_MARGIN}>
        <Checkbox label="Show deleted" checked={showDeleted} onChange={(e) => setShowDeleted(e.currentTarget.checked)} />
        {/* The theme's default blue under white text is below 4.5:1; a darker shade passes. */}
        <Button color="blue.8" onClick={() => setDialog({ user: null })}>
          Add User
        </Button>
      </Group>

      {!q.isError && !list ? (
        <Loader aria-label="Loading users" />
      ) : q.isError ? (
        <Alert color="red">Could not load the users: {q.error.message}</Alert>
      ) : users.length === 0 ? (
        <Text c="dimmed">{showDeleted ? 'No users (including deleted).' : 'No active users.'}</Text>
      ) : phone ? (
        <Stack gap="sm" role="list" aria-label="Users">
          {users.map((u) => (
            <Paper key={u.id} withBorder p="sm" radius="md" role="listitem" data-testid="user-row" aria-label={u.email} className="laid-out-near">
              <Stack gap={6}>
                <Badges user={u} />
                <Text fw={600}>{u.name}</Text>
                <Stores user={u} />
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {u.email}
                </Text>
                <PendingEmail user={u} />
                {actions(u)}
              </Stack>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Role</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Stores</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((u) => (
                <Table.Tr key={u.id} data-testid="user-row">
                  <Table.Td>
                    <Badges user={u} />
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 120 }}>{u.name}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {u.email}
                    <PendingEmail user={u} />
                  </Table.Td>
                  <Table.Td>
                    <Stores user={u} />
                  </Table.Td>
                  <Table.Td>{actions(u)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <UserDialog opened={!!dialog} user={dialog?.user ?? null} onClose={() => setDialog(null)} />
      {/* The sections ask for their data as they come but show once the users are in: drawn before,
          the list would push them all down as it came (on a phone, far out of sight). */}
      {sections > 0 && (
        <Stack display={!q.isError && !listed ? 'none' : undefined}>
          {SECTIONS.slice(0, sections).map((Section, i) => (
            <div key={SECTION_IDS[i]} id={SECTION_IDS[i]} style={SECTION_MARGIN}>
              <Section />
            </div>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function Badges({ user }: { user: ManagedUser }) {
  const s = statusOf(user);
  return (
    <Group gap={6} wrap="wrap">
      {user.groupManager ? (
        <Badge color="grape" variant="filled">
          Group manager
        </Badge>
      ) : (
        <Badge color={user.role === 'manager' ? 'grape' : 'blue'} variant="light">
          {user.role === 'manager' ? 'Manager' : 'Staff'}
        </Badge>
      )}
      {s === 'disabled' && (
        <Badge color="orange" variant="filled">
          Disabled
        </Badge>
      )}
      {s === 'deleted' && (
        <Badge color="red" variant="filled">
          Deleted
        </Badge>
      )}
      {user.configured && (
        <Badge color="grape" variant="outline">
          Set by configuration
        </Badge>
      )}
      {s === 'active' && !user.signedInAt && (
        <Badge color="gray" variant="outline">
          Not signed in yet
        </Badge>
      )}
    </Group>
  );
}

/** The stores a person works in, by code; a group manager has them all. */
const Stores = ({ user }: { user: ManagedUser }) => (
  <Text size="sm" c={user.groupManager ? 'dimmed' : undefined} data-testid="user-stores" style={{ overflowWrap: 'anywhere' }}>
    <VisuallyHidden>Stores: </VisuallyHidden>
    {user.groupManager ? 'All stores' : user.stores.join(', ') || '—'}
  </Text>
);

/** A new address asked for, until its owner confirms it. */
const PendingEmail = ({ user }: { user: ManagedUser }) =>
  user.pendingEmail && (
    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      New address {user.pendingEmail} waits for its confirmation.
    </Text>
  );

function Actions(p: { user: ManagedUser; busy: boolean; onEdit: () => void; onStatus: (a: 'disable' | 'enable' | 'restore') => void; onDelete: () => void }) {
  const { email, can } = p.user;
  const s = statusOf(p.user);
  // Accessible names start with the visible word and add whose row it is. What is offered is what
  // the server says this manager may do (can); a disabled person is enabled, a deleted one restored.
  if (s === 'deleted') {
    return (
      <Group gap={6}>
        {can.restore && (
          <Button size="xs" variant="light" color="green" loading={p.busy} aria-label={`Restore ${email}`} onClick={() => p.onStatus('restore')}>
            Restore
          </Button>
        )}
      </Group>
    );
  }
  return (
    <Group gap={6} wrap="wrap">
      {can.edit && (
        <Button size="xs" variant="light" aria-label={`Edit ${email}`} onClick={p.onEdit}>
          Edit
        </Button>
      )}
      <Button size="xs" variant="light" color="gray" component="a" href={`mailto:${email}`} aria-label={`Email ${email}`}>
        Email
      </Button>
      {s === 'disabled'
        ? can.enable && (
            <Button size="xs" variant="light" color="green" loading={p.busy} aria-label={`Enable ${email}`} onClick={() => p.onStatus('enable')}>
              Enable
            </Button>
          )
        : can.disable && (
            <Button size="xs" variant="default" loading={p.busy} aria-label={`Disable ${email}`} onClick={() => p.onStatus('disable')}>
              Disable
            </Button>
          )}
      {can.delete && (
        <Button size="xs" variant="light" color="red" aria-label={`Soft Delete ${email}`} onClick={p.onDelete}>
          Soft Delete
        </Button>
      )}
    </Group>
  );
}
