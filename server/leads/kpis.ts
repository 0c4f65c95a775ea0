import { sql } from 'kysely';
import type { Db } from '../db';
import { staffOf } from '../users/repo';
import { firstNotice, type AssociateCounts, type FirstNotice } from '../../domain/kpis';
import { soldSql } from './funnel';

/** The lead KPIs look back this many days. */
export const KPI_DAYS = 30;

export const kpiSince = (now = Date.now()) => now - KPI_DAYS * 24 * 60 * 60 * 1000;

/** A store's salesmen's counts since `since` (domain/kpis.ts makes the KPIs of them), and the skips with their reasons. */
export async function kpiCounts(
  db: Db,
  store: number,
  since: number,
): Promise<{ rows: AssociateCounts[]; skips: { target_id: string; reason: string | null }[] }> {
  const [leads, skips, team] = await Promise.all([
    db
      .selectFrom('leads as l')
      .select([
        'l.assigned_to',
        sql<number>`sum(case when l.be_back = 0 then 1 else 0 end)`.as('received'),
        sql<number>`sum(case when l.be_back = 0 and ${soldSql()} then 1 else 0 end)`.as('closed'),
        sql<number>`sum(l.be_back)`.as('be_backs'),
      ])
      .where('l.store_id', '=', store)
      .where('l.assigned_at', '>=', since)
      .groupBy('l.assigned_to')
      .execute(),
    db
      .selectFrom('rotation_log')
      .select(['target_id', 'reason'])
      .where('store_id', '=', store)
      .where('type', '=', 'skip')
      .where('created_at', '>=', since)
      .execute(),
    staffOf(db, store).execute(),
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
  return { rows, skips };
}

/** Time from assign to the first notice that reached the salesman, over the store's leads assigned since `since`. */
export async function firstNoticeOf(db: Db, store: number, since: number): Promise<FirstNotice> {
  const rows = await db
    .selectFrom('notices')
    .innerJoin('leads', 'leads.id', 'notices.lead_id')
    .select(['notices.lead_id', 'leads.assigned_at', 'notices.channel', 'notices.sent_at', 'notices.delivered_at'])
    .where('leads.store_id', '=', store)
    .where('leads.assigned_at', '>=', since)
    .where('notices.kind', '=', 'lead')
    .where('notices.state', 'in', ['sent', 'delivered'])
    .execute();
  return firstNotice(
    rows.map((r) => ({
      leadId: Number(r.lead_id),
      assignedAt: Number(r.assigned_at),
      channel: r.channel,
      sentAt: r.sent_at === null ? null : Number(r.sent_at),
      deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
    })),
  );
}
