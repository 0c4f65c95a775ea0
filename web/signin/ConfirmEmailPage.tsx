import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Loader, Paper, Stack, Text } from '@mantine/core';
import { AuthLayout } from './AuthLayout';
import { call } from '../api/client';
import { APP_NAME, DEALERSHIP_NAME } from '../api/meta';

type State = { is: 'working' } | { is: 'done'; email: string } | { is: 'error'; message: string };

/** The link mailed to a new address: opening it makes the address the person's own. */
export default function ConfirmEmailPage() {
  const [state, setState] = useState<State>({ is: 'working' });
  const started = useRef(false);

  useEffect(() => {
    // StrictMode runs effects twice; a link may be spent only once.
    if (started.current) return;
    started.current = true;
    const token = new URL(window.location.href).searchParams.get('t') ?? '';
    call('POST /users/confirm-email', { body: { token } }).then(
      ({ email }) => setState({ is: 'done', email }),
      (err: Error) => setState({ is: 'error', message: err.message }),
    );
  }, []);

  return (
    <AuthLayout title={DEALERSHIP_NAME ? `${DEALERSHIP_NAME} ${APP_NAME}` : APP_NAME} tab="Confirm e-mail">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Stack align="center">
          {state.is === 'working' ? (
            <Stack align="center" role="status">
              <Loader size="sm" aria-hidden />
              <Text>Confirming your e-mail address…</Text>
            </Stack>
          ) : state.is === 'done' ? (
            <Text role="status" ta="center" style={{ overflowWrap: 'anywhere' }}>
              Your e-mail address is now {state.email}. Sign in with it from now on.
            </Text>
          ) : (
            <Text c="red" role="alert" ta="center">
              {state.message}
            </Text>
          )}
          {state.is !== 'working' && (
            <Anchor component={Link} to="/">
              Go to sign in
            </Anchor>
          )}
        </Stack>
      </Paper>
    </AuthLayout>
  );
}
