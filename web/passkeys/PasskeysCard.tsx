import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useInBrowser } from '../components/AfterDraw';
import { modals } from '@mantine/modals';
import { call } from '../api/client';
import { LoadError } from '../components/LoadError';
import { notifyFail, notifyOk } from '../components/notify';
import { useWhen } from '../components/when';
import { SaveCancel } from '../components/SaveCancel';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { PASSKEY_MSG } from '../../domain/passkey-messages';
import { deviceLabel } from '../../domain/push';
import { passkeyError } from './errors';

export const PASSKEYS_KEY = ['passkeys'];
const canPasskey = () => typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';

/** The browser makes the passkey (the device asks for a fingerprint, face or PIN), then the server keeps its public key. */
async function addPasskey(name: string) {
  const { options } = await call('POST /auth/passkeys/add/options');
  const { startRegistration } = await import('@simplewebauthn/browser');
  let response;
  try {
    response = await startRegistration({ optionsJSON: options });
  } catch (err) {
    throw new Error(passkeyError(err, 'add'));
  }
  await call('POST /auth/passkeys', { body: { name, response } });
}

/** The rename dialog's form: the same name rules as when it was added. */
function RenameForm({ id, name, onDone }: { id: string; name: string; onDone: () => void }) {
  const form = useSchemaForm((c) => c.passkeyRenameSchema, { name });
  const [saving, setSaving] = useState(false);
  const save = form.onSubmit(async (v) => {
    setSaving(true);
    try {
      await call('PATCH /auth/passkeys/:id', { params: { id }, body: { name: v.name.trim() } });
      notifyOk('Passkey renamed.');
      onDone();
    } catch (err) {
      if (!showFieldError(form, err)) notifyFail('The passkey was not renamed', err);
    } finally {
      setSaving(false);
    }
  });
  return (
    <form onSubmit={save}>
      <TextInput label="Passkey name" maxLength={60} data-autofocus {...form.getInputProps('name')} />
      <SaveCancel onCancel={() => modals.closeAll()} saving={saving} />
    </form>
  );
}

/** Settings → Passkeys: add one for this device (named), the list with last use, Rename and Remove. */
export function PasskeysCard() {
  const qc = useQueryClient();
  const when = useWhen();
  const q = useQuery({ queryKey: PASSKEYS_KEY, queryFn: () => call('GET /auth/passkeys') });
  const form = useSchemaForm((c) => c.passkeyRenameSchema, { name: '' });
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const inBrowser = useInBrowser();
  const supported = canPasskey();

  const add = form.onSubmit(async ({ name }) => {
    setBusy('add');
    try {
      await addPasskey(name.trim());
      notifyOk('Passkey added. You can sign in with it on the sign-in page.');
      setAdding(false);
    } catch (err) {
      if (!showFieldError(form, err)) notifyFail('The passkey was not added', err);
    } finally {
      setBusy(null);
      await qc.invalidateQueries({ queryKey: PASSKEYS_KEY });
    }
  });

  const remove = async (id: string) => {
    setBusy(id);
    try {
      await call('DELETE /auth/passkeys/:id', { params: { id } });
      notifyOk('Passkey removed.');
    } catch (err) {
      notifyFail('The passkey was not removed', err);
    } finally {
      setBusy(null);
      await qc.invalidateQueries({ queryKey: PASSKEYS_KEY });
    }
  };
  const confirmRemove = (id: string, name: string) =>
    modals.openConfirmModal({
      title: 'Remove passkey',
      children: <Text size="sm">{`Remove the passkey "${name}"? It will no longer sign you in here. You can still sign in with a link.`}</Text>,
      labels: { confirm: 'Remove', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => void remove(id),
    });

  const rename = (id: string, name: string) =>
    modals.open({
      title: 'Rename passkey',
      children: (
        <RenameForm
          id={id}
          name={name}
          onDone={() => {
            modals.closeAll();
            void qc.invalidateQueries({ queryKey: PASSKEYS_KEY });
          }}
        />
      ),
    });

  const list = q.data?.passkeys ?? [];
  return (
    <Paper withBorder p="md" radius="md" data-testid="passkeys-card">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Passkeys
        </Title>
        <Text size="sm" c="dimmed">
          Sign in with this device’s fingerprint, face or PIN instead of a link by e-mail.
        </Text>
        {q.isPending ? (
          <Loader size="sm" aria-label="Loading your passkeys" />
        ) : q.isError ? (
          <LoadError what="your passkeys" error={q.error} onRetry={() => q.refetch()} />
        ) : list.length === 0 ? (
          <Text size="sm">You have no passkeys yet.</Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Your passkeys">
            {list.map((p) => (
              <Group key={p.id} component="li" justify="space-between" wrap="nowrap" align="flex-start" gap="xs" data-testid="passkey-row">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {p.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {p.lastUsedAt ? `Last used ${when(p.lastUsedAt)}` : 'Not used yet'} · added {when(p.createdAt)}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                  <Button size="xs" variant="subtle" disabled={busy !== null} aria-label={`Rename ${p.name}`} onClick={() => rename(p.id, p.name)}>
                    Rename
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    loading={busy === p.id}
                    disabled={busy !== null && busy !== p.id}
                    aria-label={`Remove ${p.name}`}
                    onClick={() => confirmRemove(p.id, p.name)}
                  >
                    Remove
                  </Button>
                </Group>
              </Group>
            ))}
          </Stack>
        )}
        {!inBrowser ? null : !supported ? (
          <Text size="sm" c="dimmed">
            {PASSKEY_MSG.unsupported}
          </Text>
        ) : adding ? (
          <form onSubmit={add}>
            <Stack gap="xs">
              <TextInput
                label="Passkey name"
                description="So you can tell your passkeys apart, e.g. the device it is on."
                maxLength={60}
                data-autofocus
                {...form.getInputProps('name')}
              />
              <Group gap="xs">
                <Button type="submit" loading={busy === 'add'}>
                  Add passkey
                </Button>
                <Button variant="default" disabled={busy === 'add'} onClick={() => setAdding(false)}>
                  Cancel
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Button
            variant="light"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => {
              form.setValues({ name: deviceLabel(navigator.userAgent) });
              form.clearErrors();
              setAdding(true);
            }}
          >
            Add a passkey
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
