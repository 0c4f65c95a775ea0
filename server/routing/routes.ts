import type { FastifyInstance } from 'fastify';
import type { StoreCtx } from '../context';
import { implement, mayCall } from '../http/implement';
import type { UserRow } from '../users/repo';
import { rememberedRules, saveRules } from '../rules/service';
import { handOutWaitingLeads } from '../rotation/handout';
import { addMember, createTeam, deleteTeam, removeMember, renameTeam, routingAdmin, setLimits, tryLead } from './service';

/**
 * A store's routing (Manager → Routing rules): its teams and their lines, each salesman's weight
 * and caps, the routing rules kept in the rule book, and trying a sample lead on them. Everyone
 * there reads them; managers change them. Each change tells open screens (the 'rotation' topic).
 */
export async function routingRoutes(app: FastifyInstance) {
  const answer = (ctx: StoreCtx, me: UserRow) => routingAdmin(ctx.dbh.db, ctx.store.id, mayCall('PUT /routing/rules', me));
  const changed = async (ctx: StoreCtx, me: UserRow) => {
    ctx.bus.publish({ topic: 'rotation' });
    return answer(ctx, me);
  };

  implement(app, 'GET /routing', async ({ me, ctx }) => answer(ctx, me));

  implement(app, 'POST /routing/teams', async ({ me, ctx, body }) => {
    await createTeam(ctx.dbh, body.name);
    return changed(ctx, me);
  });
  implement(app, 'PATCH /routing/teams/:id', async ({ me, ctx, params, body }) => {
    await renameTeam(ctx.dbh, params.id, body.name);
    return changed(ctx, me);
  });
  implement(app, 'DELETE /routing/teams/:id', async ({ me, ctx, params }) => {
    await deleteTeam(ctx.dbh, params.id);
    return changed(ctx, me);
  });
  implement(app, 'POST /routing/teams/:id/members', async ({ me, ctx, params, body }) => {
    await addMember(ctx.dbh, params.id, body.uid);
    return changed(ctx, me);
  });
  implement(app, 'DELETE /routing/teams/:id/members/:uid', async ({ me, ctx, params }) => {
    await removeMember(ctx.dbh, params.id, params.uid);
    return changed(ctx, me);
  });

  /** A raised cap or a lower one may let a waiting lead go to him now. */
  implement(app, 'PATCH /routing/people/:id', async ({ me, ctx, params, body }) => {
    if (await setLimits(ctx.dbh, params.id, body, { id: me.id, name: me.name })) {
      ctx.bus.publish({ topic: 'users' });
      await handOutWaitingLeads(ctx);
    }
    return changed(ctx, me);
  });

  /** The routing is saved with the rules (history, audit, the remembered rules), as PATCH /rules saves them. */
  implement(app, 'PUT /routing/rules', async ({ me, ctx, body }) => {
    const saved = await saveRules(ctx.dbh, { routing: body }, { id: me.id, name: me.name }, { tz: ctx.config.APP_TIMEZONE });
    if (saved.changed) {
      await rememberedRules(ctx.dbh, true);
      ctx.bus.publish({ topic: 'rules' });
    }
    return changed(ctx, me);
  });

  implement(app, 'POST /routing/test', async ({ ctx, body }) => tryLead(ctx.dbh, body));
}
