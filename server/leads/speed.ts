import type { Db } from '../db';
import { staffOf } from '../users/repo';
import { speedFigures } from '../../domain/speed';
import { dayKey, startOfMonth, zonedStartOfDay } from '../../domain/time';
import type { Speed } from '../../domain/contract/answers';

/** A store's speed to lead today and month to date in its time zone. */
export async function speedReport(db: Db, store: number, tz: string, now = new Date()): Promise<Speed> {
  const today = zonedStartOfDay(dayKey(now, tz), tz).getTime();
  const month = startOfMonth(now, tz).getTime();
  const [leads, passed, team] = await Promise.all([
    db
      .selectFrom('leads')
      .select(['assigned_to', 'offered_at', 'accepted_at', 'first_contact_at'])
      .where('store_id', '=', store)
      .where('offered_at', 'is not', null)
      .where((eb) => eb.or([eb('accepted_at', '>=', month), eb('first_contact_at', '>=', month)]))
      .execute(),
    db
      .selectFrom('lead_events')
      .innerJoin('leads', 'leads.id', 'lead_events.lead_id')
      .select(['lead_events.actor_id', 'lead_events.created_at'])
      .where('leads.store_id', '=', store)
      .where('type', '=', 'handed_on')
      .where('created_at', '>=', month)
      .execute(),
    staffOf(db, store).orderBy('name').execute(),
  ]);
  const rows = leads.map((l) => ({
    holderId: l.assigned_to,
    offeredAt: Number(l.offered_at),
    acceptedAt: l.accepted_at === null ? null : Number(l.accepted_at),
    firstContactAt: l.first_contact_at === null ? null : Number(l.first_contact_at),
  }));
  const handoffs = passed.map((p) => ({ missedId: p.actor_id ?? '', at: Number(p.created_at) }));
  return { today: speedFigures(rows, handoffs, team, today), month: speedFigures(rows, handoffs, team, month) };
}
