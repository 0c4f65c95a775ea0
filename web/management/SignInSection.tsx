import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Code, CopyButton, Group, Loader, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import type { SignInSettings } from '../../domain/signin';

const KEY = ['auth-settings'];

/** Manager → Sign-in: single sign-on's state, the address to register at the provider, and the e-mail link switch. */
export function SignInSection() {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: KEY, queryFn: () => call('GET /auth/settings') });
  const save = useMutation({
    mutationFn: (link: boolean) => call('PUT /auth/settings', { body: { link } }),
    onSuccess: (s: SignInSettings) => {
      qc.setQueryData(KEY, s);
      void qc.invalidateQueries({ queryKey: ['auth-methods'] });
      notifyOk(s.link ? 'E-mail link sign-in is on.' : 'E-mail link sign-in is off: people sign in with single sign-on.');
    },
    onError: (err) => notifyFail('Could not change the e-mail link sign-in', err),
  });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="signin-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="signin-title">
          Sign-in
        </Title>
        {q.isPending ? (
          <Loader aria-label="Loading the sign-in settings" />
        ) : q.isError ? (
          <Alert color="red">Could not load the sign-in settings: {q.error.message}</Alert>
        ) : (
          <>
            <Group gap="xs" wrap="wrap">
              <Text fw={600}>Single sign-on</Text>
              {q.data.sso ? (
                <Badge color="green" variant="light">
                  Set up
                </Badge>
              ) : (
                <Badge color="gray" variant="light">
                  Not set up
                </Badge>
              )}
            </Group>
            <Text size="sm">
              {q.data.sso
                ? `People sign in with their work account (the button “${q.data.label}”). Someone disabled at the provider is signed out here at the next check, within 15 minutes.`
                : 'To let people sign in with their work account (Microsoft 365, Google, Okta, Keycloak), register the portal at your provider with the redirect address below and set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.'}
            </Text>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Redirect address to register at the provider
              </Text>
              <Group gap="xs" wrap="nowrap" align="center">
                <Code data-testid="oidc-redirect" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  {q.data.redirectUri}
                </Code>
                <CopyButton value={q.data.redirectUri}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="light" style={{ flexShrink: 0 }} onClick={copy} aria-label="Copy the redirect address">
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
            <Switch
              label="E-mail link sign-in"
              description={
                !q.data.sso
                  ? 'Always on while single sign-on is not set up.'
                  : !q.data.mayChange
                    ? 'Only a group manager can turn it off.'
                    : 'Off: the sign-in page offers single sign-on only.'
              }
              checked={q.data.link}
              disabled={!q.data.sso || !q.data.mayChange || save.isPending}
              onChange={(e) => save.mutate(e.currentTarget.checked)}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
