import type { FastifyInstance } from 'fastify';
import { implement } from '../http/implement';
import { claim, grabList, markNoCustomer } from './service';

/** Up for grabs: the floor reads the claim pools and claims; a manager marks an up "No customer" (credit-back). */
export async function grabRoutes(app: FastifyInstance) {
  implement(app, 'GET /grabs', async ({ me, ctx }) => ({ leads: await grabList(ctx, me) }));
  implement(app, 'POST /leads/:id/claim', async ({ me, ctx, params }) => claim(ctx, me, params.id));
  implement(app, 'POST /rotation/log/:id/no-customer', async ({ me, ctx, params }) => markNoCustomer(ctx, me, params.id));
}
