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
import { FIRST_STORE_ID, findUserByEmail, storeIdsOf, type UserRow as Row } from './repo';
import { checkAuthority, reachOf, tellGroupOfHiddenAdd, visibleTo, type Reach } from './authority';
import { confirmedBy, SHARED_PERSON } from '../../domain/users';
import { writeAudit } from './audit';
import { endSessions } from '../auth/sessions/service';
import type { Db } from '../db';

/** Who changed something, for the audit log. */
const actor = (me: UserRow) => ({ id: me.id, name: me.name });

/**
 * Where a manager places a person: stores he may open himself, by code (one he may not is
 * unknown to him), beside the person's stores he may not open (`kept`), which stay as they are;
 * only a group manager makes group managers.
 */
async function placing(ctx: StoreCtx, me: UserRow, v: { groupManager?: boolean; stores?: string[] }, kept: number[] = []): Promise<Placing> {
  if (v.groupManager !== undefined && !me.all_stores)
    throw new ApiError(403, 'Only a group manager can make or unmake a group manager.', undefined, 'groupManager');
  if (!v.stores) return { groupManager: v.groupManager };
  const stores: { id: number }[] = [];
  for (const code of v.stores) {
    const s = await openStore(ctx.dbh.db, me, code);
    if (!s) throw new ApiError(400, `No store has the code ${code}.`, undefined, 'stores');
    stores.push(s);
  }
  return { groupManager: v.groupManager, stores: [...stores, ...kept.filter((id) => !stores.some((s) => s.id === id)).map((id) => ({ id }))] };
}

/** A store manager's change to someone who also works elsewhere: his place in the manager's stores only. */
function checkPlaceOnly(p: Row, body: { email: string; name?: string; role?: string; groupManager?: boolean }) {
  const whole =
    body.email !== p.email ||
    (body.name !== undefined && body.name !== p.name) ||
    (body.role !== undefined && body.role !== p.role) ||
    body.groupManager !== undefined;
  if (whole) throw new ApiError(403, SHARED_PERSON);
}

/** A store's managers keep its team list: add, edit, disable, soft-delete and restore people. */
export async function userRoutes(app: FastifyInstance, { ctx: root }: { ctx: Ctx }) {
  const configured = root.config.MANAGER_EMAILS;
  /** The person as changed, even if the change took him out of this store. */
  const presentOne = async (ctx: StoreCtx, reach: Reach, id: string) => {
    const { db, store } = ctx.dbh;
    return { user: presentPerson(reach, await personOf(db, store, id, true), await pendingEmails(db, id), configured) };
  };
  /** A change to a person is news in each store he was or is in (his lines there), and in this one; a group manager's in every store. */
  const changed = async (ctx: StoreCtx, id: string, was: number[]) => {
    const person = await personOf(ctx.dbh.db, ctx.store.id, id, true);
    const stores = person.all_stores ? [undefined] : [...new Set([ctx.store.id, ...was, ...(await storeIdsOf(ctx.dbh.db, id))])];
    for (const storeId of stores) for (const topic of ['users', 'rotation'] as const) root.bus.publish({ topic, storeId });
  };
  /**
   * A person of the store the reader may change, as far as his authority reaches (`need`): the
   * whole person, or his place in the reader's stores (see domain/users.ts authorityOver).
   */
  const target = async (ctx: StoreCtx, me: UserRow, id: string, need: 'whole' | 'place') => {
    const [p, reach] = await Promise.all([personOf(ctx.dbh.db, ctx.store.id, id), reachOf(ctx.dbh.db, me)]);
    return { p, reach, reaches: checkAuthority(reach, p, need) };
  };

  implement(app, 'GET /users', async ({ me, ctx, query }) => {
    const [users, pending, reach] = await Promise.all([
      listUsers(ctx.dbh.db, ctx.store.id, { deleted: query.deleted }),
      pendingEmails(ctx.dbh.db),
      reachOf(ctx.dbh.db, me),
    ]);
    return { users: users.map((u) => presentPerson(reach, u, pending, configured)) };
  });

  implement(app, 'POST /users', async ({ me, ctx, body }) => {
    const reach = await reachOf(ctx.dbh.db, me);
    const place = await placing(ctx, me, body);
    const other = await findUserByEmail(ctx.dbh.db, body.email);
    if (other && !(await visibleTo(ctx.dbh.db, reach, other))) {
      // Answered as for a new address; the group managers hear of it instead.
      await tellGroupOfHiddenAdd(ctx, me, other, body.role);
      const stores = body.stores ?? [ctx.store.code];
      const now = Date.now();
      const made = {
        ...other,
        id: crypto.randomUUID(),
        name: body.name,
        role: body.role,
        all_stores: 0,
        disabled: 0,
        deleted_at: null,
        signed_in_at: null,
        // Nothing of the other person's own goes back.
        greeting: null,
        notes: null,
        mobile: null,
        mobile_confirmed_at: null,
        sms_stopped_at: null,
        notify: null,
        store_id: null,
        created_at: now,
        updated_at: now,
      };
      return { user: presentPerson(reach, { ...made, place: { active: 1, on_duty: 0, snooze_until: null }, stores }, new Map(), configured) };
    }
    const row = await createUser(ctx.dbh, { email: body.email, name: body.name, role: body.role, ...place }, actor(me));
    await changed(ctx, row.id, []);
    return presentOne(ctx, reach, row.id);
  });

  implement(app, 'PATCH /users/:id', async ({ me, ctx, params, body }) => {
    const { p, reach, reaches } = await target(ctx, me, params.id, 'place');
    if (reaches === 'place') checkPlaceOnly(p, body);
    const was = await storeIdsOf(ctx.dbh.db, params.id);
    const place = await placing(
      ctx,
      me,
      body,
      was.filter((id) => !reach.ids.includes(id)),
    );
    const by = confirmedBy({ id: me.id, group: reach.group }, p.id);
    const row = await editUser(
      ctx.dbh,
      params.id,
      { email: body.email, name: body.name, role: body.role, ...place },
      actor(me),
      configured,
      (trx, before, email) => requestEmailChange(ctx, trx, before, email, actor(me), by),
      (db, other) => visibleTo(db, reach, other),
    );
    if (row.email !== body.email) ctx.outbox.wake();
    await changed(ctx, row.id, was);
    return presentOne(ctx, reach, row.id);
  });

  for (const action of ['disable', 'enable', 'delete', 'restore'] as const) {
    implement(app, `POST /users/:id/${action}`, async ({ me, ctx, params }) => {
      const { reach } = await target(ctx, me, params.id, 'whole');
      const { revoked } = await setStatus(ctx.dbh, params.id, action, actor(me), configured);
      await changed(ctx, params.id, []);
      if (revoked) root.bus.publish({ topic: 'session-revoked', userId: params.id });
      return presentOne(ctx, reach, params.id);
    });
  }

  /** A link of an address change was opened (signed in or not): the address changes, every device of the person is signed out. */
  implement(app, 'POST /users/confirm-email', async ({ body }) => {
    const row = await confirmEmail(atStore(root.dbh, FIRST_STORE_ID), (trx) => confirmEmailChange(root, trx, body.token, configured));
    root.outbox.wake();
    root.bus.publish({ topic: 'users' });
    root.bus.publish({ topic: 'profile', userId: row.id });
    root.bus.publish({ topic: 'session-revoked', userId: row.id });
    return { email: row.email };
  });

  /** Signs the person out on every device (a lost phone, a shared PC); he may sign in again. */
  implement(app, 'POST /users/:id/sign-out', async ({ me, ctx, params }) => {
    await target(ctx, me, params.id, 'whole');
    const also = (trx: Db, ended: number) => writeAudit(trx, params.id, actor(me), [{ action: 'sign out', changes: { sessions: { from: ended, to: 0 } } }]);
    return { ended: await endSessions(ctx.dbh.db, root.bus, params.id, { also }) };
  });

  implement(app, 'GET /users/:id/audit', async ({ ctx, params }) => {
    await personOf(ctx.dbh.db, ctx.store.id, params.id);
    return { entries: await auditOf(ctx.dbh.db, params.id) };
  });
}
