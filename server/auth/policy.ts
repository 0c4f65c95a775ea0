import type { Config } from '../config';
import type { Access } from '../http/access';
import { forbidden, ApiError, unauthorized } from '../http/errors';
import type { UserRow } from '../users/repo';
import { isBlocked } from '../users/repo';
import { parseEmail } from '../../domain/email';

export type SignInVerdict = { allowed: true; role: 'manager' | 'staff' | null } | { allowed: false; why: string };

/**
 * Who may sign in: MANAGER_EMAILS (always managers), a live user record a manager created,
 * or an address in ALLOWED_EMAIL_DOMAINS (as staff). role null keeps the record's own role.
 */
export function signInVerdict(config: Config, email: string, existing: UserRow | undefined): SignInVerdict {
  if (existing && isBlocked(existing)) return { allowed: false, why: 'user is disabled or deleted' };
  if (config.MANAGER_EMAILS.includes(email)) return { allowed: true, role: 'manager' };
  if (existing) return { allowed: true, role: null };
  const domain = parseEmail(email)?.domain;
  if (domain && config.ALLOWED_EMAIL_DOMAINS.includes(domain)) return { allowed: true, role: 'staff' };
  return { allowed: false, why: 'address is not a user, not in MANAGER_EMAILS and not in ALLOWED_EMAIL_DOMAINS' };
}

/** Whether a route's access rule lets the caller in (an API key, a TV link, is checked by its route itself). */
export const admits = (need: Access, user: Pick<UserRow, 'role'> | null): boolean =>
  need === 'public' || need === 'apikey' || need === 'tv' || (!!user && (need === 'user' || user.role === 'manager'));

/** The route's access rule against the caller: a route without a rule is refused, so a forgotten permission fails closed. */
export function checkAccess(need: Access | undefined, user: Pick<UserRow, 'role'> | null): void {
  if (!need) throw new ApiError(500, 'Route has no access rule');
  if (admits(need, user)) return;
  throw user ? forbidden() : unauthorized();
}
