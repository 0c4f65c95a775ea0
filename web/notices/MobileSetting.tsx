import { useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { notifyOk } from '../components/notify';
import { messageOf } from '../../domain/errors';
import { showMobile, type MobileState } from '../../domain/notices-phone';

export const MOBILE_KEY = ['profile', 'mobile'];

/** Settings → Text messages: his mobile number, confirmed by a six-digit code sent to it; STOP from the phone shows here. */
export function MobileSetting() {
  const qc = useQueryClient();
  const state = useQuery({ queryKey: MOBILE_KEY, queryFn: () => call('GET /profile/mobile') });
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<{ field: 'mobile' | 'code'; message: string } | null>(null);
  const done = (s: MobileState) => {
    qc.setQueryData(MOBILE_KEY, s);
    setError(null);
  };
  const send = useMutation({
    mutationFn: () => call('PUT /profile/mobile', { body: { mobile } }),
    onSuccess: (s) => {
      done(s);
      setCode('');
    },
    onError: (err) => setError({ field: 'mobile', message: messageOf(err) }),
  });
  const confirm = useMutation({
    mutationFn: () => call('POST /profile/mobile/confirm', { body: { code } }),
    onSuccess: (s) => {
      done(s);
      setMobile('');
      setCode('');
      notifyOk('Mobile number confirmed.');
    },
    onError: (err) => setError({ field: 'code', message: messageOf(err) }),
  });
  const remove = useMutation({
    mutationFn: () => call('DELETE /profile/mobile'),
    onSuccess: done,
    onError: (err) => setError({ field: 'mobile', message: messageOf(err) }),
  });

  const s = state.data;
  if (!s) return null;
  return (
    <Paper withBorder p="md" radius="md" data-testid="mobile-setting">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4">
          Text messages
        </Title>
        {!s.enabled ? (
          <Text size="sm" c="dimmed">
            Text messages are not set up on this portal. Ask your manager.
          </Text>
        ) : s.mobile ? (
          <>
            <Group gap="xs">
              <Text size="sm">Texts go to {showMobile(s.mobile)}</Text>
              {!s.stopped && (
                <Badge color="green" variant="light">
                  Confirmed
                </Badge>
              )}
            </Group>
            {s.stopped && (
              <Text size="sm" c="orange">
                Texts stopped from your phone (send START to turn them on again)
              </Text>
            )}
            <Button variant="light" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              Remove
            </Button>
            {error && (
              <Text size="sm" c="red">
                {error.message}
              </Text>
            )}
          </>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Add your mobile number to get texts about your leads. We send a six-digit code to confirm it.
            </Text>
            <Group align="flex-end">
              <TextInput
                label="Mobile number"
                placeholder="+1 843 555 0123"
                type="tel"
                autoComplete="tel"
                maxLength={32}
                value={mobile}
                onChange={(e) => setMobile(e.currentTarget.value)}
                error={error?.field === 'mobile' ? error.message : undefined}
              />
              <Button variant="light" loading={send.isPending} disabled={!mobile.trim()} onClick={() => send.mutate()}>
                {s.pending ? 'Send a new code' : 'Send code'}
              </Button>
            </Group>
            {s.pending && (
              <>
                <Text size="sm">A code was sent to {showMobile(s.pending)}. It expires in 10 minutes.</Text>
                <Group align="flex-end">
                  <TextInput
                    label="Six-digit code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    value={code}
                    onChange={(e) => setCode(e.currentTarget.value)}
                    error={error?.field === 'code' ? error.message : undefined}
                  />
                  <Button loading={confirm.isPending} disabled={code.trim().length !== 6} onClick={() => confirm.mutate()}>
                    Confirm
                  </Button>
                </Group>
              </>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
