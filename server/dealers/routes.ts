import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { ApiError, notFound } from '../http/errors';
import { implement } from '../http/implement';
import type { UserRow } from '../users/repo';
import { createKey, listKeys, revokeKey } from '../intake/service';
import { openStore, STORE_NOT_FOUND } from '../stores/service';
import { listMappings, mapDealer, sendToStore, unmapDealer, waitingForStore } from './service';

/** The group's own intake is a group manager's: a store manager sees only his stores' keys. */
function checkGroupManager(me: UserRow) {
  if (!me.all_stores) throw new ApiError(403, "Only a group manager can see or change the group's intake.");
}

/**
 * A group's intake: keys for senders that use one address for every store, the dealer mappings
 * that route their leads to stores, and the leads no mapping claims yet.
 */
export async function dealerRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;
  const storeFor = async (me: UserRow, code: string) => {
    const store = await openStore(db, me, code);
    if (!store) throw notFound(STORE_NOT_FOUND);
    return store;
  };

  implement(app, 'GET /group/keys', async ({ me }) => {
    checkGroupManager(me);
    return { keys: await listKeys(db, null) };
  });

  implement(app, 'POST /group/keys', async ({ me, body }) => {
    checkGroupManager(me);
    return createKey(db, null, body.name, me.id);
  });

  implement(app, 'POST /group/keys/:id/revoke', async ({ me, params }) => {
    checkGroupManager(me);
    return { apiKey: await revokeKey(db, null, params.id) };
  });

  implement(app, 'GET /group/dealers', async ({ me }) => {
    checkGroupManager(me);
    return { dealers: await listMappings(db) };
  });

  implement(app, 'PUT /group/dealers', async ({ me, body }) => {
    checkGroupManager(me);
    return mapDealer(ctx, body.dealer, await storeFor(me, body.store), me.id);
  });

  implement(app, 'DELETE /group/dealers/:id', async ({ me, params }) => {
    checkGroupManager(me);
    await unmapDealer(db, params.id);
    return { ok: true };
  });

  implement(app, 'GET /group/waiting', async ({ me }) => {
    checkGroupManager(me);
    return { leads: await waitingForStore(db) };
  });

  implement(app, 'POST /group/waiting/:id/store', async ({ me, params, body }) => {
    checkGroupManager(me);
    await sendToStore(ctx, params.id, await storeFor(me, body.code));
    return { ok: true };
  });
}
