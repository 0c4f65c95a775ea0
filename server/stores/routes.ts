import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { ApiError, notFound } from '../http/errors';
import { implement } from '../http/implement';
import type { UserRow } from '../users/repo';
import { nextUp, sqlEnv, teamStaff, waiting } from '../rotation/queries';
import { pendingSql } from '../rotation/sql';
import { eligibleQueue } from '../../domain/rotation';
import { loadRules } from '../rules/service';
import { dayKey, zonedStartOfDay } from '../../domain/time';
import { addStore, editStore, openStore, storesOf, STORE_NOT_FOUND } from './service';

/** Adding a store and changing one's name or clock is a group manager's. */
function checkGroupManager(me: UserRow) {
  if (!me.all_stores) throw new ApiError(403, 'Only a group manager can add or change stores.');
}

/** The group's stores: each person sees those he may open; group managers add and change them, and see the group at a glance. */
export async function storeRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;

  implement(app, 'GET /stores', async ({ me }) => ({ stores: await storesOf(db, me), can: { add: !!me.all_stores } }));

  implement(app, 'POST /stores', async ({ me, body }) => {
    checkGroupManager(me);
    const store = await addStore(ctx.dbh, body);
    ctx.bus.publish({ topic: 'users' });
    return { store };
  });

  implement(app, 'PATCH /stores/:code', async ({ me, params, body }) => {
    if (!(await openStore(db, me, params.code))) throw notFound(STORE_NOT_FOUND);
    checkGroupManager(me);
    const store = await editStore(db, params.code, body);
    ctx.bus.publish({ topic: 'rules', storeId: store.id });
    return { store };
  });

  /** Every store's floor at once: Next Up, who is in line, what waits, accepts pending, today's ups. */
  implement(app, 'GET /group', async ({ me }) => {
    if (!me.all_stores) throw new ApiError(403, 'The group screen is for group managers.');
    const now = new Date();
    const stores = await Promise.all(
      (await storesOf(db, me)).map(async (store) => {
        const env = sqlEnv(now, await loadRules(db, store.id));
        const from = zonedStartOfDay(dayKey(now, store.timezone), store.timezone).getTime();
        const [{ next }, team, waits, pending, today] = await Promise.all([
          nextUp(db, store.id, env, ctx.dbh.dialect),
          teamStaff(db, store.id, env),
          waiting(db, store.id, env)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow(),
          // Only leads on the clock have an accept_due: the partial index finds them, the rule book says which wait.
          db
            .selectFrom('leads')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('store_id', '=', store.id)
            .where('accept_due', 'is not', null)
            .where(pendingSql(env))
            .executeTakeFirstOrThrow(),
          db
            .selectFrom('leads')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('store_id', '=', store.id)
            .where('assigned_at', '>=', from)
            .executeTakeFirstOrThrow(),
        ]);
        return {
          store,
          nextUp: next ? { id: next.id, name: next.name } : null,
          inLine: eligibleQueue(team, now).length,
          waiting: Number(waits.n),
          pending: Number(pending.n),
          upsToday: Number(today.n),
        };
      }),
    );
    const unassigned = await db
      .selectFrom('leads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('store_id', 'is', null)
      .where('closed', '=', 0)
      .executeTakeFirstOrThrow();
    return { stores, unassigned: Number(unassigned.n) };
  });
}
