import type { InStore, Route } from '../../domain/contract/routes';

/** The contract's routes that act on no one store (no `store: true`). */
type Unscoped = { [R in Route]: InStore<R> extends true ? never : R }[Route];

/**
 * Checked against the contract both ways: a route listed here that acts on a store, or one that
 * does not and is missing, fails to compile. The web keeps this list because the contract itself
 * (zod and every schema) is too large to load with the sign-in page.
 */
const UNSCOPED: Record<Unscoped, true> = {
  'POST /auth/link': true,
  'POST /auth/complete': true,
  'GET /auth/me': true,
  'POST /auth/logout': true,
  'GET /auth/methods': true,
  'GET /auth/settings': true,
  'PUT /auth/settings': true,
  'GET /auth/sessions': true,
  'DELETE /auth/sessions/:sid': true,
  'POST /auth/sessions/end-all': true,
  'GET /auth/passkeys': true,
  'POST /auth/passkeys/add/options': true,
  'POST /auth/passkeys': true,
  'PATCH /auth/passkeys/:id': true,
  'DELETE /auth/passkeys/:id': true,
  'POST /auth/passkeys/signin/options': true,
  'POST /auth/passkeys/signin': true,
  'PATCH /profile': true,
  'GET /profile/notes': true,
  'PUT /profile/notes': true,
  'GET /weather': true,
  'PUT /profile/store': true,
  'GET /profile/mobile': true,
  'PUT /profile/mobile': true,
  'POST /profile/mobile/confirm': true,
  'DELETE /profile/mobile': true,
  'GET /stores': true,
  'POST /stores': true,
  'PATCH /stores/:code': true,
  'GET /group': true,
  'GET /group/keys': true,
  'POST /group/keys': true,
  'POST /group/keys/:id/revoke': true,
  'GET /group/dealers': true,
  'PUT /group/dealers': true,
  'DELETE /group/dealers/:id': true,
  'GET /group/waiting': true,
  'POST /group/waiting/:id/store': true,
  'GET /group/report': true,
  'GET /sales/all': true,
  'GET /tv/board': true,
  'POST /users/confirm-email': true,
  'GET /push/key': true,
  'GET /push/subscriptions': true,
  'POST /push/subscriptions': true,
  'DELETE /push/subscriptions/:id': true,
  'POST /push/accept': true,
};

/** The route acts on one store's data, so its call names the store (X-Store). */
export const inStore = (route: Route) => !Object.hasOwn(UNSCOPED, route);
