import type { FastifyInstance } from 'fastify';
import { implement } from '../http/implement';
import { ApiError, notFound } from '../http/errors';
import { personLedger, teamLedger } from './service';

/**
 * The fairness ledger (domain/ledger.ts): a salesman sees his own, a manager anyone's in his store
 * and the whole team's side by side.
 */
export async function ledgerRoutes(app: FastifyInstance) {
  implement(app, 'GET /ledger', async ({ ctx }) => teamLedger(ctx.dbh.db, ctx.store.id, ctx.config.APP_TIMEZONE));

  implement(app, 'GET /ledger/:id', async ({ me, ctx, params }) => {
    if (me.role !== 'manager' && params.id !== me.id) throw new ApiError(403, 'You can see only your own fairness ledger.');
    const ledger = await personLedger(ctx.dbh.db, ctx.store.id, params.id, ctx.config.APP_TIMEZONE);
    if (!ledger) throw notFound('User not found');
    return ledger;
  });
}
