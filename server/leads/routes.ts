import type { FastifyInstance } from 'fastify';
import type { Ctx, StoreCtx } from '../context';
import { storeOfRequest } from '../stores/scope';
import { access } from '../http/access';
import { ApiError, notFound } from '../http/errors';
import { implement } from '../http/implement';
import type { Query } from '../../domain/contract/routes';
import { checkName, checkTimeline, seesKpisOf, stageOfLead } from './policy';
import { live, type Detail } from './life';
import { presentLead } from './present';
import type { UserRow } from '../users/repo';
import { acceptLead, findLead, leadTimeline, listLeads, myCounts, setCustomerName, type LeadRow } from './service';
import { speedReport } from './speed';
import { toCsv } from '../../domain/csv';
import { addDays, atClock } from '../../domain/hours';
import { localTimeOf, pickedTimeError, STAGE_LABELS } from '../../domain/stages';
import { dayKey, zonedStartOfDay } from '../../domain/time';
import { checkSale, toSale } from '../sales/service';
import { saleCan } from '../sales/policy';
import { handOutLead } from '../rotation/service';
import { loadRules } from '../rules/service';
import { pickLostReasonText, storeLostReason } from '../../domain/rules';
import { noticeAssigned } from '../notices/triggers';
import { leadKpis, skipReasons } from '../../domain/kpis';
import { firstNoticeOf, KPI_DAYS, kpiCounts, kpiSince } from './kpis';
import { funnelRoutes } from './funnel';

export async function leadRoutes(app: FastifyInstance, { ctx: root }: { ctx: Ctx }) {
  const actor = (u: { id: string; name: string }) => ({ id: u.id, name: u.name });

  /** The store's lead, or the 404 every lead route answers (a lead of another store too); `check` refuses whom its policy refuses. */
  async function leadFor(ctx: StoreCtx, id: number, check: (lead: LeadRow) => void = () => {}) {
    const lead = await findLead(ctx.dbh.db, ctx.store.id, id);
    if (!lead) throw notFound('Lead not found');
    check(lead);
    return lead;
  }
  const one = async (ctx: StoreCtx, id: number, me: UserRow) => ({ lead: presentLead(await leadFor(ctx, id), me, ctx.config.APP_TIMEZONE) });

  /** Every lead of the store, for managers; a salesman's own leads there at /mine. */
  async function list(ctx: StoreCtx, me: UserRow, query: Query<'GET /leads'>, assignedTo?: string) {
    const { leads, nextCursor } = await listLeads(ctx.dbh, { ...query, assignedTo, unassigned: !assignedTo && query.unassigned });
    const now = Date.now();
    return { leads: leads.map((l) => presentLead(l, me, ctx.config.APP_TIMEZONE, now)), nextCursor };
  }
  implement(app, 'GET /leads', async ({ me, ctx, query }) => list(ctx, me, query));
  implement(app, 'GET /leads/mine', async ({ me, ctx, query }) => list(ctx, me, query, me.id));

  /** Today's appointments on the store's clock: a salesman's own, a manager's every one. */
  implement(app, 'GET /leads/appointments', async ({ me, ctx }) => {
    const tz = ctx.config.APP_TIMEZONE;
    const now = new Date();
    const from = zonedStartOfDay(dayKey(now, tz), tz).getTime();
    const to = zonedStartOfDay(addDays(dayKey(now, tz), 1), tz).getTime();
    const rows = await ctx.dbh.db
      .selectFrom('leads')
      .selectAll()
      .where('store_id', '=', ctx.store.id)
      .where('stage', '=', 'appointment')
      .where('appointment_at', '>=', from)
      .where('appointment_at', '<', to)
      .$if(me.role !== 'manager', (q) => q.where('assigned_to', '=', me.id))
      .orderBy('appointment_at')
      .limit(200)
      .execute();
    return { leads: rows.map((l) => presentLead(l, me, tz, now.getTime())) };
  });

  implement(app, 'GET /leads/mine/counts', async ({ me, ctx }) => myCounts(ctx.dbh.db, ctx.store.id, me.id, ctx.config.APP_TIMEZONE));

  /** One step of the lead's life (server/leads/life.ts), on the store's rules and clock; every screen hears of it. */
  async function step(ctx: StoreCtx, me: UserRow, id: number, d: Detail) {
    const out = await live(ctx.dbh, id, me, d, await loadRules(ctx.dbh.db, ctx.store.id));
    ctx.bus.publish({ topic: 'leads' });
    return out;
  }
  /** A time picked on the store's clock, checked against now. */
  const picked = (ctx: StoreCtx, label: string, value: string, field: string) => {
    const at = atClock(value.slice(0, 10), value.slice(11), ctx.config.APP_TIMEZONE);
    const error = pickedTimeError(label, at, new Date());
    if (error) throw new ApiError(400, error, undefined, field);
    return at;
  };

  implement(app, 'POST /leads/:id/lost', async ({ me, ctx, params, body }) => {
    const reasons = (await loadRules(ctx.dbh.db, ctx.store.id)).lostReasons;
    const reason = storeLostReason(reasons, body.reason);
    if (!reason) throw new ApiError(400, pickLostReasonText(reasons), undefined, 'reason');
    await step(ctx, me, params.id, { move: 'lose', ...body, reason });
    return one(ctx, params.id, me);
  });

  implement(app, 'POST /leads/:id/reopen', async ({ me, ctx, params }) => {
    await step(ctx, me, params.id, { move: 'reopen' });
    return one(ctx, params.id, me);
  });

  /** Sold: the sale is stored with its lead, and is the salesman's own (his tracker hears of it). */
  implement(app, 'POST /leads/:id/sold', async ({ me, ctx, params, body: { actionId, ...sale } }) => {
    await checkSale(ctx.dbh, sale, dayKey(new Date(), ctx.config.APP_TIMEZONE));
    const { saleId } = await step(ctx, me, params.id, { move: 'sell', sale, actionId });
    ctx.bus.publish({ topic: 'sales', userId: me.id });
    const row = await ctx.dbh.db.selectFrom('sales').selectAll().where('id', '=', Number(saleId)).executeTakeFirstOrThrow();
    return { ...(await one(ctx, params.id, me)), sale: { ...toSale(row), can: saleCan(me, row) } };
  });

  implement(app, 'POST /leads/:id/appointment', async ({ me, ctx, params, body }) => {
    await step(ctx, me, params.id, { move: 'appoint', at: picked(ctx, 'Appointment', body.at, 'at') });
    return one(ctx, params.id, me);
  });

  /** The customer came to the appointment, or did not (the lead goes back to Contacted). */
  implement(app, 'POST /leads/:id/shown', async ({ me, ctx, params, body }) => {
    await step(ctx, me, params.id, { move: body.shown ? 'show' : 'noShow' });
    return one(ctx, params.id, me);
  });

  /** A lead that came in without a name: its salesman or a manager fills the name in. */
  implement(app, 'POST /leads/:id/name', async ({ me, ctx, params, body }) => {
    await leadFor(ctx, params.id, (lead) => checkName(me, lead));
    await setCustomerName(ctx.dbh.db, params.id, body.customer);
    ctx.bus.publish({ topic: 'leads' });
    return one(ctx, params.id, me);
  });

  /** The salesman who holds a lead accepts it: it stays his and is never handed on. */
  implement(app, 'POST /leads/:id/accept', async ({ me, ctx, params }) => {
    await leadFor(ctx, params.id);
    await acceptLead(ctx.dbh.db, params.id, actor(me));
    ctx.bus.publish({ topic: 'leads' });
    return one(ctx, params.id, me);
  });

  /** A logged contact clears Overdue: the next follow-up is the time he picked, else the rule's hours from now. */
  implement(app, 'POST /leads/:id/contact', async ({ me, ctx, params, body: { nextFollowUp, ...contact } }) => {
    const next = nextFollowUp === undefined ? undefined : picked(ctx, 'Next follow-up', nextFollowUp, 'nextFollowUp');
    await step(ctx, me, params.id, { move: 'contact', ...contact, nextFollowUp: next });
    return one(ctx, params.id, me);
  });

  /** A manager hands a lead waiting in Unassigned (one no one accepted, too) to Next Up, or to a salesman he names and says why. */
  implement(app, 'POST /leads/:id/handout', async ({ me, ctx, params, body: { to, reason } }) => {
    const rules = await loadRules(ctx.dbh.db, ctx.store.id);
    const given = await handOutLead(ctx.dbh, params.id, actor(me), { rules, to, reason });
    if (given.assignedTo) noticeAssigned(ctx, [{ leadId: params.id, userId: given.assignedTo.id, mail: params.id }], { rules, now: new Date() });
    ctx.bus.publish({ topic: 'rotation' });
    ctx.bus.publish({ topic: 'leads' });
    return one(ctx, params.id, me);
  });

  /** What happened to a lead; for managers and the salesman who holds it. */
  implement(app, 'GET /leads/:id/timeline', async ({ me, ctx, params }) => {
    await leadFor(ctx, params.id, (lead) => checkTimeline(me, lead));
    return { entries: await leadTimeline(ctx.dbh.db, params.id, ctx.config.APP_TIMEZONE) };
  });

  /** Every lead of the store with its stage and speed to lead, for a spreadsheet; times on the store's clock. */
  app.get('/leads/export.csv', access('manager'), async (req, reply) => {
    const ctx = await storeOfRequest(root, req);
    const rows = await ctx.dbh.db
      .selectFrom('leads')
      .selectAll()
      .where('store_id', '=', ctx.store.id)
      .orderBy('assigned_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const time = (t: number | null) => (t === null ? null : localTimeOf(new Date(Number(t)), ctx.store.timezone).replace('T', ' '));
    const secs = (from: number | null, to: number | null) => (from === null || to === null ? null : Math.round((Number(to) - Number(from)) / 1000));
    const csv = toCsv([
      [
        'Lead',
        'Store',
        'Customer',
        'Source',
        'Salesman',
        'Assigned',
        'Accepted',
        'SecondsToAccept',
        'FirstContact',
        'SecondsToFirstContact',
        'HandedOn',
        'Stage',
        'LostReason',
        'Closed',
      ],
      ...rows.map((l) => [
        Number(l.id),
        ctx.store.code,
        l.customer,
        l.source,
        l.assigned_to_name,
        time(l.assigned_at),
        time(l.accepted_at),
        secs(l.offered_at, l.accepted_at),
        time(l.first_contact_at),
        secs(l.offered_at, l.first_contact_at),
        l.handoffs,
        STAGE_LABELS[stageOfLead(l)],
        l.lost_reason,
        l.closed ? 'yes' : 'no',
      ]),
    ]);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="leads-${ctx.store.code}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  /** The four planned KPIs over the last 30 days: received, closed, close % and skips. */
  funnelRoutes(app, root);

  implement(app, 'GET /leads/kpis', async ({ me, ctx }) => {
    const { db, store } = ctx.dbh;
    const since = kpiSince();
    const [{ rows, skips }, speed, notices] = await Promise.all([
      kpiCounts(db, store, since),
      speedReport(db, store, ctx.config.APP_TIMEZONE),
      firstNoticeOf(db, store, since),
    ]);
    const { associates, average } = leadKpis(rows);
    const own = <T extends { id: string }>(rows: T[]) => rows.filter((r) => seesKpisOf(me, r.id));
    return {
      days: KPI_DAYS,
      associates: own(associates),
      average,
      skipReasons: skipReasons(skips.filter((s) => seesKpisOf(me, s.target_id))),
      speed: {
        today: { ...speed.today, associates: own(speed.today.associates) },
        month: { ...speed.month, associates: own(speed.month.associates) },
      },
      firstNotice: notices,
    };
  });
}
