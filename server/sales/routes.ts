import type { FastifyInstance } from 'fastify';
import type { Ctx, StoreCtx } from '../context';
import { storeOfRequest } from '../stores/scope';
import { listUsers, personOf } from '../users/service';
import { access } from '../http/access';
import { ApiError, notFound, parse, unauthorized } from '../http/errors';
import { implement } from '../http/implement';
import { checkChangeSale, checkSeeSales, saleCan, seesSalesmen } from './policy';
import type { UserRow } from '../users/repo';
import { saleSchema } from '../../domain/schemas';
import { salesQuery } from '../../domain/contract/inputs';
import { dayKey } from '../../domain/time';
import { salesCsv } from '../../domain/csv';
import { checkSale, listSales, listSalesIn, saleAsInput, saleColumns, toSale, tracker, type SaleInput } from './service';
import { storesOf } from '../stores/service';
import { planFor } from './payplans';
import { isRecord } from '../../domain/guards';
import type { Store } from '../../domain/stores';

/** ?store=* on the export: every store of the caller's. */
const ALL_MINE = '*';

/** A store's sales: each salesman's tracker there. */
export async function salesRoutes(app: FastifyInstance, { ctx: root }: { ctx: Ctx }) {
  const today = (ctx: StoreCtx) => dayKey(new Date(), ctx.config.APP_TIMEZONE);

  /** Whose tracker: your own, or, for a manager, anyone's of the store (read-only). */
  async function whose(ctx: StoreCtx, me: UserRow, user: string | undefined): Promise<{ owner: UserRow; readOnly: boolean }> {
    const { readOnly } = checkSeeSales(me, user);
    if (!readOnly || !user) return { owner: me, readOnly: false };
    const owner = await personOf(ctx.dbh.db, ctx.store.id, user).catch(() => null);
    if (!owner) throw notFound('No such user');
    return { owner, readOnly: true };
  }

  /** The store's sale, if it is the caller's own; nobody changes another's sale, managers included. */
  async function ownSale(ctx: StoreCtx, me: UserRow, id: number) {
    const row = await ctx.dbh.db.selectFrom('sales').selectAll().where('id', '=', id).where('store_id', '=', ctx.store.id).executeTakeFirst();
    if (!row) throw notFound('Sale not found');
    checkChangeSale(me, row);
    return row;
  }

  const changed = (ctx: StoreCtx, userId: string) => ctx.bus.publish({ topic: 'sales', userId });

  implement(app, 'GET /sales', async ({ me, ctx, query }) => {
    const { db, store } = ctx.dbh;
    const { owner, readOnly } = await whose(ctx, me, query.user);
    const day = today(ctx);
    const can = saleCan(me, { user_id: owner.id });
    const sales = (await listSales(db, store, owner.id)).map((sale) => ({ ...sale, can }));
    const salesmen = seesSalesmen(me) ? (await listUsers(db, store)).map((u) => ({ id: u.id, name: u.name, email: u.email })) : undefined;
    return {
      today: day,
      owner: { id: owner.id, name: owner.name, email: owner.email },
      readOnly,
      sales,
      ...tracker(sales, day),
      salesmen,
    };
  });

  /** His own sales in every store he belongs to (a group manager: every store), each naming its store; read-only, figures summed. */
  async function allMine(me: UserRow) {
    const stores = await storesOf(root.dbh.db, me);
    const code = new Map(stores.map((s) => [s.id, s.code]));
    const sales = (await listSalesIn(root.dbh.db, [...code.keys()], me.id)).map(({ storeId, ...s }) => ({ ...s, store: code.get(storeId) ?? '' }));
    return { stores, sales };
  }
  /** Today on the clock furthest ahead among his stores: no store's sale of its own today is "in the future". */
  const latestToday = (stores: Store[]) =>
    stores.map((s) => dayKey(new Date(), s.timezone)).reduce((a, b) => (a > b ? a : b), dayKey(new Date(), root.config.APP_TIMEZONE));

  implement(app, 'GET /sales/all', async ({ me }) => {
    const { stores, sales } = await allMine(me);
    const day = latestToday(stores);
    const shown = sales.map((s) => ({ ...s, can: { edit: false, delete: false } }));
    return { today: day, owner: { id: me.id, name: me.name, email: me.email }, readOnly: true, sales: shown, ...tracker(shown, day), stores };
  });

  app.get('/sales/export.csv', access('user'), async (req, reply) => {
    if (!req.user) throw unauthorized();
    const query = parse(salesQuery, req.query);
    let sales: Parameters<typeof salesCsv>[0];
    let stores: number;
    if (isRecord(req.query) && req.query.store === ALL_MINE) {
      if (query.user && query.user !== req.user.id) throw new ApiError(400, 'All my stores exports your own sales only.', undefined, 'user');
      const mine = await allMine(req.user);
      sales = mine.sales;
      stores = mine.stores.length;
    } else {
      const ctx = await storeOfRequest(root, req);
      const { owner } = await whose(ctx, req.user, query.user);
      sales = (await listSales(ctx.dbh.db, ctx.store.id, owner.id)).map((s) => ({ ...s, store: ctx.store.code }));
      stores = (await storesOf(ctx.dbh.db, owner)).length;
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="sales_records.csv"')
      .header('cache-control', 'no-store')
      .send(salesCsv(sales, stores > 1));
  });

  /** A sale is paid by the store's plan in force on its date: a sale dated the day of a change, by the new one. */
  const columns = async (ctx: StoreCtx, sale: SaleInput) => saleColumns(sale, await planFor(ctx.dbh.db, ctx.store.id, sale.date));

  implement(app, 'POST /sales', async ({ me, ctx, body }) => {
    await checkSale(ctx.dbh, body, today(ctx));
    const row = await ctx.dbh.db
      .insertInto('sales')
      .values({
        ...(await columns(ctx, body)),
        store_id: ctx.store.id,
        user_id: me.id,
        rep_name: me.name,
        created_at: Date.now(),
        created_by: me.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    changed(ctx, me.id);
    return { ...toSale(row), can: saleCan(me, row) };
  });

  implement(app, 'PATCH /sales/:id', async ({ me, ctx, params, body }) => {
    const row = await ownSale(ctx, me, params.id);
    const sent = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const sale = { ...saleSchema.parse(saleAsInput(row)), ...sent };
    await checkSale(ctx.dbh, sale, today(ctx), body.frontGrossCents !== undefined && body.frontGrossCents !== Number(row.front_gross_cents));
    // A corrected sale is paid again, by the plan in force on its (maybe new) date.
    const set = await columns(ctx, sale);
    const updated = await ctx.dbh.db.updateTable('sales').set(set).where('id', '=', row.id).where('user_id', '=', me.id).returningAll().executeTakeFirst();
    if (!updated) throw notFound('Sale not found');
    changed(ctx, row.user_id);
    return { ...toSale(updated), can: saleCan(me, updated) };
  });

  implement(app, 'DELETE /sales/:id', async ({ me, ctx, params }) => {
    const row = await ownSale(ctx, me, params.id);
    await ctx.dbh.db.deleteFrom('sales').where('id', '=', row.id).where('user_id', '=', me.id).execute();
    changed(ctx, row.user_id);
    return { ok: true };
  });
}
