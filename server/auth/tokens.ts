import crypto from 'node:crypto';

export const LINK_TTL_MS = 15 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A session ends after 30 days unused, and 180 days after sign-in at the latest. */
export const SESSION_IDLE_MS = 30 * DAY_MS;
export const SESSION_MAX_MS = 180 * DAY_MS;
/** Renewing on use writes at most once an hour per session, not once a request. */
export const SESSION_RENEW_MS = 60 * 60 * 1000;
export const SESSION_COOKIE = 'bdc_session';

export const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** Tokens are stored only as a keyed hash: a copy of the database cannot sign anyone in. */
export const hashToken = (secret: string, token: string) => crypto.createHmac('sha256', secret).update(token).digest('base64url');
