import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { Alert, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { SIGNED_OUT_WHY, useSession } from '../session/SessionProvider';
import { APP_NAME, DEALERSHIP_NAME } from '../api/meta';
import { AuthLayout } from './AuthLayout';
import { ApiError } from '../../domain/errors';
import { MSG } from '../../domain/auth-messages';
import { useForm } from '@mantine/form';
import { lazySchemaResolver, showFieldError } from '../forms/schemaForm';
import { PasskeyButton } from './PasskeyButton';
import { SsoButton, useSignInMethods, useSsoRefused } from './SsoButton';

const checkEmail = lazySchemaResolver(async () => (await import('../../domain/schemas')).sendLinkSchema);

type State = { step: 'empty' } | { step: 'sent'; email: string } | { step: 'error'; message: string };

/** Shown once: the reason is cleared as soon as it has been read. */
function useSignedOutWhy() {
  const [why] = useState(() => sessionStorage.getItem(SIGNED_OUT_WHY));
  useEffect(() => sessionStorage.removeItem(SIGNED_OUT_WHY), []);
  return why === 'access-off' ? MSG.accessOff : why === 'signed-out' ? MSG.signedOut : null;
}

export default function SignInPage() {
  const { user, sendMagicLink } = useSession();
  const form = useForm({ initialValues: { email: '' }, validate: checkEmail });
  const [busy, setBusy] = useState(false);
  const [state, setState] = useState<State>({ step: 'empty' });
  const why = useSignedOutWhy();
  const methods = useSignInMethods();
  const refused = useSsoRefused();

  if (user) return <Navigate to="/dashboard/overview" replace />;

  const submit = form.onSubmit(async ({ email }) => {
    setBusy(true);
    try {
      await sendMagicLink(email);
      setState({ step: 'sent', email: email.trim().toLowerCase() });
    } catch (err) {
      if (showFieldError(form, err)) return setState({ step: 'empty' });
      // Too many requests, or the link turned off here: the server's own words say what to do.
      const said = err instanceof ApiError && (err.status === 429 || err.code === 'link-off');
      setState({ step: 'error', message: said ? err.message : MSG.sendFailed });
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthLayout title={APP_NAME} dealership={DEALERSHIP_NAME} tab="Sign in">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Stack>
          <Title order={2} size="h3">
            Sign in
          </Title>
          {state.step === 'sent' ? (
            <Stack role="status">
              <Title order={2} size="h3" ta="center">
                Link Sent!
              </Title>
              <Text>
                We sent a secure login link to <b>{state.email}</b>. Open it on this device to sign in.
              </Text>
              <Text size="sm" c="dimmed">
                Not there? Check your Spam or Promotions folders.
              </Text>
              <Button
                variant="light"
                onClick={() => {
                  form.reset();
                  setState({ step: 'empty' });
                }}
              >
                Send Another Link
              </Button>
            </Stack>
          ) : (
            <form onSubmit={submit} noValidate={false}>
              <Stack>
                {why && state.step === 'empty' && (
                  <Alert color="orange" role="alert" data-testid="signed-out-why">
                    {why}
                  </Alert>
                )}
                {refused && state.step === 'empty' && (
                  <Alert color="red" role="alert" data-testid="sso-refused">
                    {refused}
                  </Alert>
                )}
                {methods?.link !== false && (
                  <>
                    <TextInput
                      label="Work Email"
                      type="email"
                      required
                      autoComplete="email"
                      placeholder="you@dealership.com"
                      {...form.getInputProps('email')}
                      // Not on load: the sign-in page brings no dashboard code until someone starts to sign in.
                      onFocus={checkEmail.load}
                    />
                    {state.step === 'error' && (
                      <Alert color="red" role="alert">
                        {state.message}
                      </Alert>
                    )}
                    <Button type="submit" loading={busy}>
                      Send Sign-in Link
                    </Button>
                  </>
                )}
                <PasskeyButton />
                {methods?.oidc && <SsoButton label={methods.oidc.label} />}
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </AuthLayout>
  );
}
