import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { pathId } from '../http/params';
import { badRequest, HttpError, notFound, parse } from '../http/errors';
import { checkChangeSale, checkSeeSales, seesSalesmen } from './policy';
import { findUser, type UserRow } from '../users/repo';
import { saleSchemaOn } from '../../domain/schemas';
import { dayKey } from '../../domain/time';
import { salesCsv } from '../../domain/csv';
import { listSales, saleAsInput, saleColumns, toSale, tracker } from './service';

const whoQuery = z.object({ user: z.string().trim().max(100, 'No such user').optional() });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function salesRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;
  const today = () => dayKey(new Date(), ctx.config.APP_TIMEZONE);

  /** Whose tracker: your own, or, for a manager, anyone's (read-only). */
  async function whose(req: FastifyRequest): Promise<{ owner: UserRow; readOnly: boolean }> {
    const me = req.user!;
    const { user } = parse(whoQuery, req.query);
    const { readOnly } = checkSeeSales(me, user);
    if (!readOnly || !user) return { owner: me, readOnly: false };
    const owner = await findUser(db, user);
    if (!owner) throw notFound('No such user');
    return { owner, readOnly: true };
  }

  /** The sale, if it is the caller's own; nobody changes another's sale, managers included. */
  async function ownSale(req: FastifyRequest) {
    const id = pathId(req.params, 'Sale not found');
    const row = await db.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Sale not found');
    checkChangeSale(req.user!, row);
    return row;
  }

  const changed = (userId: string) => ctx.bus.publish({ topic: 'sales', userId });

  app.get('/', access('user'), async (req) => {
    const { owner, readOnly } = await whose(req);
    const day = today();
    const sales = await listSales(db, owner.id);
    const salesmen = seesSalesmen(req.user!)
      ? await db.selectFrom('users').select(['id', 'name', 'email']).where('deleted_at', 'is', null).orderBy('name').orderBy('email').execute()
      : undefined;
    return {
      today: day,
      owner: { id: owner.id, name: owner.name, email: owner.email },
      readOnly,
      sales,
      ...tracker(sales, day),
      salesmen,
    };
  });

  app.get('/export.csv', access('user'), async (req, reply) => {
    const { owner } = await whose(req);
    const sales = await listSales(db, owner.id);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="sales_records.csv"')
      .header('cache-control', 'no-store')
      .send(salesCsv(sales));
  });

  app.post('/', access('user'), async (req, reply) => {
    const me = req.user!;
    const input = parse(saleSchemaOn(today()), req.body);
    const row = await db
      .insertInto('sales')
      .values({ ...saleColumns(input), user_id: me.id, rep_name: me.name, created_at: Date.now(), created_by: me.id })
      .returningAll()
      .executeTakeFirstOrThrow();
    changed(me.id);
    return reply.status(201).send(toSale(row));
  });

  app.patch('/:id', access('user'), async (req) => {
    const row = await ownSale(req);
    if (!isObject(req.body)) throw badRequest('Expected a JSON object');
    const input = parse(saleSchemaOn(today()), { ...saleAsInput(row), ...req.body });
    const updated = await db
      .updateTable('sales')
      .set(saleColumns(input))
      .where('id', '=', row.id)
      .where('user_id', '=', req.user!.id)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new HttpError(404, 'Sale not found');
    changed(row.user_id);
    return toSale(updated);
  });

  app.delete('/:id', access('user'), async (req) => {
    const row = await ownSale(req);
    await db.deleteFrom('sales').where('id', '=', row.id).where('user_id', '=', req.user!.id).execute();
    changed(row.user_id);
    return { ok: true };
  });
}
