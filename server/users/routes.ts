import type { FastifyInstance } from 'fastify';
import type { Ctx, StoreCtx } from '../context';
import { implement } from '../http/implement';
import { ApiError } from '../http/errors';
import type { UserRow } from './repo';
import { presentPerson } from './present';
import { auditOf, confirmEmail, createUser, editUser, listUsers, personOf, setStatus, type Placing } from './service';
import { confirmEmailChange, pendingEmails, requestEmailChange } from './email-change';
import { openStore } from '../stores/service';
import { atStore } from '../db';
import { FIRST_STORE_ID, storeIdsOf } from './repo';
import { writeAudit } from './audit';
import { endSessions } from '../auth/sessions/service';
import type { Db } from '../db';

/** Who changed something, for the audit log. */
const actor = (me: UserRow) => ({ id: me.id, name: me.name });

/**
 * Where a manager places a person: stores he may open himself, by code (one he may not is
 * unknown to him); only a group manager makes group managers.
 */
async function placing(ctx: StoreCtx, me: UserRow, v: { groupManager?: boolean; stores?: string[] }): Promise<Placing> {
  if (v.groupManager !== undefined && !me.all_stores)
    throw new ApiError(403, 'Only a group manager can make or unmake a group manager.', undefined, 'groupManager');
  if (!v.stores) return { groupManager: v.groupManager };
  const stores = [];
  for (const code of v.stores) {
    const s = await openStore(ctx.dbh.db, me, code);
    if (!s) throw new ApiError(400, `No store has the code ${code}.`, undefined, 'stores');
    stores.push(s);
  }
  return { groupManager: v.groupManager, stores };
}

/** A store's managers keep its team list: add, edit, disable, soft-delete and restore people. */
export async function userRoutes(app: FastifyInstance, { ctx: root }: { ctx: Ctx }) {
  const configured = root.config.MANAGER_EMAILS;
  /** The person as changed, even if the change took him out of this store. */
  const presentOne = async (ctx: StoreCtx, me: UserRow, id: string) => {
    const { db, store } = ctx.dbh;
    return { user: presentPerson(me, await personOf(db, store, id, true), await pendingEmails(db, id), configured) };
  };
  /** A change to a person is news in each store he was or is in (his lines there), and in this one; a group manager's in every store. */
  const changed = async (ctx: StoreCtx, id: string, was: number[]) => {
    const person = await personOf(ctx.dbh.db, ctx.store.id, id, true);
    const stores = person.all_stores ? [undefined] : [...new Set([ctx.store.id, ...was, ...(await storeIdsOf(ctx.dbh.db, id))])];
    for (const storeId of stores) for (const topic of ['users', 'rotation'] as const) root.bus.publish({ topic, storeId });
  };
  /** A person of the store the reader may change: a group manager only by a group manager. */
  const target = async (ctx: StoreCtx, me: UserRow, id: string) => {
    const p = await personOf(ctx.dbh.db, ctx.store.id, id);
    if (p.all_stores && !me.all_stores) throw new ApiError(403, 'Only a group manager can change a group manager.');
    return p;
  };

  implement(app, 'GET /users', async ({ me, ctx, query }) => {
    const [users, pending] = await Promise.all([listUsers(ctx.dbh.db, ctx.store.id, { deleted: query.deleted }), pendingEmails(ctx.dbh.db)]);
    return { users: users.map((u) => presentPerson(me, u, pending, configured)) };
  });

  implement(app, 'POST /users', async ({ me, ctx, body }) => {
    const place = await placing(ctx, me, body);
    const row = await createUser(ctx.dbh, { email: body.email, name: body.name, role: body.role, ...place }, actor(me));
    await changed(ctx, row.id, []);
    return presentOne(ctx, me, row.id);
  });

  implement(app, 'PATCH /users/:id', async ({ me, ctx, params, body }) => {
    await target(ctx, me, params.id);
    const was = await storeIdsOf(ctx.dbh.db, params.id);
    const place = await placing(ctx, me, body);
    const row = await editUser(
      ctx.dbh,
      params.id,
      { email: body.email, name: body.name, role: body.role, ...place },
      actor(me),
      configured,
      (trx, before, email) => requestEmailChange(ctx, trx, before, email, actor(me)),
    );
    if (row.email !== body.email) ctx.outbox.wake();
    await changed(ctx, row.id, was);
    return presentOne(ctx, me, row.id);
  });

  for (const action of ['disable', 'enable', 'delete', 'restore'] as const) {
    implement(app, `POST /users/:id/${action}`, async ({ me, ctx, params }) => {
      await target(ctx, me, params.id);
      const { revoked } = await setStatus(ctx.dbh, params.id, action, actor(me), configured);
      await changed(ctx, params.id, []);
      if (revoked) root.bus.publish({ topic: 'session-revoked', userId: params.id });
      return presentOne(ctx, me, params.id);
    });
  }

  /** The owner of a new address opened the link mailed to it (signed in or not). */
  implement(app, 'POST /users/confirm-email', async ({ body }) => {
    const row = await confirmEmail(atStore(root.dbh, FIRST_STORE_ID), (trx) => confirmEmailChange(root, trx, body.token, configured));
    root.bus.publish({ topic: 'users' });
    root.bus.publish({ topic: 'profile', userId: row.id });
    return { email: row.email };
  });

  /** Signs the person out on every device (a lost phone, a shared PC); he may sign in again. */
  implement(app, 'POST /users/:id/sign-out', async ({ me, ctx, params }) => {
    await target(ctx, me, params.id);
    const also = (trx: Db, ended: number) => writeAudit(trx, params.id, actor(me), [{ action: 'sign out', changes: { sessions: { from: ended, to: 0 } } }]);
    return { ended: await endSessions(ctx.dbh.db, root.bus, params.id, { also }) };
  });

  implement(app, 'GET /users/:id/audit', async ({ ctx, params }) => {
    await personOf(ctx.dbh.db, ctx.store.id, params.id);
    return { entries: await auditOf(ctx.dbh.db, params.id) };
  });
}
