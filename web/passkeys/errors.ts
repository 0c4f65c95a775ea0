import { PASSKEY_MSG } from '../../domain/passkey-messages';
import { isRecord } from '../../domain/guards';

/**
 * What to tell him when the browser's passkey ceremony fails (@simplewebauthn/browser's
 * WebAuthnError: `code`, and `name` from the browser's own DOMException).
 */
export function passkeyError(err: unknown, doing: 'add' | 'signin'): string {
  const code = isRecord(err) && typeof err.code === 'string' ? err.code : '';
  const name = isRecord(err) && typeof err.name === 'string' ? err.name : '';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return PASSKEY_MSG.already;
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return doing === 'add' ? PASSKEY_MSG.cancelledAdd : PASSKEY_MSG.cancelled;
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID')
    return 'Passkeys do not work at this address. Open the portal at its usual address (https), then try again.';
  if (code === 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT' || code === 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT')
    return 'This security key cannot keep a passkey with a PIN or fingerprint. Use this device’s own passkey or your phone.';
  if (name === 'NotSupportedError' || name === 'SecurityError') return PASSKEY_MSG.unsupported;
  return doing === 'add' ? 'The passkey was not added. Try again.' : PASSKEY_MSG.failed;
}
