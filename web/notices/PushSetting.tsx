import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useInBrowser } from '../components/AfterDraw';
import { notifyFail, notifyOk } from '../components/notify';
import { call } from '../api/client';
import { LoadError } from '../components/LoadError';
import { ownSubscription } from './device';
import { BrowserAlerts } from '../leads/BrowserAlerts';

const canPush = () =>
  typeof window !== 'undefined' && window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && typeof Notification !== 'undefined';

/** The key as PushManager.subscribe takes it: the raw bytes of the base64url text. */
function keyBytes(key: string) {
  const b64 = key.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (key.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** Asks for permission, registers the service worker, subscribes with the portal's key and tells the server. */
async function turnOn() {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted')
    throw new Error(
      permission === 'denied'
        ? 'Notifications are blocked for this site. Allow them in the browser’s site settings, then turn them on here.'
        : 'Notifications were not allowed. Turn them on again and choose Allow.',
    );
  await navigator.serviceWorker.register('/sw.js');
  const reg = await navigator.serviceWorker.ready;
  const { key } = await call('GET /push/key');
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  const { endpoint, keys } = sub.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error('This browser gave no push address. Try again, or use another browser.');
  await call('POST /push/subscriptions', { body: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } });
}

export const PUSH_DEVICES_KEY = ['push-devices'];

/** Settings → Notifications on this device: a push for each new lead even with the portal closed, and the devices that get them. */
export function PushSetting() {
  const qc = useQueryClient();
  const devices = useQuery({ queryKey: PUSH_DEVICES_KEY, queryFn: () => call('GET /push/subscriptions') });
  const [here, setHere] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inBrowser = useInBrowser();
  const supported = inBrowser && canPush();

  useEffect(() => {
    if (supported)
      void ownSubscription().then(
        (s) => setHere(s?.endpoint ?? null),
        () => setHere(null),
      );
  }, [supported]);

  const list = devices.data?.devices ?? [];
  const on = here !== null && list.some((d) => d.endpoint === here);

  async function act(what: () => Promise<void>, done: string, failed: string) {
    setBusy(true);
    try {
      await what();
      notifyOk(done);
    } catch (err) {
      notifyFail(failed, err);
    } finally {
      setHere((await ownSubscription().catch(() => null))?.endpoint ?? null);
      await qc.invalidateQueries({ queryKey: PUSH_DEVICES_KEY });
      setBusy(false);
    }
  }

  const remove = (id: number, endpoint: string) =>
    act(
      async () => {
        await call('DELETE /push/subscriptions/:id', { params: { id } });
        if (endpoint === here) await (await ownSubscription())?.unsubscribe();
      },
      'Notifications are off on that device.',
      'Could not remove the device',
    );

  return (
    <Paper withBorder p="md" radius="md" data-testid="push-setting">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4">
          Notifications on this device
        </Title>
        {/* Without push, the browser's own notifications while the portal is open: one card for both. */}
        {inBrowser && !supported && <BrowserAlerts />}
        <Text size="sm" c="dimmed" data-testid="push-state" display={inBrowser && !supported ? 'none' : undefined}>
          {!inBrowser || !supported
            ? '\u00a0'
            : on
              ? 'On: this device gets a notification for each new lead, even with the portal closed. Accept takes the lead from the notification.'
              : Notification.permission === 'denied'
                ? 'Blocked: allow notifications for this site in the browser’s site settings, then come back.'
                : 'Off: turn them on to hear of a new lead on this device, even with the portal closed.'}
        </Text>
        {supported && !on && Notification.permission !== 'denied' && (
          <Button variant="light" loading={busy} onClick={() => void act(turnOn, 'Notifications are on for this device.', 'Could not turn notifications on')}>
            Turn on
          </Button>
        )}
        {devices.isError ? (
          <LoadError what="your devices" error={devices.error} onRetry={() => devices.refetch()} />
        ) : (
          list.length > 0 && (
            <Stack gap={6} w="100%" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Devices with notifications on">
              {list.map((d) => (
                <Group key={d.id} component="li" justify="space-between" wrap="nowrap">
                  <Group gap="xs">
                    <Text size="sm">{d.label}</Text>
                    {d.endpoint === here && (
                      <Badge size="sm" variant="light">
                        This device
                      </Badge>
                    )}
                  </Group>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    disabled={busy}
                    aria-label={d.endpoint === here ? 'Remove this device' : `Remove ${d.label}`}
                    onClick={() => void remove(d.id, d.endpoint)}
                  >
                    Remove
                  </Button>
                </Group>
              ))}
            </Stack>
          )
        )}
      </Stack>
    </Paper>
  );
}
