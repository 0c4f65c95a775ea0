import type { FastifyInstance } from 'fastify';
import type { StoreCtx } from '../context';
import { implement } from '../http/implement';
import { forbidden } from '../http/errors';
import type { UserRow } from '../users/repo';
import { addTimeOff, afterChange, availabilityOf, checkMember, removeTimeOff, setHours } from './service';

/**
 * A salesman reads and changes his own hours and time off; a manager anyone's in his store.
 * Someone not in the store is not found (404) for everyone; a teammate's is refused (403) to a salesman.
 */
async function mayTouch(ctx: StoreCtx, me: UserRow, id: string) {
  await checkMember(ctx, id);
  if (me.role !== 'manager' && me.id !== id) throw forbidden('You can only see and change your own availability.');
}

/** Who sets time off: a group manager's holds in every store, as the person's own does. */
const setter = (me: UserRow) => ({ id: me.id, groupManager: !!me.all_stores });

/** Who is available: each person's own hours and time off in a store (the Availability card). */
export async function availabilityRoutes(app: FastifyInstance) {
  implement(app, 'GET /availability/:id', async ({ me, ctx, params }) => {
    await mayTouch(ctx, me, params.id);
    return availabilityOf(ctx, params.id);
  });

  implement(app, 'PUT /availability/:id/hours', async ({ me, ctx, params, body }) => {
    await mayTouch(ctx, me, params.id);
    await setHours(ctx, params.id, body.hours);
    await afterChange(ctx, params.id);
    return availabilityOf(ctx, params.id);
  });

  implement(app, 'POST /availability/:id/time-off', async ({ me, ctx, params, body }) => {
    await mayTouch(ctx, me, params.id);
    await addTimeOff(ctx, params.id, body, setter(me));
    await afterChange(ctx, params.id);
    return availabilityOf(ctx, params.id);
  });

  implement(app, 'DELETE /availability/:id/time-off/:offId', async ({ me, ctx, params }) => {
    await mayTouch(ctx, me, params.id);
    await removeTimeOff(ctx, params.id, params.offId, setter(me));
    await afterChange(ctx, params.id);
    return availabilityOf(ctx, params.id);
  });
}
