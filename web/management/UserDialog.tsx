import { Button, Divider, Group, Loader, Modal, MultiSelect, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect } from 'react';
import { modals } from '@mantine/modals';
import { SaveCancel } from '../components/SaveCancel';
import { useForm } from '@mantine/form';
import { checks, lazySchemaResolver, showFieldError } from '../forms/schemaForm';
import { useSession } from '../session/SessionProvider';
import { useStore } from '../stores/store';
import { describeAudit, SHARED_PERSON } from '../../domain/users';
import { useAudit, useSaveUser, useSignOutEverywhere, type ManagedUser, type UserInput } from './api';
import { useWhen } from '../components/when';

/** "Add User" (no user) or "Edit User" with the record's recent history. */
export function UserDialog({ user, opened, onClose }: { user: ManagedUser | null; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={user ? 'Edit User' : 'Add User'} size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      {/* Keyed so each opening starts from the record's current values. */}
      {opened && <UserForm key={user?.id ?? 'new'} user={user} fixedRole={fixedRoleWhy(user)} onClose={onClose} />}
    </Modal>
  );
}

const CONFIGURED = 'Set by configuration (MANAGER_EMAILS).';

/** Why the server will not change the role here (can.changeRole): one set by configuration, a shared person's, or the manager's own. */
const fixedRoleWhy = (user: ManagedUser | null) =>
  !user || user.can.changeRole
    ? null
    : user.configured
      ? CONFIGURED
      : !user.can.changeName
        ? 'A group manager changes it.'
        : 'Your own role: another manager can change it.';

/** What the form says under the address: why it is fixed, what waits, or whose link a new one needs. */
function emailNote(user: ManagedUser) {
  if (!user.can.changeEmail) return user.configured ? CONFIGURED : undefined;
  if (user.pendingEmail) return `${user.pendingEmail} waits for the link we mailed to ${user.pendingLinkTo}. Until then the address stays ${user.email}.`;
  return user.emailConfirmedBy === 'new'
    ? 'A new address takes effect when its owner opens the link we mail to it.'
    : `A new address takes effect when ${user.name} opens the link we mail to ${user.email}.`;
}

/** The form's role: a group manager is a manager of every store. */
type RoleChoice = 'staff' | 'manager' | 'group';
interface Draft {
  email: string;
  name: string;
  role: RoleChoice;
  stores: string[];
}

const checkBody = lazySchemaResolver(async () => (await checks()).saveUserSchema);

/**
 * What is sent. A group manager says who is a group manager and which stores the others are in;
 * a store's manager sends neither: the person he adds joins his store, an edit keeps the stores.
 * A role that may not change here is not sent as a change.
 */
function toBody(v: Draft, groupEditor: boolean, fixedRole: boolean): UserInput {
  const body: UserInput = { email: v.email, name: v.name, role: v.role === 'group' ? 'manager' : v.role };
  if (!groupEditor) return body;
  if (!fixedRole) body.groupManager = v.role === 'group';
  if (v.role !== 'group') body.stores = v.stores;
  return body;
}

function UserForm({ user, fixedRole, onClose }: { user: ManagedUser | null; fixedRole: string | null; onClose: () => void }) {
  const { user: me } = useSession();
  const here = useStore();
  const groupEditor = !!me?.groupManager;
  const fixed = !!fixedRole;
  const form = useForm<Draft>({
    initialValues: {
      email: user?.email ?? '',
      name: !user || user.name === 'User' ? '' : user.name,
      role: user?.groupManager ? 'group' : (user?.role ?? 'staff'),
      stores: user?.stores ?? [here.code],
    },
    // The server's own schema checks what will be sent; its message goes under the field.
    validate: (v) => checkBody(toBody(v, groupEditor, fixed)),
  });
  const save = useSaveUser(onClose);
  // A store manager may change nothing here of someone who also works in a store he does not manage.
  const shared = !!user && !user.can.changeName && !groupEditor;
  useEffect(() => checkBody.load(), []);
  const { role } = form.getValues();

  const submit = form.onSubmit((v) => save.mutate({ id: user?.id, ...toBody(v, groupEditor, fixed) }, { onError: (err) => showFieldError(form, err) }));
  const roles = [
    { value: 'staff', label: 'Staff' },
    { value: 'manager', label: 'Manager' },
    ...(groupEditor || role === 'group' ? [{ value: 'group', label: 'Group manager' }] : []),
  ];

  return (
    <Stack>
      <form onSubmit={submit} noValidate aria-label={user ? 'Edit User' : 'Add User'}>
        <Stack gap="sm">
          <TextInput
            label="Email"
            type="email"
            withAsterisk
            autoComplete="off"
            {...form.getInputProps('email')}
            maxLength={200}
            disabled={!!user && !user.can.changeEmail}
            description={user && !user.can.changeEmail ? emailNote(user) : undefined}
            data-autofocus
          />
          {user?.can.changeEmail && (
            <Text size="xs" c="dimmed" mt={-6}>
              {emailNote(user)}
            </Text>
          )}
          <TextInput label="Name" placeholder="Display name" {...form.getInputProps('name')} maxLength={200} disabled={!!user && !user.can.changeName} />
          <NativeSelect
            label="Role"
            {...form.getInputProps('role')}
            disabled={!!fixedRole}
            description={fixedRole ?? (role === 'group' ? 'A group manager runs every store, and the group screen.' : undefined)}
            data={roles}
          />
          {groupEditor && role !== 'group' && (
            <MultiSelect
              label="Stores"
              description="The stores this person works in."
              withAsterisk
              data={me.stores.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))}
              {...form.getInputProps('stores')}
              hidePickedOptions
              searchable
              nothingFoundMessage="No such store"
              comboboxProps={{ withinPortal: true }}
              data-testid="user-stores"
            />
          )}
          {!user && !groupEditor && (
            <Text size="sm" c="dimmed">
              {`They join ${here.name}.`}
            </Text>
          )}
          {!user && (
            <Text size="sm" c="dimmed">
              New people start off duty: they join the queue when they clock in or a manager turns On Duty on.
            </Text>
          )}
          {shared ? (
            <>
              <Text size="sm" data-testid="shared-note">
                {`${SHARED_PERSON} They work at ${user.stores.join(', ')}.`}
              </Text>
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  Done
                </Button>
              </Group>
            </>
          ) : (
            <SaveCancel onCancel={onClose} saving={save.isPending} />
          )}
        </Stack>
      </form>
      {user?.can.signOut && <SignOut user={user} />}
      {user && <History id={user.id} />}
    </Stack>
  );
}

/** A lost phone or a shared PC: his sessions end at once; he may sign in again. */
function SignOut({ user }: { user: ManagedUser }) {
  const signOut = useSignOutEverywhere();
  const confirm = () =>
    modals.openConfirmModal({
      title: 'Sign out everywhere',
      children: <Text size="sm">{`Sign ${user.email} out on every device? Open screens go to the sign-in page; they can sign in again.`}</Text>,
      labels: { confirm: 'Sign out everywhere', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => signOut.mutate(user.id),
    });
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Text size="sm" c="dimmed">
        Lost a phone or left a shared PC signed in?
      </Text>
      <Button size="xs" variant="light" color="red" loading={signOut.isPending} onClick={confirm}>
        Sign out everywhere
      </Button>
    </Group>
  );
}

function History({ id }: { id: string }) {
  const when = useWhen();
  const q = useAudit(id);
  return (
    <section aria-label="Recent history">
      <Divider mb="sm" />
      <Title order={3} size="h5" mb="xs">
        Recent history
      </Title>
      {q.isPending ? (
        <Loader size="sm" aria-label="Loading history" />
      ) : q.isError ? (
        <Text size="sm" c="red">
          Could not load the history: {q.error.message}
        </Text>
      ) : q.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No changes recorded yet.
        </Text>
      ) : (
        <Stack gap={6} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="history">
          {q.data.map((e) => (
            <li key={e.id}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {describeAudit(e.action, e.changes)}
              </Text>
              <Text size="xs" c="dimmed">
                {when(e.at)} · by {e.actorName}
                {e.actorEmail ? ` (${e.actorEmail})` : ''}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </section>
  );
}
