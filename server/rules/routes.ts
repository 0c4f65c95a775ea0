import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { parse } from '../http/errors';
import { rulesChangeSchema } from '../../domain/rules';
import { loadRules, rulesHistory, saveRules } from './service';

/** The dealership rules: everyone reads them (screens show what they mean); managers change them. */
export async function rulesRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { dbh, bus } = ctx;

  app.get('/', access('user'), async (req) => ({
    rules: await loadRules(dbh.db),
    history: req.user!.role === 'manager' ? await rulesHistory(dbh.db) : [],
  }));

  app.patch('/', access('manager'), async (req) => {
    const change = parse(rulesChangeSchema, req.body);
    const me = req.user!;
    const { changed } = await saveRules(dbh, change, { id: me.id, name: me.name }, { tz: ctx.config.APP_TIMEZONE });
    if (changed) {
      bus.publish({ topic: 'rules' });
      bus.publish({ topic: 'leads' });
    }
    return { rules: await loadRules(dbh.db), history: await rulesHistory(dbh.db) };
  });
}
