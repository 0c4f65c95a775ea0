import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import type { StoreCtx } from '../context';
import type { UserRow } from '../users/repo';
import { implement, mayCall } from '../http/implement';
import { ApiError } from '../http/errors';
import { dayKey } from '../../domain/time';
import { DEFAULT_PAY_PLAN, currentOf, effectiveFromError, planOn, type DatedPlan, type PayPlan } from '../../domain/payplan';
import { payPlanSchema } from '../../domain/payplan-schema';

/** How many of a store's plans the answer lists (newest date first); every one still pays its sales. */
const LISTED = 20;

interface StoredPlan extends DatedPlan {
  id: number;
  createdByName: string;
  createdAt: number;
}

/** A stored plan that no longer reads (it never should) pays as the default rather than failing a sale. */
function readPlan(text: string): PayPlan {
  try {
    const r = payPlanSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : DEFAULT_PAY_PLAN;
  } catch {
    return DEFAULT_PAY_PLAN;
  }
}

/** Every plan of a store, in the order they were made (planOn's order). */
async function storePlans(db: Db, store: number): Promise<StoredPlan[]> {
  const rows = await db.selectFrom('pay_plans').selectAll().where('store_id', '=', store).orderBy('id').execute();
  return rows.map((r) => ({
    id: Number(r.id),
    effectiveFrom: r.effective_from,
    plan: readPlan(r.plan),
    createdByName: r.created_by_name,
    createdAt: Number(r.created_at),
  }));
}

/** The plan that pays a sale of the store dated `day`. */
export const planFor = async (db: Db, store: number, day: string): Promise<PayPlan> => planOn(await storePlans(db, store), day);

async function addPlan(db: Db, store: number, dated: DatedPlan, by: { id: string; name: string }, now = Date.now()) {
  await db
    .insertInto('pay_plans')
    .values({
      store_id: store,
      effective_from: dated.effectiveFrom,
      plan: JSON.stringify(dated.plan),
      created_by: by.id,
      created_by_name: by.name,
      created_at: now,
    })
    .execute();
}

/**
 * A store's pay plans: everyone there reads them (a salesman sees what pays him); managers add
 * one from today or a later day. A plan never changes a sale already saved: a sale keeps the
 * commission and tier it was saved with; a sale saved or corrected later is paid by the plan in
 * force on its date (server/sales/routes.ts).
 */
export async function payPlanRoutes(app: FastifyInstance) {
  const today = (ctx: StoreCtx) => dayKey(new Date(), ctx.config.APP_TIMEZONE);

  const answer = async (ctx: StoreCtx, me: UserRow) => {
    const day = today(ctx);
    const plans = await storePlans(ctx.dbh.db, ctx.store.id);
    const current = currentOf(plans, day);
    // Of two plans for one day, the later made is the one that pays: list only that one.
    const latestOfDay = new Map(plans.map((p) => [p.effectiveFrom, p]));
    const listed = [...latestOfDay.values()].sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? 1 : -1)).slice(0, LISTED);
    return {
      today: day,
      current: { effectiveFrom: current?.effectiveFrom ?? null, plan: current?.plan ?? DEFAULT_PAY_PLAN },
      plans: listed.map((p) => ({
        id: p.id,
        effectiveFrom: p.effectiveFrom,
        plan: p.plan,
        createdByName: p.createdByName,
        createdAt: new Date(p.createdAt).toISOString(),
        state: p === current ? ('current' as const) : p.effectiveFrom > day ? ('upcoming' as const) : ('past' as const),
      })),
      can: { change: mayCall('POST /payplans', me) },
    };
  };

  implement(app, 'GET /payplans', async ({ me, ctx }) => answer(ctx, me));

  implement(app, 'POST /payplans', async ({ me, ctx, body }) => {
    const error = effectiveFromError(body.effectiveFrom, today(ctx));
    if (error) throw new ApiError(400, error, undefined, 'effectiveFrom');
    await addPlan(ctx.dbh.db, ctx.store.id, body, { id: me.id, name: me.name });
    // A pay plan is one of the store's rules: screens showing either refetch.
    ctx.bus.publish({ topic: 'rules' });
    return answer(ctx, me);
  });
}
