import type { FastifyInstance } from 'fastify';
import type { Ctx, StoreCtx } from '../context';
import { access } from '../http/access';
import { ApiError, parse } from '../http/errors';
import { implement } from '../http/implement';
import { dayQuery } from '../../domain/contract/inputs';
import { hit } from '../http/limits';
import { reportDaySchemaOn } from '../../domain/schemas';
import { reportCsv } from '../../domain/report';
import { dayKey } from '../../domain/time';
import { storeOfRequest } from '../stores/scope';
import { queueReport, reportFor } from './service';

const SENDS_PER_MINUTE = 10;

/** ?day=YYYY-MM-DD, today when absent, and not after today on the store's clock. */
function dayOf(ctx: StoreCtx, day: string | undefined) {
  const today = dayKey(new Date(), ctx.config.APP_TIMEZONE);
  return parse(reportDaySchemaOn(today), { day: day ?? today }).day;
}

const report = (ctx: StoreCtx, day: string) => reportFor(ctx.dbh.db, ctx.store.id, day, ctx.config.APP_TIMEZONE);

/** A store's floor report: any day's, for managers, on the screen, as CSV, or mailed to its managers. */
export async function floorRoutes(app: FastifyInstance, { ctx: root }: { ctx: Ctx }) {
  implement(app, 'GET /floor/report', async ({ ctx, query }) => {
    const day = dayOf(ctx, query.day);
    const [shown, closed] = await Promise.all([
      report(ctx, day),
      ctx.dbh.db.selectFrom('floor_days').select('closed_at').where('store_id', '=', ctx.store.id).where('day', '=', day).executeTakeFirst(),
    ]);
    return { report: shown, closedAt: closed ? new Date(Number(closed.closed_at)).toISOString() : null };
  });

  app.get('/floor/report.csv', access('manager'), async (req, reply) => {
    const ctx = await storeOfRequest(root, req);
    const day = dayOf(ctx, parse(dayQuery, req.query).day);
    const csv = reportCsv(await report(ctx, day), ctx.store.code);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="floor-report-${ctx.store.code}-${day}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  implement(app, 'POST /floor/report/send', async ({ me, ctx, body }) => {
    const day = dayOf(ctx, body.day);
    // A report is a mail to every manager: a few a minute is plenty, a stuck key or a script is not.
    if ((await hit(ctx.dbh.db, `floor-report:${me.id}`, 60_000)).hits > SENDS_PER_MINUTE) {
      throw new ApiError(429, 'The floor report was just sent several times. Wait a minute before sending it again.');
    }
    const sent = await queueReport(ctx, ctx.dbh.db, await report(ctx, day));
    ctx.outbox.wake();
    return { day, sent };
  });
}
