import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Loader, Paper, Stack, Text } from '@mantine/core';
import { AuthLayout } from './AuthLayout';
import { useSession } from '../session/SessionProvider';
import { APP_NAME, DEALERSHIP_NAME } from '../api/meta';
import { finishLoginMessage } from '../../domain/auth-messages';
import { screens } from '../screens';

type State = 'idle' | 'working' | 'done' | 'error';

export default function FinishLoginPage() {
  const { completeMagicFromUrl } = useSession();
  const navigate = useNavigate();
  const [state, setState] = useState<State>('idle');
  const [error, setError] = useState('');
  const started = useRef(false);

  useEffect(() => {
    // StrictMode runs effects twice; a link may be spent only once.
    if (started.current) return;
    started.current = true;
    setState('working');
    // The dashboard comes next: fetch its code while the link is checked.
    for (const load of [screens.shell, screens.overview]) load().catch(() => undefined);
    completeMagicFromUrl()
      .then(() => {
        setState('done');
        void navigate('/dashboard/overview', { replace: true });
      })
      .catch((err: Error) => {
        setError(finishLoginMessage(err?.message));
        setState('error');
      });
  }, [completeMagicFromUrl, navigate]);

  return (
    <AuthLayout title={DEALERSHIP_NAME ? `${DEALERSHIP_NAME} ${APP_NAME}` : APP_NAME} tab="Signing in">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Stack align="center">
          {state === 'error' ? (
            <>
              <Text c="red" role="alert" ta="center">
                {error}
              </Text>
              <Anchor component={Link} to="/">
                Go Back
              </Anchor>
            </>
          ) : (
            <Stack align="center" role="status">
              {state !== 'done' && <Loader size="sm" aria-hidden />}
              <Text>{state === 'done' ? 'Signed in! Redirecting…' : 'Completing sign-in…'}</Text>
            </Stack>
          )}
        </Stack>
      </Paper>
    </AuthLayout>
  );
}
