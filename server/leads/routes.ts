import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { notFound, parse } from '../http/errors';
import { checkName, checkSetClosed, checkTimeline, seesKpisOf } from './policy';
import { pathId } from '../http/params';
import { acceptLead, findLead, leadTimeline, listLeads, logContact, myCounts, setClosed, setCustomerName, toLead } from './service';
import { speedReport } from './speed';
import { contactSchema, handOutSchema, leadNameSchema } from '../../domain/schemas';
import { toCsv } from '../../domain/csv';
import { handOutLead } from '../rotation/service';
import { loadRules } from '../rules/service';
import { notifyAssigned } from './notify';
import { leadKpis, skipReasons } from '../../domain/kpis';
import { LEADS_PAGE_SIZE } from '../../domain/leads';

const listQuery = z.strictObject({
  q: z.string().max(200, 'Search is too long (max 200 characters)').optional(),
  open: z.enum(['true', 'false', '1', '0']).optional(),
  unassigned: z.enum(['true', 'false', '1', '0']).optional(),
  waiting: z.enum(['true', 'false', '1', '0']).optional(),
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
      waiting: yes(query.waiting),
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

  const one = async (id: number) => ({ lead: toLead((await findLead(dbh.db, id))!) });
  const actor = (u: { id: string; name: string }) => ({ id: u.id, name: u.name });

  /** The salesman who holds a lead accepts it: it stays his and is never handed on. */
  app.post('/:id/accept', access('user'), async (req) => {
    const id = pathId(req.params, 'Lead not found');
    await acceptLead(dbh.db, id, actor(req.user!));
    bus.publish({ topic: 'leads' });
    return one(id);
  });

  app.post('/:id/contact', access('user'), async (req) => {
    const id = pathId(req.params, 'Lead not found');
    const contact = parse(contactSchema, req.body);
    await logContact(dbh.db, id, actor(req.user!), contact);
    bus.publish({ topic: 'leads' });
    return one(id);
  });

  /** A manager hands a lead waiting in Unassigned (one no one accepted, too) to Next Up, or to a salesman he names and says why. */
  app.post('/:id/handout', access('manager'), async (req) => {
    const id = pathId(req.params, 'Lead not found');
    const { to, reason } = parse(handOutSchema, req.body);
    await handOutLead(dbh, id, actor(req.user!), { rules: await loadRules(dbh.db), to, reason });
    notifyAssigned(ctx, [id]);
    bus.publish({ topic: 'rotation' });
    bus.publish({ topic: 'leads' });
    return one(id);
  });

  /** What happened to a lead; for managers and the salesman who holds it. */
  app.get('/:id/timeline', access('user'), async (req) => {
    const id = pathId(req.params, 'Lead not found');
    const me = req.user!;
    const lead = await findLead(dbh.db, id);
    if (!lead) throw notFound('Lead not found');
    checkTimeline(me, lead);
    return { entries: await leadTimeline(dbh.db, id) };
  });

  /** Every lead with its speed to lead, for a spreadsheet. */
  app.get('/export.csv', access('manager'), async (_req, reply) => {
    const rows = await dbh.db
      .selectFrom('leads')
      .select(['id', 'customer', 'source', 'assigned_to_name', 'assigned_at', 'offered_at', 'accepted_at', 'first_contact_at', 'handoffs', 'closed'])
      .orderBy('assigned_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const time = (t: number | null) => (t === null ? null : new Date(Number(t)).toISOString());
    const secs = (from: number | null, to: number | null) => (from === null || to === null ? null : Math.round((Number(to) - Number(from)) / 1000));
    const csv = toCsv([
      ['Lead', 'Customer', 'Source', 'Salesman', 'Assigned', 'Accepted', 'SecondsToAccept', 'FirstContact', 'SecondsToFirstContact', 'HandedOn', 'Closed'],
      ...rows.map((l) => [
        Number(l.id),
        l.customer,
        l.source,
        l.assigned_to_name,
        time(l.assigned_at),
        time(l.accepted_at),
        secs(l.offered_at, l.accepted_at),
        time(l.first_contact_at),
        secs(l.offered_at, l.first_contact_at),
        l.handoffs,
        l.closed ? 'yes' : 'no',
      ]),
    ]);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="leads.csv"')
      .header('cache-control', 'no-store')
      .send(csv);
  });

  /** The four planned KPIs over the last 30 days: received, closed, close % and skips. */
  app.get('/kpis', access('user'), async (req) => {
    const since = Date.now() - KPI_DAYS * 24 * 60 * 60 * 1000;
    const [leads, skips, team] = await Promise.all([
      dbh.db
        .selectFrom('leads')
        .select([
          'assigned_to',
          sql<number>`sum(case when be_back = 0 then 1 else 0 end)`.as('received'),
          sql<number>`sum(case when be_back = 0 then closed else 0 end)`.as('closed'),
          sql<number>`sum(be_back)`.as('be_backs'),
        ])
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
      beBacks: Number(byId.get(u.id)?.be_backs ?? 0),
    }));
    const { associates, average } = leadKpis(rows);
    const me = req.user!;
    const speed = await speedReport(dbh.db, ctx.config.APP_TIMEZONE);
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
    };
  });
}
