import type { FastifyInstance } from 'fastify';
import type { StoreCtx } from '../context';
import { implement } from '../http/implement';
import { forbidden } from '../http/errors';
import type { UserRow } from '../users/repo';
import { authority, reachOf } from '../users/authority';
import { personOf } from '../users/service';
import type { TimeOffSetter } from '../../domain/availability';
import { addTimeOff, afterChange, availabilityOf, checkMember, removeTimeOff, setHours } from './service';

/**
 * A salesman reads and changes his own hours and time off; a manager anyone's in his store.
 * Someone not in the store is not found (404) for everyone; a teammate's is refused (403) to a salesman.
 */
async function mayTouch(ctx: StoreCtx, me: UserRow, id: string) {
  await checkMember(ctx, id);
  if (me.role !== 'manager' && me.id !== id) throw forbidden('You can only see and change your own availability.');
}

/** Who sets time off: his own, and that of a manager whose authority covers the whole person, holds in every store he works in. */
async function setter(ctx: StoreCtx, me: UserRow, id: string): Promise<TimeOffSetter> {
  if (me.id === id) return { id: me.id, whole: true };
  const [reach, person] = await Promise.all([reachOf(ctx.dbh.db, me), personOf(ctx.dbh.db, ctx.store.id, id)]);
  return { id: me.id, whole: authority(reach, person) === 'whole' };
}

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
    await addTimeOff(ctx, params.id, body, await setter(ctx, me, params.id));
    await afterChange(ctx, params.id);
    return availabilityOf(ctx, params.id);
  });

  implement(app, 'DELETE /availability/:id/time-off/:offId', async ({ me, ctx, params }) => {
    await mayTouch(ctx, me, params.id);
    await removeTimeOff(ctx, params.id, params.offId, await setter(ctx, me, params.id));
    await afterChange(ctx, params.id);
    return availabilityOf(ctx, params.id);
  });
}
