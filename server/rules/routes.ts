import type { FastifyInstance } from 'fastify';
import type { StoreCtx } from '../context';
import { implement, mayCall } from '../http/implement';
import type { UserRow } from '../users/repo';
import { loadRules, rulesHistory, saveRules, rememberedRules } from './service';

/** A store's dealership rules: everyone there reads them (screens show what they mean); managers change them. */
export async function rulesRoutes(app: FastifyInstance) {
  const answer = async (ctx: StoreCtx, me: UserRow) => {
    const { db, store } = ctx.dbh;
    const change = mayCall('PATCH /rules', me);
    return { rules: await loadRules(db, store), can: { change }, history: change ? await rulesHistory(db, store) : [] };
  };

  implement(app, 'GET /rules', async ({ me, ctx }) => answer(ctx, me));

  implement(app, 'PATCH /rules', async ({ me, ctx, body }) => {
    const { changed } = await saveRules(ctx.dbh, body, { id: me.id, name: me.name }, { tz: ctx.config.APP_TIMEZONE });
    if (changed) {
      // This app server's remembered rules (notices read them) are the new ones at once; others' at their next assign or sweep.
      await rememberedRules(ctx.dbh, true);
      ctx.bus.publish({ topic: 'rules' });
      ctx.bus.publish({ topic: 'leads' });
    }
    return answer(ctx, me);
  });
}
