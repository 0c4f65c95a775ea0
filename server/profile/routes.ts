import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { parse } from '../http/errors';
import { notesSchema, profileSchema } from '../../domain/schemas';
import { findUser } from '../users/repo';
import { writeAudit } from '../users/audit';
import { diff } from '../../domain/users';
import { sessionUser } from '../auth/routes';

/** The signed-in user's own name and greeting. */
export async function profileRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  app.patch('/', access('user'), async (req) => {
    const { name, greeting } = parse(profileSchema, req.body);
    const me = req.user!;
    const changes = diff({ name: me.name, greeting: me.greeting }, { name, greeting: greeting ?? null });
    await ctx.dbh.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ name, greeting: greeting ?? null, updated_at: Date.now() })
        .where('id', '=', me.id)
        .execute();
      if (Object.keys(changes).length) await writeAudit(trx, me.id, me, [{ action: 'update', changes }]);
    });
    ctx.bus.publish({ topic: 'users' });
    ctx.bus.publish({ topic: 'profile', userId: me.id });
    return { user: sessionUser(ctx, (await findUser(ctx.dbh.db, me.id))!) };
  });

  /** The salesman's own notes, kept per user. */
  app.get('/notes', access('user'), async (req) => ({ notes: req.user!.notes ?? '' }));

  app.put('/notes', access('user'), async (req) => {
    const { notes } = parse(notesSchema, req.body);
    await ctx.dbh.db
      .updateTable('users')
      .set({ notes: notes ?? null, updated_at: Date.now() })
      .where('id', '=', req.user!.id)
      .execute();
    return { notes: notes ?? '' };
  });
}
