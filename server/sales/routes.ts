import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { ApiError, notFound, parse, unauthorized } from '../http/errors';
import { implement } from '../http/implement';
import { checkChangeSale, checkSeeSales, saleCan, seesSalesmen } from './policy';
import { findUser, type UserRow } from '../users/repo';
import { saleDateError, saleSchema } from '../../domain/schemas';
import { salesQuery } from '../../domain/contract/inputs';
import { dayKey } from '../../domain/time';
import { salesCsv } from '../../domain/csv';
import { listSales, saleAsInput, saleColumns, toSale, tracker, type SaleInput } from './service';

export async function salesRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { db } = ctx.dbh;
  const today = () => dayKey(new Date(), ctx.config.APP_TIMEZONE);

  /** Whose tracker: your own, or, for a manager, anyone's (read-only). */
  async function whose(me: UserRow, user: string | undefined): Promise<{ owner: UserRow; readOnly: boolean }> {
    const { readOnly } = checkSeeSales(me, user);
    if (!readOnly || !user) return { owner: me, readOnly: false };
    const owner = await findUser(db, user);
    if (!owner) throw notFound('No such user');
    return { owner, readOnly: true };
  }

  /** The sale, if it is the caller's own; nobody changes another's sale, managers included. */
  async function ownSale(me: UserRow, id: number) {
    const row = await db.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Sale not found');
    checkChangeSale(me, row);
    return row;
  }

  /** A sale's date is checked against today on the dealership's clock, which the contract's schema cannot know. */
  function checkDate(sale: SaleInput) {
    const error = saleDateError(sale.date, today());
    if (error) throw new ApiError(400, error, undefined, 'date');
    return sale;
  }

  const changed = (userId: string) => ctx.bus.publish({ topic: 'sales', userId });

  implement(app, 'GET /sales', async ({ me, query }) => {
    const { owner, readOnly } = await whose(me, query.user);
    const day = today();
    const can = saleCan(me, { user_id: owner.id });
    const sales = (await listSales(db, owner.id)).map((sale) => ({ ...sale, can }));
    const salesmen = seesSalesmen(me)
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

  app.get('/sales/export.csv', access('user'), async (req, reply) => {
    if (!req.user) throw unauthorized();
    const { owner } = await whose(req.user, parse(salesQuery, req.query).user);
    const sales = await listSales(db, owner.id);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="sales_records.csv"')
      .header('cache-control', 'no-store')
      .send(salesCsv(sales));
  });

  implement(app, 'POST /sales', async ({ me, body }) => {
    const row = await db
      .insertInto('sales')
      .values({ ...saleColumns(checkDate(body)), user_id: me.id, rep_name: me.name, created_at: Date.now(), created_by: me.id })
      .returningAll()
      .executeTakeFirstOrThrow();
    changed(me.id);
    return { ...toSale(row), can: saleCan(me, row) };
  });

  implement(app, 'PATCH /sales/:id', async ({ me, params, body }) => {
    const row = await ownSale(me, params.id);
    const sent = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const sale = checkDate({ ...saleSchema.parse(saleAsInput(row)), ...sent });
    const updated = await db
      .updateTable('sales')
      .set(saleColumns(sale))
      .where('id', '=', row.id)
      .where('user_id', '=', me.id)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw notFound('Sale not found');
    changed(row.user_id);
    return { ...toSale(updated), can: saleCan(me, updated) };
  });

  implement(app, 'DELETE /sales/:id', async ({ me, params }) => {
    const row = await ownSale(me, params.id);
    await db.deleteFrom('sales').where('id', '=', row.id).where('user_id', '=', me.id).execute();
    changed(row.user_id);
    return { ok: true };
  });
}
