import type { StoreCtx } from '../context';
import type { Db } from '../db';
import { withRotationLock } from '../db';
import { writeAudit } from '../users/audit';
import { logRotation } from '../rotation/log';
import { mailedManagers } from '../users/repo';
import { addDays, closingDue } from '../../domain/hours';
import { floorReport, reportSubject, reportText, type FloorReport } from '../../domain/report';
import { zonedStartOfDay } from '../../domain/time';
import type { Rules } from '../../domain/rules';
import { storePath } from '../../domain/stores';

const CLOSING = { id: null, name: 'Closing' };
/** A floor report is worth sending for a week; after that the sender gives up. */
const REPORT_MAIL_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A store's floor report for the day in its zone, from what the database holds. */
export async function reportFor(db: Db, store: number, day: string, tz: string): Promise<FloorReport> {
  const from = zonedStartOfDay(day, tz).getTime();
  const to = zonedStartOfDay(addDays(day, 1), tz).getTime();
  const [team, log, events, speed, closed] = await Promise.all([
    db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select(['users.id', 'users.name'])
      .where('memberships.store_id', '=', store)
      .where('role', '=', 'staff')
      .where('disabled', '=', 0)
      .where('deleted_at', 'is', null)
      .execute(),
    db
      .selectFrom('rotation_log')
      .select(['type', 'target_id', 'target_name', 'reason'])
      .where('store_id', '=', store)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .where('type', 'in', ['assign', 'beback', 'skip'])
      .execute(),
    // The day's hand-ons and appointments set, in one read.
    db
      .selectFrom('lead_events')
      .innerJoin('leads', 'leads.id', 'lead_events.lead_id')
      .select(['lead_events.type', 'lead_events.actor_id'])
      .where('leads.store_id', '=', store)
      .where('lead_events.type', 'in', ['handed_on', 'appointment_set'])
      .where('lead_events.created_at', '>=', from)
      .where('lead_events.created_at', '<', to)
      .execute(),
    db
      .selectFrom('leads')
      .select(['assigned_to', 'offered_at', 'accepted_at', 'first_contact_at'])
      .where('store_id', '=', store)
      .where('offered_at', 'is not', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('accepted_at', '>=', from), eb('accepted_at', '<', to)]),
          eb.and([eb('first_contact_at', '>=', from), eb('first_contact_at', '<', to)]),
        ]),
      )
      .execute(),
    db
      .selectFrom('leads')
      .select(['assigned_to', 'stage'])
      .where('store_id', '=', store)
      .where('closed', '=', 1)
      .where('closed_at', '>=', from)
      .where('closed_at', '<', to)
      .execute(),
  ]);
  const n = (v: number | string | null) => (v === null ? null : Number(v));
  return floorReport({
    day,
    from,
    to,
    team,
    log: log.map((e) => ({ type: e.type, targetId: e.target_id, targetName: e.target_name, reason: e.reason })),
    handoffs: events.filter((e) => e.type === 'handed_on').map((h) => ({ missedId: h.actor_id ?? '' })),
    speed: speed.map((l) => ({
      holderId: l.assigned_to,
      offeredAt: Number(l.offered_at),
      acceptedAt: n(l.accepted_at),
      firstContactAt: n(l.first_contact_at),
    })),
    closed: closed.map((c) => ({ holderId: c.assigned_to, sold: c.stage === 'sold' })),
    appointments: events.filter((e) => e.type === 'appointment_set').map((a) => ({ holderId: a.actor_id ?? '' })),
  });
}

/** Queues the report to every manager (in `db`, a transaction or the database); answers how many. */
export async function queueReport(ctx: StoreCtx, db: Db, report: FloorReport): Promise<number> {
  const managers = await mailedManagers(db, ctx.store.id);
  const subject = reportSubject(ctx.config.APP_NAME, ctx.store.name, report.day);
  const body = reportText(report);
  const link = `${ctx.config.PUBLIC_URL}${storePath(ctx.store.code, `/dashboard/stats/leads?day=${report.day}`)}`;
  const expiresAt = Date.now() + REPORT_MAIL_TTL_MS;
  await ctx.outbox.enqueue(
    db,
    managers.map((m) => ({
      kind: 'report' as const,
      mail: { to: m.email, subject, text: `Hi ${m.name},\n\n${body}\n\nOn the portal, printable and as CSV: ${link}` },
      logLine: `floor report for ${report.day} to ${m.email}`,
      expiresAt,
    })),
  );
  return managers.length;
}

/**
 * Hours just set or changed: a closing they make due at once fell before they were set, so it is
 * passed over (marked done without closing or a report). Turning hours on at 8:01 AM must not
 * clock out the salesmen who came in early, nor mail yesterday's report.
 */
export async function passClosingDue(trx: Db, store: number, hours: Rules['businessHours'], now: Date, tz: string) {
  const due = closingDue(hours, now, tz);
  if (due)
    await trx
      .insertInto('floor_days')
      .values({ store_id: store, day: due.day, closed_at: now.getTime() })
      .onConflict((oc) => oc.columns(['store_id', 'day']).doNothing())
      .execute();
}

/**
 * Closes the floor for the day when its closing has come (domain/hours.ts closingDue): in one
 * rotation transaction everyone is taken off duty (but those who clocked in after that closing), snoozes end, "Closed for the day" is logged
 * and the day's report is queued to every manager. The day's row in floor_days makes it happen
 * once, whichever app server gets there first. Answers the day closed, or null.
 */
export async function closeIfDue(ctx: StoreCtx, rules: Rules, now = new Date()): Promise<string | null> {
  const due = closingDue(rules.businessHours, now, ctx.config.APP_TIMEZONE);
  if (!due) return null;
  const { db, store } = ctx.dbh;
  if (await db.selectFrom('floor_days').select('day').where('store_id', '=', store).where('day', '=', due.day).executeTakeFirst()) return null;
  const closed = await withRotationLock(ctx.dbh, async (trx) => {
    const at = now.getTime();
    const mine = await trx
      .insertInto('floor_days')
      .values({ store_id: store, day: due.day, closed_at: at })
      .onConflict((oc) => oc.columns(['store_id', 'day']).doNothing())
      .returning('day')
      .executeTakeFirst();
    if (!mine) return false;
    // A catch-up after downtime: whoever clocked in after that closing came for the next day and stays.
    const cameSince = trx.selectFrom('audit_log').select('user_id').where('action', '=', 'on duty').where('at', '>', due.at.getTime()).where('at', '<=', at);
    const onFloor = await trx
      .selectFrom('memberships')
      .select('user_id')
      .where('store_id', '=', store)
      .where('on_duty', '=', 1)
      .where('user_id', 'not in', cameSince)
      .execute();
    await trx
      .updateTable('memberships')
      .set({ on_duty: 0, snooze_until: null })
      .where('store_id', '=', store)
      .where((eb) => eb.or([eb('on_duty', '=', 1), eb('snooze_until', 'is not', null)]))
      .where('user_id', 'not in', cameSince)
      .execute();
    for (const u of onFloor) await writeAudit(trx, u.user_id, CLOSING, [{ action: 'off duty', changes: { onDuty: { from: true, to: false } } }]);
    const { pointer_pos } = await trx.selectFrom('rotation_state').select('pointer_pos').where('id', '=', store).executeTakeFirstOrThrow();
    await logRotation(trx, { store, type: 'closed', target: { id: '', name: '' }, by: CLOSING, pointer: pointer_pos, at });
    await queueReport(ctx, trx, await reportFor(trx, store, due.day, ctx.config.APP_TIMEZONE));
    return true;
  });
  if (!closed) return null;
  ctx.outbox.wake();
  for (const topic of ['rotation', 'users', 'leads'] as const) ctx.bus.publish({ topic });
  ctx.log.info({ day: due.day, store: ctx.store.code }, 'closed the floor for the day');
  return due.day;
}
