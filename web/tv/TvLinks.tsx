import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, CopyButton, Group, Loader, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import { useCompact } from '../components/useCompact';
import { useWhen } from '../components/when';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { useStore } from '../stores/store';
import type { TvLinkInfo } from '../../domain/tv-schema';

const DEFAULT_NAME = 'Showroom TV';

/** One link of the store: its name, when it was made and last seen, and Revoke (asked twice: its TV goes dark). */
function LinkRow({ link, onRevoke, revoking }: { link: TvLinkInfo; onRevoke: () => void; revoking: boolean }) {
  const when = useWhen();
  const [asking, setAsking] = useState(false);
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid="tv-link-row">
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {link.name}
          </Text>
          <Text size="xs" c="dimmed">
            Made {when(link.createdAt)} · Last seen {when(link.lastSeenAt, 'never')}
          </Text>
        </div>
        {link.revokedAt ? (
          <Badge color="gray" variant="filled" style={{ flexShrink: 0 }}>
            Revoked
          </Badge>
        ) : (
          !asking && (
            <Button size="xs" variant="light" color="red" style={{ flexShrink: 0 }} aria-label={`Revoke ${link.name}`} onClick={() => setAsking(true)}>
              Revoke
            </Button>
          )
        )}
      </Group>
      {asking && !link.revokedAt && (
        <Group justify="space-between" gap="xs" mt="xs">
          <Text size="sm">Its TV stops showing the board at once.</Text>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setAsking(false)}>
              Keep
            </Button>
            <Button size="xs" color="red" loading={revoking} onClick={onRevoke}>
              Revoke link
            </Button>
          </Group>
        </Group>
      )}
    </Paper>
  );
}

/** Make a link (its address shown once), list the store's links and revoke them. */
function TvLinksBody() {
  const { code: store, name: storeName } = useStore();
  const qc = useQueryClient();
  const key = ['tv-links', store];
  const links = useQuery({ queryKey: key, queryFn: () => call('GET /tv/links', { store }) });
  const form = useSchemaForm((c) => c.tvLinkSchema, { name: DEFAULT_NAME });
  const [fresh, setFresh] = useState<{ name: string; url: string } | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: (name: string) => call('POST /tv/links', { body: { name }, store }),
    onSuccess: (r) => {
      setFresh({ name: r.link.name, url: r.url });
      void refresh();
    },
    onError: (err) => showFieldError(form, err) || notifyFail('Could not make the TV link', err),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => call('POST /tv/links/:id/revoke', { params: { id }, store }),
    onSuccess: () => {
      notifyOk('TV link revoked.');
      void refresh();
    },
    onError: (err) => notifyFail('Could not revoke the TV link', err),
  });
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        A TV link opens {storeName}&apos;s leaderboard on a screen, live, with no one signed in. It shows the board only, and stops the moment you revoke it.
      </Text>
      <form onSubmit={form.onSubmit((v) => create.mutate(v.name.trim()))}>
        <Group align="flex-end" gap="xs">
          <TextInput label="Name" description="Which screen it is for" {...form.getInputProps('name')} maxLength={60} style={{ flex: 1, minWidth: 180 }} />
          <Button type="submit" color="blue.8" loading={create.isPending}>
            Make link
          </Button>
        </Group>
      </form>
      {fresh && (
        <Alert color="green" title={`Link “${fresh.name}” made`} withCloseButton closeButtonLabel="Done, I copied the link" onClose={() => setFresh(null)}>
          <Stack gap="xs">
            <Text size="sm">Open this address on the TV, then press Full screen. Copy it now: it is shown only once.</Text>
            <Group gap="xs" wrap="nowrap">
              <TextInput
                readOnly
                value={fresh.url}
                aria-label="TV link address"
                data-testid="tv-link-url"
                onFocus={(e) => e.currentTarget.select()}
                style={{ flex: 1, minWidth: 0 }}
              />
              <CopyButton value={fresh.url}>
                {({ copied, copy }) => (
                  <Button variant="light" onClick={copy} style={{ flexShrink: 0 }}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <Title order={3} size="h5">
        This store&apos;s TV links
      </Title>
      {links.isPending ? (
        <Loader aria-label="Loading TV links" />
      ) : links.isError ? (
        <Alert color="red">Could not load the TV links: {links.error.message}</Alert>
      ) : !links.data.links.length ? (
        <Text c="dimmed" size="sm">
          No TV links yet.
        </Text>
      ) : (
        <Stack component="ul" gap="xs" aria-label="TV links" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {links.data.links.map((l) => (
            <LinkRow key={l.id} link={l} revoking={revoke.isPending && revoke.variables === l.id} onRevoke={() => revoke.mutate(l.id)} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The team board's "TV links": a dialog where a manager makes the showroom TV's own link, and revokes it. */
export function TvLinksButton() {
  const [open, setOpen] = useState(false);
  const compact = useCompact();
  return (
    <>
      <Button variant="light" leftSection={<IconLink size={16} aria-hidden />} onClick={() => setOpen(true)}>
        TV links
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Showroom TV links" size="lg" fullScreen={compact} closeButtonProps={{ 'aria-label': 'Close' }}>
        {open && <TvLinksBody />}
      </Modal>
    </>
  );
}
