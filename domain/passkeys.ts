import { z } from 'zod';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { body, passkeyName } from './schemas';
import { isRecord } from './guards';

/** The most passkeys one person may keep. */
export const MAX_PASSKEYS = 20;

/** base64url text, as WebAuthn's JSON gives every binary field. */
const b64 = (max: number) =>
  z
    .string({ error: 'The passkey answer is not complete.' })
    .max(max, { error: 'The passkey answer is too long.' })
    .regex(/^[A-Za-z0-9_-]*$/, { error: 'The passkey answer is not valid.' });

/** A credential id: up to 1023 bytes (WebAuthn's limit). */
const credentialId = b64(1400).min(1, { error: 'The passkey answer is not complete.' });
const extensions = z.custom<object>(isRecord, { error: 'The passkey answer is not valid.' });
const transports = z.array(z.string().max(40)).max(10);

/** What the browser's navigator.credentials.create() gives, as JSON (@simplewebauthn/browser's startRegistration). */
const registrationResponse = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', { error: 'The passkey answer is not valid.' }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensions,
  response: z.object({
    clientDataJSON: b64(20_000),
    attestationObject: b64(100_000),
    authenticatorData: b64(100_000).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64(20_000).optional(),
  }),
});

/** What navigator.credentials.get() gives, as JSON (startAuthentication). */
const authenticationResponse = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', { error: 'The passkey answer is not valid.' }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensions,
  response: z.object({
    clientDataJSON: b64(20_000),
    authenticatorData: b64(20_000),
    signature: b64(2_000),
    userHandle: b64(200).optional(),
  }),
});

export const passkeyAddSchema = body({ name: passkeyName, response: registrationResponse });
export const passkeyRenameSchema = body({ name: passkeyName });
export const passkeySignInSchema = body({ response: authenticationResponse });
/** A passkey in the path: one that cannot be a credential id names none. */
export const passkeyId = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,1400}$/, { error: 'Passkey not found' }) });

const passkey = z.object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export const passkeyList = z.object({ passkeys: z.array(passkey) });
export const onePasskey = z.object({ passkey });
/** The options the browser passes to navigator.credentials (made by @simplewebauthn/server). */
export const addOptions = z.object({
  options: z.custom<PublicKeyCredentialCreationOptionsJSON>((v) => isRecord(v) && typeof v.challenge === 'string'),
});
export const signInOptions = z.object({
  options: z.custom<PublicKeyCredentialRequestOptionsJSON>((v) => isRecord(v) && typeof v.challenge === 'string'),
});
