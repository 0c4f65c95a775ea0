import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { implement } from '../http/implement';
import type { UserRow } from './repo';
import { presentPerson } from './present';
import { auditOf, confirmEmail, createUser, editUser, listUsers, setStatus } from './service';
import { confirmEmailChange, pendingEmails, requestEmailChange } from './email-change';

/** Who changed something, for the audit log. */
const actor = (me: UserRow) => ({ id: me.id, name: me.name });

/** Managers keep the team list: add, edit, disable, soft-delete and restore people. */
export async function userRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { dbh, bus } = ctx;
  const configured = ctx.config.MANAGER_EMAILS;
  const presentOne = async (me: UserRow, row: UserRow) => ({ user: presentPerson(me, row, await pendingEmails(dbh.db, row.id), configured) });
  const changed = () => {
    bus.publish({ topic: 'users' });
    bus.publish({ topic: 'rotation' });
  };

  implement(app, 'GET /users', async ({ me, query }) => {
    const [users, pending] = await Promise.all([listUsers(dbh.db, query.deleted), pendingEmails(dbh.db)]);
    return { users: users.map((u) => presentPerson(me, u, pending, configured)) };
  });

  implement(app, 'POST /users', async ({ me, body }) => {
    const row = await createUser(dbh, { email: body.email, name: body.name, role: body.role }, actor(me));
    changed();
    return presentOne(me, row);
  });

  implement(app, 'PATCH /users/:id', async ({ me, params, body }) => {
    const row = await editUser(dbh, params.id, body, actor(me), configured, (trx, before, email) => requestEmailChange(ctx, trx, before, email, actor(me)));
    if (row.email !== body.email) ctx.outbox.wake();
    changed();
    return presentOne(me, row);
  });

  for (const action of ['disable', 'enable', 'delete', 'restore'] as const) {
    implement(app, `POST /users/:id/${action}`, async ({ me, params }) => {
      const { row, revoked } = await setStatus(dbh, params.id, action, actor(me), configured);
      changed();
      if (revoked) bus.publish({ topic: 'session-revoked', userId: params.id });
      return presentOne(me, row);
    });
  }

  /** The owner of a new address opened the link mailed to it (signed in or not). */
  implement(app, 'POST /users/confirm-email', async ({ body }) => {
    const row = await confirmEmail(dbh, (trx) => confirmEmailChange(ctx, trx, body.token, configured));
    changed();
    bus.publish({ topic: 'profile', userId: row.id });
    return { email: row.email };
  });

  implement(app, 'GET /users/:id/audit', async ({ params }) => ({ entries: await auditOf(dbh.db, params.id) }));
}
