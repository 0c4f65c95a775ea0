import type { FastifyInstance } from 'fastify';
import type { StoreCtx } from '../context';
import { implement } from '../http/implement';
import { loadRules } from '../rules/service';
import { readChoices, type NoticeChoicesAnswer } from '../../domain/notices';

async function choicesOf(ctx: StoreCtx, userId: string): Promise<NoticeChoicesAnswer> {
  const [rules, user] = await Promise.all([
    loadRules(ctx.dbh.db, ctx.store.id),
    ctx.dbh.db.selectFrom('users').select('notify').where('id', '=', userId).executeTakeFirst(),
  ]);
  const own = !!user?.notify;
  return { choices: readChoices(user?.notify, rules.notify), own, dealership: rules.notify };
}

/** Settings → What reaches you: per kind of notice, push, text, e-mail or none; or the dealership's default. */
export async function choiceRoutes(app: FastifyInstance) {
  implement(app, 'GET /profile/notify', async ({ me, ctx }) => choicesOf(ctx, me.id));

  implement(app, 'PUT /profile/notify', async ({ me, ctx, body: { choices } }) => {
    await ctx.dbh.db
      .updateTable('users')
      .set({ notify: choices ? JSON.stringify(choices) : null, updated_at: Date.now() })
      .where('id', '=', me.id)
      .execute();
    ctx.bus.publish({ topic: 'profile', userId: me.id });
    return choicesOf(ctx, me.id);
  });
}
