import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { routes, type Access, type AccessOf, type Answer, type BodyOut, type InStore, type Params, type Query, type Route } from '../../domain/contract/routes';
import { methodAndPath } from '../../domain/contract/method';
import { notFound, parse, unauthorized } from './errors';
import { admits } from '../auth/policy';
import { isRecord } from '../../domain/guards';
import type { UserRow } from '../users/repo';
import type { StoreCtx } from '../context';
import { storeScope } from '../stores/scope';

/** The signed-in person as the route's access level promises him: nobody on a public route may be anyone; a TV's route reads its link, never a person. */
type Me<A extends Access> = A extends 'public' ? UserRow | null : A extends 'tv' ? null : UserRow;

/**
 * What a handler gets: the caller and the request's parts, parsed by the route's own schemas;
 * on a store's route, the context of that store (the one the request names, which the caller
 * may open: server/stores/scope.ts).
 */
export interface Call<R extends Route> {
  me: Me<AccessOf<R>>;
  ctx: InStore<R> extends true ? StoreCtx : undefined;
  params: Params<R>;
  query: Query<R>;
  body: BodyOut<R>;
  req: FastifyRequest;
  reply: FastifyReply;
}

type Extra = Pick<RouteShorthandOptions, 'bodyLimit' | 'onRequest'> & { config?: Record<string, unknown> };

/** Whether the contract lets `me` call the route at all (its access level): what an answer's `can` says of a route with no other rule. */
export const mayCall = (route: Route, me: Pick<UserRow, 'role'> | null) => admits(routes[route].access, me);

/** A store route's query less `store`, which names the store (server/stores/scope.ts) and is no part of the route's own query. */
function withoutStore(query: unknown): unknown {
  if (!isRecord(query)) return query;
  const { store: _, ...rest } = query;
  return rest;
}

/** Path parameters that name no row are a 404 with the schema's message ("Lead not found"). */
function parseParams(schema: z.ZodType, input: unknown): unknown {
  const r = schema.safeParse(input);
  if (!r.success) throw notFound(r.error.issues[0]?.message ?? 'Not found.');
  return r.data;
}

/**
 * Registers a route of the contract (domain/contract/routes.ts) on `app` (the API's /api scope):
 * its method, path and access come from the contract, its path, query and body are parsed by the
 * contract's schemas before the handler runs, and the handler must answer the contract's shape.
 */
export function implement<R extends Route>(app: FastifyInstance, route: R, handler: (call: Call<R>) => Promise<Answer<R>>, extra: Extra = {}) {
  const def: { access: Access; store?: true; params?: z.ZodType; query?: z.ZodType; body?: z.ZodType; status?: number } = routes[route];
  const [method, url] = methodAndPath(route);
  app.route({
    method,
    url,
    ...extra,
    config: { ...extra.config, access: def.access },
    handler: async (req, reply) => {
      const me = def.access === 'tv' ? null : req.user;
      if (!me && def.access !== 'public' && def.access !== 'tv') throw unauthorized();
      // Safe: each part was parsed by the schema the route's types come from (a route without one
      // has none), and `me` is someone unless the route is public (checked above). TypeScript
      // cannot follow a generic route's definition to its types, hence the one cast.
      const call = {
        me,
        ctx: def.store && me ? await storeScope(app.ctx, req, me) : undefined,
        params: def.params ? parseParams(def.params, req.params) : {},
        query: def.query ? parse(def.query, def.store ? withoutStore(req.query) : req.query) : {},
        body: def.body ? parse(def.body, req.body) : undefined,
        req,
        reply,
      } as Call<R>;
      const answer = await handler(call);
      if (def.status) reply.status(def.status);
      return answer;
    },
  });
}
