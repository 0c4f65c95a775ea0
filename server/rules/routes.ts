import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { implement, mayCall } from '../http/implement';
import type { UserRow } from '../users/repo';
import { loadRules, rulesHistory, saveRules } from './service';

/** The dealership rules: everyone reads them (screens show what they mean); managers change them. */
export async function rulesRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { dbh, bus } = ctx;

  const answer = async (me: UserRow) => {
    const change = mayCall('PATCH /rules', me);
    return { rules: await loadRules(dbh.db), can: { change }, history: change ? await rulesHistory(dbh.db) : [] };
  };

  implement(app, 'GET /rules', async ({ me }) => answer(me));

  implement(app, 'PATCH /rules', async ({ me, body }) => {
    const { changed } = await saveRules(dbh, body, { id: me.id, name: me.name }, { tz: ctx.config.APP_TIMEZONE });
    if (changed) {
      bus.publish({ topic: 'rules' });
      bus.publish({ topic: 'leads' });
    }
    return answer(me);
  });
}
