import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { implement } from '../http/implement';
import { unauthorized } from '../http/errors';
import { findUser } from '../users/repo';
import { writeAudit } from '../users/audit';
import { diff } from '../../domain/users';
import { sessionUser } from '../auth/routes';
import { openStore } from '../stores/service';
import { notFound } from '../http/errors';

/** The signed-in user's own name and greeting. */
export async function profileRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  implement(app, 'PATCH /profile', async ({ me, body: { name, greeting } }) => {
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
    const user = await findUser(ctx.dbh.db, me.id);
    if (!user) throw unauthorized();
    return { user: await sessionUser(ctx, user) };
  });

  /** The store his screens open in next time: one he may open. */
  implement(app, 'PUT /profile/store', async ({ me, body: { code } }) => {
    const store = await openStore(ctx.dbh.db, me, code);
    if (!store) throw notFound('Store not found');
    await ctx.dbh.db.updateTable('users').set({ store_id: store.id }).where('id', '=', me.id).execute();
    ctx.bus.publish({ topic: 'profile', userId: me.id });
    return { ok: true };
  });

  /** The salesman's own notes, kept per user. */
  implement(app, 'GET /profile/notes', async ({ me }) => ({ notes: me.notes ?? '' }));

  implement(app, 'PUT /profile/notes', async ({ me, body: { notes } }) => {
    await ctx.dbh.db
      .updateTable('users')
      .set({ notes: notes ?? null, updated_at: Date.now() })
      .where('id', '=', me.id)
      .execute();
    ctx.bus.publish({ topic: 'profile', userId: me.id });
    return { notes: notes ?? '' };
  });
}
