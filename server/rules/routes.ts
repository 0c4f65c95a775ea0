import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { implement } from '../http/implement';
import { loadRules, rulesHistory, saveRules } from './service';

/** The dealership rules: everyone reads them (screens show what they mean); managers change them. */
export async function rulesRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { dbh, bus } = ctx;

  implement(app, 'GET /rules', async ({ me }) => ({
    rules: await loadRules(dbh.db),
    history: me.role === 'manager' ? await rulesHistory(dbh.db) : [],
  }));

  implement(app, 'PATCH /rules', async ({ me, body }) => {
    const { changed } = await saveRules(dbh, body, { id: me.id, name: me.name }, { tz: ctx.config.APP_TIMEZONE });
    if (changed) {
      bus.publish({ topic: 'rules' });
      bus.publish({ topic: 'leads' });
    }
    return { rules: await loadRules(dbh.db), history: await rulesHistory(dbh.db) };
  });
}
