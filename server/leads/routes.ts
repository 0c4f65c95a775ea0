import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { notFound, parse } from '../http/errors';
import { checkName, checkSetClosed, seesKpisOf } from './policy';
import { pathId } from '../http/params';
import { findLead, listLeads, myCounts, setClosed, setCustomerName, toLead } from './service';
import { leadNameSchema } from '../../domain/schemas';
import { leadKpis, skipReasons } from '../../domain/kpis';
import { LEADS_PAGE_SIZE } from '../../domain/leads';

const listQuery = z.strictObject({
  q: z.string().max(200, 'Search is too long (max 200 characters)').optional(),
  open: z.enum(['true', 'false', '1', '0']).optional(),
  unassigned: z.enum(['true', 'false', '1', '0']).optional(),
  cursor: z.string().max(60).optional(),
  limit: z.coerce.number().int().min(1).max(LEADS_PAGE_SIZE).optional(),
});
const yes = (v?: string) => v === 'true' || v === '1';
const KPI_DAYS = 30;

export async function leadRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { dbh, bus } = ctx;

  const list = (mine: boolean) => async (req: FastifyRequest) => {
    const query = parse(listQuery, req.query);
    return listLeads(dbh, {
      q: query.q,
      open: yes(query.open),
      assignedTo: mine ? req.user!.id : undefined,
      unassigned: !mine && yes(query.unassigned),
      cursor: query.cursor,
      limit: query.limit,
    });
  };
  /** Every lead, for managers; a salesman's own leads at /mine. */
  app.get('/', access('manager'), list(false));
  app.get('/mine', access('user'), list(true));

  app.get('/mine/counts', access('user'), async (req) => myCounts(dbh.db, req.user!.id, ctx.config.APP_TIMEZONE));

  const change = (closed: boolean) => async (req: FastifyRequest) => {
    const id = pathId(req.params, 'Lead not found');
    const me = req.user!;
    const lead = await findLead(dbh.db, id);
    if (!lead) throw notFound('Lead not found');
    checkSetClosed(me, lead, closed);
    if (await setClosed(dbh.db, id, closed, { id: me.id, name: me.name })) bus.publish({ topic: 'leads' });
    return { lead: toLead((await findLead(dbh.db, id))!) };
  };
  app.post('/:id/close', access('user'), change(true));
  app.post('/:id/reopen', access('user'), change(false));

  /** A lead that came in without a name: its salesman or a manager fills the name in. */
  app.post('/:id/name', access('user'), async (req) => {
    const id = pathId(req.params, 'Lead not found');
    const me = req.user!;
    const lead = await findLead(dbh.db, id);
    if (!lead) throw notFound('Lead not found');
    checkName(me, lead);
    const { customer } = parse(leadNameSchema, req.body);
    await setCustomerName(dbh.db, id, customer);
    bus.publish({ topic: 'leads' });
    return { lead: toLead((await findLead(dbh.db, id))!) };
  });

  /** The four planned KPIs over the last 30 days: received, closed, close % and skips. */
  app.get('/kpis', access('user'), async (req) => {
    const since = Date.now() - KPI_DAYS * 24 * 60 * 60 * 1000;
    const [leads, skips, team] = await Promise.all([
      dbh.db
        .selectFrom('leads')
        .select(['assigned_to', sql<number>`count(*)`.as('received'), sql<number>`sum(closed)`.as('closed')])
        .where('assigned_at', '>=', since)
        .groupBy('assigned_to')
        .execute(),
      dbh.db.selectFrom('rotation_log').select(['target_id', 'reason']).where('type', '=', 'skip').where('created_at', '>=', since).execute(),
      dbh.db.selectFrom('users').select(['id', 'name']).where('role', '=', 'staff').where('deleted_at', 'is', null).execute(),
    ]);
    const byId = new Map(leads.map((l) => [l.assigned_to, l]));
    const rows = team.map((u) => ({
      id: u.id,
      name: u.name,
      received: Number(byId.get(u.id)?.received ?? 0),
      closed: Number(byId.get(u.id)?.closed ?? 0),
      skips: skips.filter((s) => s.target_id === u.id).length,
    }));
    const { associates, average } = leadKpis(rows);
    const me = req.user!;
    return {
      days: KPI_DAYS,
      associates: associates.filter((a) => seesKpisOf(me, a.id)),
      average,
      skipReasons: skipReasons(skips.filter((s) => seesKpisOf(me, s.target_id))),
    };
  });
}
