import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { parse } from '../http/errors';
import { confirmEmailSchema, saveUserSchema } from '../../domain/schemas';
import { toUser, type UserRow } from './repo';
import { auditOf, confirmEmail, createUser, editUser, listUsers, setStatus, type StatusAction } from './service';
import { confirmEmailChange, pendingEmails, requestEmailChange } from './email-change';

const listQuery = z.object({ deleted: z.enum(['0', '1', 'true', 'false']).optional() });
const idParams = z.object({ id: z.string().min(1).max(100) });

/** Managers keep the team list: add, edit, disable, soft-delete and restore people. */
export async function userRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { dbh, bus } = ctx;
  const configured = ctx.config.MANAGER_EMAILS;
  /** The user as a manager sees him; `configured`: a manager by MANAGER_EMAILS, not by the portal. */
  const present = (row: UserRow, pending: Map<string, string>) => ({
    ...toUser(row),
    configured: configured.includes(row.email),
    pendingEmail: pending.get(row.id) ?? null,
  });
  const presentOne = async (row: UserRow) => ({ user: present(row, await pendingEmails(dbh.db)) });
  const actor = (req: FastifyRequest) => ({ id: req.user!.id, name: req.user!.name });
  const changed = () => {
    bus.publish({ topic: 'users' });
    bus.publish({ topic: 'rotation' });
  };

  app.get('/', access('manager'), async (req) => {
    const { deleted } = parse(listQuery, req.query);
    const [users, pending] = await Promise.all([listUsers(dbh.db, deleted === '1' || deleted === 'true'), pendingEmails(dbh.db)]);
    return { users: users.map((u) => present(u, pending)) };
  });

  app.post('/', access('manager'), async (req) => {
    const { email, name, role } = parse(saveUserSchema, req.body);
    const row = await createUser(dbh, { email, name, role }, actor(req));
    changed();
    return presentOne(row);
  });

  app.patch('/:id', access('manager'), async (req) => {
    const { id } = parse(idParams, req.params);
    const v = parse(saveUserSchema, req.body);
    // Fields left out keep their value; the schema's defaults are for new people.
    const given = req.body as Record<string, unknown>;
    const row = await editUser(
      dbh,
      id,
      { email: v.email, name: 'name' in given ? v.name : undefined, role: 'role' in given ? v.role : undefined },
      actor(req),
      configured,
      (trx, before, email) => requestEmailChange(ctx, trx, before, email, actor(req)),
    );
    if (row.email !== v.email) ctx.outbox.wake();
    changed();
    return presentOne(row);
  });

  for (const action of ['disable', 'enable', 'delete', 'restore'] as StatusAction[]) {
    app.post(`/:id/${action}`, access('manager'), async (req) => {
      const { id } = parse(idParams, req.params);
      const { row, revoked } = await setStatus(dbh, id, action, actor(req), configured);
      changed();
      if (revoked) bus.publish({ topic: 'session-revoked', userId: id });
      return presentOne(row);
    });
  }

  /** The owner of a new address opened the link mailed to it (signed in or not). */
  app.post('/confirm-email', access('public'), async (req) => {
    const { token } = parse(confirmEmailSchema, req.body);
    const row = await confirmEmail(dbh, (trx) => confirmEmailChange(ctx, trx, token, configured));
    changed();
    bus.publish({ topic: 'profile', userId: row.id });
    return { email: row.email };
  });

  app.get('/:id/audit', access('manager'), async (req) => {
    const { id } = parse(idParams, req.params);
    return { entries: await auditOf(dbh.db, id) };
  });
}
