import type { Ctx } from '../context';

const line = (label: string, v: string | null) => (v ? [`${label}: ${v}`] : []);

const formats = new Map<string, Intl.DateTimeFormat>();
/** Building a formatter costs more than the rest of the mail; one per time zone is kept. */
function dueFormat(tz: string) {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    formats.set(tz, f);
  }
  return f;
}

/**
 * Tells each salesman about the lead they just got. Runs after the assign committed; a mail
 * that fails is logged and never undoes or fails the assign.
 */
export async function mailAssigned(ctx: Ctx, leadIds: number[]) {
  if (!leadIds.length) return;
  const rows = await ctx.dbh.db
    .selectFrom('leads')
    .innerJoin('users', 'users.id', 'leads.assigned_to')
    .select(['leads.id', 'leads.customer', 'leads.phone', 'leads.email', 'leads.vehicle', 'leads.vin', 'leads.comments', 'leads.source'])
    .select(['leads.follow_up_due', 'users.email as to', 'users.name as rep'])
    .where('leads.id', 'in', leadIds)
    .execute();
  const due = dueFormat(ctx.config.APP_TIMEZONE);
  await Promise.all(
    rows.map(async (l) => {
      const text = [
        `Hi ${l.rep},`,
        '',
        `A new lead is yours: ${l.customer}`,
        '',
        ...line('Phone', l.phone),
        ...line('E-mail', l.email),
        ...line('Vehicle', [l.vehicle, l.vin && `VIN ${l.vin}`].filter(Boolean).join(', ')),
        ...line('Source', l.source),
        ...line('Comments', l.comments),
        `Follow up by: ${due.format(new Date(Number(l.follow_up_due)))}`,
        '',
        `Your leads: ${ctx.config.PUBLIC_URL}/dashboard/associates`,
      ].join('\n');
      try {
        await ctx.mailer.send({ to: l.to, subject: `New lead: ${l.customer}`, text }, `lead ${l.id} (${l.customer}) assigned to ${l.to}`);
      } catch (err) {
        ctx.log.error({ err, lead: Number(l.id) }, 'could not mail the salesman about a new lead');
      }
    }),
  );
}

/** Fire and forget: the answer to the request does not wait for the mail. */
export const notifyAssigned = (ctx: Ctx, leadIds: number[]) => {
  mailAssigned(ctx, leadIds).catch((err) => ctx.log.error({ err }, 'could not mail about new leads'));
};
