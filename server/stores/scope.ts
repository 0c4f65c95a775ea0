import type { FastifyRequest } from 'fastify';
import { inStore, type Ctx, type StoreCtx } from '../context';
import { notFound } from '../http/errors';
import { readCode } from '../../domain/stores';
import type { UserRow } from '../users/repo';
import { homeStore, openStore, STORE_NOT_FOUND } from './service';

/** The store code a request names: the X-Store header (the web app's calls), else ?store= (a link, the event stream). */
function namedStore(req: FastifyRequest): string | undefined {
  const header = req.headers['x-store'];
  const query = (req.query as Record<string, unknown> | undefined)?.store;
  const v = typeof header === 'string' ? header : typeof query === 'string' ? query : undefined;
  return v === undefined ? undefined : (readCode(v) ?? '');
}

/**
 * The store a request acts on: the one it names, if the caller may open it, else 404 (the same
 * answer as for a store that does not exist, so a code tells nothing of other stores); without
 * a name, the caller's own (the one he chose last, else his first).
 */
export async function storeScope(ctx: Ctx, req: FastifyRequest, me: UserRow): Promise<StoreCtx> {
  const code = namedStore(req);
  const store = code === undefined ? await homeStore(ctx.dbh.db, me) : code ? await openStore(ctx.dbh.db, me, code) : null;
  if (!store) throw notFound(code === undefined ? 'You are in no store yet. Ask a manager to add you to one.' : STORE_NOT_FOUND);
  return inStore(ctx, store);
}

/** storeScope for a route outside the contract (CSV, the event stream), after its access check let someone in. */
export function storeOfRequest(ctx: Ctx, req: FastifyRequest): Promise<StoreCtx> {
  if (!req.user) throw notFound(STORE_NOT_FOUND);
  return storeScope(ctx, req, req.user);
}
