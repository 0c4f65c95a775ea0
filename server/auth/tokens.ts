import crypto from 'node:crypto';

export const LINK_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'bdc_session';

export const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** Tokens are stored only as a keyed hash: a copy of the database cannot sign anyone in. */
export const hashToken = (secret: string, token: string) =>
  crypto.createHmac('sha256', secret).update(token).digest('base64url');
