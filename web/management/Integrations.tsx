import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Anchor, Button, Code, CopyButton, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import type { ApiKeyInfo as ApiKey } from '../../domain/contract/answers';
import type { Answer } from '../../domain/contract/routes';
import { KeyList } from './KeyList';
import { DealerMappings } from './DealerMappings';
import { LeadMail } from '../mail/LeadMail';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { useStore } from '../stores/store';
import { useSession } from '../session/SessionProvider';

/** Where keys live: a store's (its leads are the store's) or the group's (its leads go by their dealer). */
interface KeyPlace {
  queryKey: unknown[];
  list: () => Promise<Answer<'GET /integrations/keys'>>;
  create: (name: string) => Promise<Answer<'POST /integrations/keys'>>;
  revoke: (id: number) => Promise<unknown>;
}

/** Create a key (shown once), list and revoke the keys of one place. */
function Keys({ place, label, action }: { place: KeyPlace; label: string; action: string }) {
  const qc = useQueryClient();
  const form = useSchemaForm((c) => c.keyNameSchema, { name: '' });
  const [fresh, setFresh] = useState<{ name: string; key: string } | null>(null);
  const keys = useQuery({ queryKey: place.queryKey, queryFn: place.list });
  const refresh = () => qc.invalidateQueries({ queryKey: place.queryKey });
  const create = useMutation({
    mutationFn: place.create,
    onSuccess: (r) => {
      setFresh({ name: r.apiKey.name, key: r.key });
      form.reset();
      void refresh();
    },
    onError: (err) => showFieldError(form, err) || notifyFail('Could not create the key', err),
  });
  const revoke = useMutation({
    mutationFn: place.revoke,
    onSuccess: () => {
      notifyOk('Key revoked.');
      void refresh();
    },
    onError: (err) => notifyFail('Could not revoke the key', err),
  });
  const confirmRevoke = (k: ApiKey) =>
    modals.openConfirmModal({
      title: 'Revoke key',
      children: <Text size="sm">{`Revoke the key "${k.name}"? Leads sent with it will be refused from now on.`}</Text>,
      labels: { confirm: 'Revoke', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => revoke.mutate(k.id),
    });
  return (
    <Stack>
      <form onSubmit={form.onSubmit((v) => create.mutate(v.name.trim()))}>
        <Group align="flex-end">
          <TextInput label={label} placeholder="e.g. Dealer website" {...form.getInputProps('name')} maxLength={60} style={{ flex: 1, minWidth: 200 }} />
          <Button type="submit" color="blue.8" disabled={!form.getValues().name.trim()} loading={create.isPending}>
            {action}
          </Button>
        </Group>
      </form>
      {fresh && (
        <Alert color="green" title={`Key "${fresh.name}" created`} withCloseButton closeButtonLabel="Done, I saved the key" onClose={() => setFresh(null)}>
          <Stack gap="xs">
            <Text size="sm">Copy this key now. It is shown only once; the portal keeps only a fingerprint of it.</Text>
            <Group gap="xs" wrap="nowrap">
              <Code data-testid="new-api-key" style={{ overflowWrap: 'anywhere' }}>
                {fresh.key}
              </Code>
              <CopyButton value={fresh.key}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      {keys.isPending ? (
        <Loader aria-label="Loading keys" />
      ) : keys.isError ? (
        <Alert color="red">Could not load the keys: {keys.error.message}</Alert>
      ) : !keys.data.keys.length ? (
        <Text c="dimmed">No API keys yet.</Text>
      ) : (
        <KeyList keys={keys.data.keys} revoking={revoke.isPending ? revoke.variables : undefined} onRevoke={confirmRevoke} />
      )}
    </Stack>
  );
}

const GROUP_KEYS: KeyPlace = {
  queryKey: ['integrations', '*'],
  list: () => call('GET /group/keys'),
  create: (name) => call('POST /group/keys', { body: { name } }),
  revoke: (id) => call('POST /group/keys/:id/revoke', { params: { id } }),
};

/** API keys for lead providers: the store's, and for a group manager the group's with its dealer mappings. */
export function Integrations() {
  const { code: store, name } = useStore();
  const { user } = useSession();
  const place: KeyPlace = {
    queryKey: ['integrations', store],
    list: () => call('GET /integrations/keys', { store }),
    create: (n) => call('POST /integrations/keys', { body: { name: n }, store }),
    revoke: (id) => call('POST /integrations/keys/:id/revoke', { params: { id }, store }),
  };
  return (
    <>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="integrations-title">
        <Stack>
          <Title order={2} size="h3" id="integrations-title">
            Integrations
          </Title>
          <Text size="sm" c="dimmed">
            Your website, marketplaces and OEM programmes send leads to <Code>POST /api/v1/leads</Code> as JSON or ADF/XML, with a key in the{' '}
            <Code>X-API-Key</Code> header. Each lead sent with a key of {name} goes to the next salesman in its round robin.{' '}
            <Anchor href="/api/docs" target="_blank" size="sm" underline="always">
              API description (OpenAPI)
            </Anchor>
          </Text>
          <Keys place={place} label="Key name" action="Create key" />
        </Stack>
      </Paper>
      <LeadMail />
      {user?.groupManager && (
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="group-intake-title">
          <Stack>
            <Title order={2} size="h3" id="group-intake-title">
              Group intake
            </Title>
            <Text size="sm" c="dimmed">
              For senders that use one key for every store: each lead goes to the store its dealer (the ADF <Code>&lt;vendor&gt;</Code> id or name, or a JSON
              lead&apos;s <Code>dealer</Code>) is mapped to below. A lead whose dealer is not mapped waits on the Group screen.
            </Text>
            <Keys place={GROUP_KEYS} label="Name of the group key" action="Create group key" />
            <DealerMappings />
          </Stack>
        </Paper>
      )}
    </>
  );
}
