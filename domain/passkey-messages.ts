// No zod here: the sign-in page's passkey button says these without loading the schemas.
/** What the sign-in page and Settings say when a passkey cannot be used (the server's answers, the page's own for the browser's). */
export const PASSKEY_MSG = {
  unknown: 'This passkey is not registered here — sign in with a link and add it under Settings → Passkeys.',
  expired: 'This passkey request expired or was already used. Try again.',
  cloned:
    'This passkey was refused: its signature counter went backwards, so it may have been copied. Sign in with a link and remove it under Settings → Passkeys.',
  failed: 'This passkey could not be verified. Try again, or sign in with a link.',
  cancelled: 'Passkey sign-in was cancelled or timed out. Try again when you are ready.',
  cancelledAdd: 'Adding the passkey was cancelled or timed out. Nothing was added.',
  unsupported: 'This browser cannot use passkeys. Sign in with a link instead.',
  already: 'This passkey is already added.',
} as const;
