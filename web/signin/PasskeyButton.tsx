import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button } from '@mantine/core';
import { call } from '../api/client';
import { messageOf } from '../../domain/errors';
import { PASSKEY_MSG } from '../../domain/passkey-messages';
import { passkeyError } from '../passkeys/errors';

/**
 * The WebAuthn code, fetched when the button is about to be pressed (not with the page, which stays
 * light): the browser's prompt then follows the tap at once, as some browsers want.
 */
const loadWebAuthn = () => import('@simplewebauthn/browser');

/** "Sign in with a passkey". */
export function PasskeyButton() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      if (!window.isSecureContext || typeof window.PublicKeyCredential !== 'function') throw new Error(PASSKEY_MSG.unsupported);
      const [{ options }, { startAuthentication }] = await Promise.all([call('POST /auth/passkeys/signin/options'), loadWebAuthn()]);
      let response;
      try {
        response = await startAuthentication({ optionsJSON: options });
      } catch (err) {
        throw new Error(passkeyError(err, 'signin'));
      }
      const { user } = await call('POST /auth/passkeys/signin', { body: { response } });
      // As after a link (SessionProvider): a "who am I" answered before must not overwrite the new session.
      await qc.cancelQueries({ queryKey: ['me'] });
      qc.setQueryData(['me'], user);
      await navigate('/dashboard/overview', { replace: true });
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };

  return (
    <>
      {error && (
        <Alert color="red" role="alert" data-testid="passkey-error">
          {error}
        </Alert>
      )}
      <Button variant="default" loading={busy} onPointerDown={() => void loadWebAuthn()} onFocus={() => void loadWebAuthn()} onClick={() => void signIn()}>
        Sign in with a passkey
      </Button>
    </>
  );
}
