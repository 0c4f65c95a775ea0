import type { Sale } from '../../domain/contract/answers';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { saleAmountQuestion, saleDateError, type saleSchema } from '../../domain/schemas';
import { CHECK_AMOUNT } from '../../domain/errors';
import type { Db, StoreDb } from '../db';
import { ApiError } from '../http/errors';
import { loadRules } from '../rules/service';
import type { SalesTable } from '../db/schema';
import { commissionFor, planLabel, type Plan } from '../../domain/commission';
import type { PayPlan } from '../../domain/payplan';
import { dailyCommission, monthlyGross, salesFigures } from '../../domain/figures';

type SaleRow = Selectable<SalesTable>;
export type SaleInput = z.output<typeof saleSchema>;

const planOf = (r: SaleRow): Plan => ({ type: r.plan_type, percent: r.plan_percent, flat: r.plan_flat, split: Number(r.plan_split) });

/** The sale as the API shows it. */
export function toSale(r: SaleRow): Omit<Sale, 'can'> {
  const plan = planOf(r);
  return {
    id: Number(r.id),
    date: r.date,
    vehicleType: r.vehicle_type,
    frontGrossCents: r.front_gross_cents,
    split: plan.split === 1 ? 'full' : 'half',
    plan,
    planLabel: planLabel(plan),
    commissionCents: r.commission_cents,
    repName: r.rep_name,
    customer: r.customer,
    leadId: r.lead_id === null ? null : Number(r.lead_id),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/**
 * The columns a sale's input decides under `payPlan`, the store's plan in force on the sale's date
 * (server/sales/payplans.ts planFor); the commission is always ours, never the client's. The sale
 * keeps them: a later plan never rewrites them, only a correction of the sale itself does.
 */
export function saleColumns(v: SaleInput, payPlan: PayPlan) {
  const { commissionCents, plan } = commissionFor(v.frontGrossCents, v.split, payPlan);
  return {
    date: v.date,
    vehicle_type: v.vehicleType,
    front_gross_cents: v.frontGrossCents,
    plan_type: plan.type,
    plan_percent: plan.percent,
    plan_flat: plan.flat,
    plan_split: plan.split,
    commission_cents: commissionCents,
    customer: v.customer || null,
  };
}

/** A person's sales in a store, newest date first; among one day, the latest entered first. */
export async function listSales(db: Db, store: number, userId: string): Promise<Omit<Sale, 'can'>[]> {
  return (await listSalesIn(db, [store], userId)).map(({ storeId: _s, ...sale }) => sale);
}

export function tracker(sales: Sale[], today: string) {
  const rows = sales.map((s) => ({ date: s.date, frontGrossCents: s.frontGrossCents, commissionCents: s.commissionCents }));
  return {
    figures: salesFigures(rows, today),
    daily: dailyCommission(rows, today),
    monthly: monthlyGross(rows, today),
  };
}

/** Input as a client would send it, from a stored sale: the base a partial edit is laid over. */
export function saleAsInput(r: SaleRow) {
  const abs = Math.abs(r.front_gross_cents);
  return {
    date: r.date,
    vehicleType: r.vehicle_type,
    frontGross: `${r.front_gross_cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`,
    split: Number(r.plan_split) === 1 ? 'full' : 'half',
    customer: r.customer ?? undefined,
  };
}

/** A person's sales in several stores (his "All my stores"), each with its store's id; in listSales' order. */
export async function listSalesIn(db: Db, stores: number[], userId: string): Promise<(Omit<Sale, 'can'> & { storeId: number })[]> {
  if (!stores.length) return [];
  const rows = await db
    .selectFrom('sales')
    .selectAll()
    .where('store_id', 'in', stores)
    .where('user_id', '=', userId)
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ ...toSale(r), storeId: Number(r.store_id) }));
}

/** A store's sales of the month `today` is in (up to today), each with the salesman's id and current name. */
export async function monthSales(db: Db, store: number, today: string) {
  const rows = await db
    .selectFrom('sales')
    .leftJoin('users', 'users.id', 'sales.user_id')
    .select(['sales.user_id', 'sales.rep_name', 'users.name', 'sales.date', 'sales.front_gross_cents', 'sales.commission_cents'])
    .where('sales.store_id', '=', store)
    .where('sales.date', '>=', `${today.slice(0, 8)}01`)
    .where('sales.date', '<=', today)
    .execute();
  return rows.map((r) => ({
    userId: r.user_id,
    name: r.name ?? r.rep_name,
    date: r.date,
    frontGrossCents: Number(r.front_gross_cents),
    commissionCents: Number(r.commission_cents),
  }));
}

/**
 * What every way a sale is saved checks beyond its schema, on the store's clock and rules: a date
 * no later than today, and the store's question about a large front gross (asked only when the
 * amount is being set, and answered by `sure`). Throws the refusal, under its field.
 */
export async function checkSale(h: StoreDb, sale: Pick<SaleInput, 'date' | 'frontGrossCents' | 'sure'>, today: string, amountSet = true): Promise<void> {
  const error = saleDateError(sale.date, today);
  if (error) throw new ApiError(400, error, undefined, 'date');
  if (!amountSet || sale.sure) return;
  const question = saleAmountQuestion(sale.frontGrossCents, (await loadRules(h.db, h.store)).saleCheckAbove);
  if (question) throw new ApiError(422, question, CHECK_AMOUNT, 'frontGross');
}
