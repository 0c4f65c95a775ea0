import crypto from 'node:crypto';

/**
 * Sealing with a key drawn from the session secret and a purpose: what a copy of the database
 * alone cannot read (mail in the outbox holds sign-in links; lead mail holds customers' details).
 * AES-256-GCM: the tag proves this server sealed the bytes.
 */
export function sealer(secret: string, purpose: string) {
  const key = crypto.createHash('sha256').update(`${purpose}:${secret}`).digest();
  const seal = (bytes: Uint8Array) => {
    const iv = crypto.randomBytes(12);
    const c = crypto.createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([c.update(bytes), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), data]);
  };
  const open = (buf: Uint8Array) => {
    const d = crypto.createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
    d.setAuthTag(buf.subarray(12, 28));
    return Buffer.concat([d.update(buf.subarray(28)), d.final()]);
  };
  return {
    seal,
    open,
    /** A value sealed as text (base64url), for a text column. */
    sealJson: (v: unknown) => seal(Buffer.from(JSON.stringify(v), 'utf8')).toString('base64url'),
    /** Safe to cast: the tag proves sealJson() wrote these bytes from a T. */
    openJson: <T>(s: string) => JSON.parse(open(Buffer.from(s, 'base64url')).toString('utf8')) as T,
  };
}
