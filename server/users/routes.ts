import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { parse } from '../http/errors';
import { saveUserSchema } from '../../domain/schemas';
import { toUser, type UserRow } from './repo';
import { auditOf, createUser, editUser, listUsers, setStatus, type StatusAction } from './service';

const listQuery = z.object({ deleted: z.enum(['0', '1', 'true', 'false']).optional() });
const idParams = z.object({ id: z.string().min(1).max(100) });

/** Managers keep the team list: add, edit, disable, soft-delete and restore people. */
export async function userRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { dbh, bus } = ctx;
  const configured = ctx.config.MANAGER_EMAILS;
  /** The user as a manager sees him; `configured`: a manager by MANAGER_EMAILS, not by the portal. */
  const present = (row: UserRow) => ({ ...toUser(row), configured: configured.includes(row.email) });
  const actor = (req: FastifyRequest) => ({ id: req.user!.id, name: req.user!.name });
  const changed = () => {
    bus.publish({ topic: 'users' });
    bus.publish({ topic: 'rotation' });
  };

  app.get('/', access('manager'), async (req) => {
    const { deleted } = parse(listQuery, req.query);
    return { users: (await listUsers(dbh.db, deleted === '1' || deleted === 'true')).map(present) };
  });

  app.post('/', access('manager'), async (req) => {
    const { email, name, role } = parse(saveUserSchema, req.body);
    const row = await createUser(dbh, { email, name, role }, actor(req));
    changed();
    return { user: present(row) };
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
    );
    changed();
    return { user: present(row) };
  });

  for (const action of ['disable', 'enable', 'delete', 'restore'] as StatusAction[]) {
    app.post(`/:id/${action}`, access('manager'), async (req) => {
      const { id } = parse(idParams, req.params);
      const { row, revoked } = await setStatus(dbh, id, action, actor(req), configured);
      changed();
      if (revoked) bus.publish({ topic: 'session-revoked', userId: id });
      return { user: present(row) };
    });
  }

  app.get('/:id/audit', access('manager'), async (req) => {
    const { id } = parse(idParams, req.params);
    return { entries: await auditOf(dbh.db, id) };
  });
}
