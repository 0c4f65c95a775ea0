import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifyFail, notifyOk } from '../components/notify';
import { call } from '../api/client';
import { LoadError } from '../components/LoadError';
import { useWhen } from '../components/when';
import { useSession } from '../session/SessionProvider';
import { forgetThisDevice } from '../notices/device';

export const SESSIONS_KEY = ['sessions'];

/** Devices listed before "Show all": this one and the latest used (a month of sign-in links makes a long list). */
const SHOWN = 5;

/** Settings → Signed-in devices: where he is signed in, signing one device or all of them out. */
export function DevicesCard() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const when = useWhen();
  const { logout } = useSession();
  const q = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => call('GET /auth/sessions') });
  const [busy, setBusy] = useState<string | null>(null);
  const [all, setAll] = useState(false);

  /** This device leaves like the menu's Sign out: its notifications off, then the sign-in page. */
  const leave = async () => {
    await logout();
    await navigate('/', { replace: true });
  };

  const signOut = async (sid: string, current: boolean) => {
    setBusy(sid);
    try {
      if (current) return await leave();
      await call('DELETE /auth/sessions/:sid', { params: { sid } });
      notifyOk('That device is signed out.');
    } catch (err) {
      notifyFail(null, err);
    } finally {
      setBusy(null);
      await qc.invalidateQueries({ queryKey: SESSIONS_KEY });
    }
  };

  const endAll = async () => {
    setBusy('all');
    try {
      // Its notifications go off while this device may still ask.
      await forgetThisDevice();
      await call('POST /auth/sessions/end-all');
      await leave();
    } catch (err) {
      notifyFail(null, err);
      setBusy(null);
    }
  };
  const everywhere = () =>
    modals.openConfirmModal({
      title: 'Sign out everywhere',
      children: <Text size="sm">Sign out on every device, this one too? Each then asks you to sign in again.</Text>,
      labels: { confirm: 'Sign out everywhere', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => void endAll(),
    });

  const list = q.data?.sessions ?? [];
  const shown = all ? list : list.slice(0, SHOWN);
  return (
    <Paper withBorder p="md" radius="md" aria-label="Signed-in devices" component="section">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Signed-in devices
        </Title>
        <Text size="sm" c="dimmed">
          Where you are signed in. A device unused for 30 days is signed out by itself.
        </Text>
        {q.isPending ? (
          <Loader size="sm" aria-label="Loading your devices" />
        ) : q.isError ? (
          <LoadError what="your devices" error={q.error} onRetry={() => q.refetch()} />
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Your devices">
            {shown.map((s) => (
              <Group key={s.sid} component="li" justify="space-between" wrap="nowrap" align="flex-start" gap="xs" data-testid="device-row">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text size="sm" fw={500}>
                      {s.device}
                    </Text>
                    {s.current && (
                      <Badge size="sm" variant="light">
                        This device
                      </Badge>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {s.how} · {s.place}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {s.current ? 'In use now' : `Last seen ${when(s.lastSeenAt ?? s.signedInAt)}`} · signed in {when(s.signedInAt)}
                  </Text>
                </Stack>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  style={{ flexShrink: 0 }}
                  loading={busy === s.sid}
                  disabled={busy !== null && busy !== s.sid}
                  aria-label={s.current ? 'Sign out this device' : `Sign out ${s.device}`}
                  onClick={() => void signOut(s.sid, s.current)}
                >
                  Sign out
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        {list.length > SHOWN && (
          <Button variant="subtle" size="xs" style={{ alignSelf: 'flex-start' }} onClick={() => setAll(!all)}>
            {all ? 'Show fewer' : `Show all ${list.length} devices`}
          </Button>
        )}
        <Button variant="light" color="red" style={{ alignSelf: 'flex-start' }} loading={busy === 'all'} onClick={everywhere}>
          Sign out everywhere
        </Button>
      </Stack>
    </Paper>
  );
}
