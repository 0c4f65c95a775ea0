import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { access } from '../http/access';
import { ApiError, parse } from '../http/errors';
import { implement } from '../http/implement';
import { dayQuery } from '../../domain/contract/inputs';
import { hit } from '../http/limits';
import { reportDaySchemaOn } from '../../domain/schemas';
import { reportCsv } from '../../domain/report';
import { dayKey } from '../../domain/time';
import { queueReport, reportFor } from './service';

const SENDS_PER_MINUTE = 10;

/** The floor report: any day's, for managers, on the screen, as CSV, or mailed to every manager. */
export async function floorRoutes(app: FastifyInstance, { ctx }: { ctx: Ctx }) {
  const { dbh, config } = ctx;
  const today = () => dayKey(new Date(), config.APP_TIMEZONE);
  /** ?day=YYYY-MM-DD, today when absent, and not after today on the dealership's clock. */
  const dayOf = (day: string | undefined) => parse(reportDaySchemaOn(today()), { day: day ?? today() }).day;

  implement(app, 'GET /floor/report', async ({ query }) => {
    const day = dayOf(query.day);
    const [report, closed] = await Promise.all([
      reportFor(dbh.db, day, config.APP_TIMEZONE),
      dbh.db.selectFrom('floor_days').select('closed_at').where('day', '=', day).executeTakeFirst(),
    ]);
    return { report, closedAt: closed ? new Date(Number(closed.closed_at)).toISOString() : null };
  });

  app.get('/floor/report.csv', access('manager'), async (req, reply) => {
    const day = dayOf(parse(dayQuery, req.query).day);
    const csv = reportCsv(await reportFor(dbh.db, day, config.APP_TIMEZONE));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="floor-report-${day}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  implement(app, 'POST /floor/report/send', async ({ me, body }) => {
    const day = dayOf(body.day);
    // A report is a mail to every manager: a few a minute is plenty, a stuck key or a script is not.
    if ((await hit(dbh.db, `floor-report:${me.id}`, 60_000)).hits > SENDS_PER_MINUTE) {
      throw new ApiError(429, 'The floor report was just sent several times. Wait a minute before sending it again.');
    }
    const sent = await queueReport(ctx, dbh.db, await reportFor(dbh.db, day, config.APP_TIMEZONE));
    ctx.outbox.wake();
    return { day, sent };
  });
}
