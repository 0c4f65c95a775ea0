import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Anchor, Button, Code, CopyButton, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import type { ApiKeyInfo as ApiKey } from '../../domain/contract/answers';
import { KeyList } from './KeyList';
import { keyNameSchema } from '../../domain/schemas';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { useStore } from '../stores/store';

/** API keys for lead providers: created here, shown once, revoked here. */
export function Integrations() {
  const qc = useQueryClient();
  const form = useSchemaForm(keyNameSchema, { name: '' });
  const [fresh, setFresh] = useState<{ name: string; key: string } | null>(null);
  const { code: store } = useStore();
  const keys = useQuery({ queryKey: ['integrations', store], queryFn: () => call('GET /integrations/keys', { store }) });
  const refresh = () => qc.invalidateQueries({ queryKey: ['integrations'] });
  const create = useMutation({
    mutationFn: (n: string) => call('POST /integrations/keys', { body: { name: n }, store }),
    onSuccess: (r) => {
      setFresh({ name: r.apiKey.name, key: r.key });
      form.reset();
      void refresh();
    },
    onError: (err) => showFieldError(form, err) || notifyFail('Could not create the key', err),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => call('POST /integrations/keys/:id/revoke', { params: { id }, store }),
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
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="integrations-title">
      <Stack>
        <Title order={2} size="h3" id="integrations-title">
          Integrations
        </Title>
        <Text size="sm" c="dimmed">
          Your website, marketplaces and OEM programmes send leads to <Code>POST /api/v1/leads</Code> as JSON or ADF/XML, with a key in the{' '}
          <Code>X-API-Key</Code> header. Each lead goes to the next salesman in the round robin.{' '}
          <Anchor href="/api/docs" target="_blank" size="sm" underline="always">
            API description (OpenAPI)
          </Anchor>
        </Text>
        <form onSubmit={form.onSubmit((v) => create.mutate(v.name.trim()))}>
          <Group align="flex-end">
            <TextInput label="Key name" placeholder="e.g. Dealer website" {...form.getInputProps('name')} maxLength={60} style={{ flex: 1, minWidth: 200 }} />
            <Button type="submit" color="blue.8" disabled={!form.getValues().name.trim()} loading={create.isPending}>
              Create key
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
    </Paper>
  );
}
