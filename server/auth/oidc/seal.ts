import crypto from 'node:crypto';

/** The provider's refresh token at rest: AES-256-GCM under a key derived from the session secret, so a copy of the database holds no usable token. */
const keyOf = (secret: string) => Buffer.from(crypto.hkdfSync('sha256', secret, 'bdc-portal', 'oidc-refresh-token', 32));

export function seal(secret: string, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The sealed text's plain text; throws when it was not sealed with this secret or was changed. */
export function unseal(secret: string, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
