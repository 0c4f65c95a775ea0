export interface AssociateCounts {
  id: string;
  name: string;
  /** Ups: leads the rotation gave him. */
  received: number;
  /**
   * Of those, closed with a sale: sold, by the funnel's rule (domain/funnel.ts), so Close % is the
   * funnel's closing ratio and the team board's Close % over the same leads. A lost lead is no close.
   */
  closed: number;
  skips: number;
  /** Returning customers who asked for him, counted apart from ups. */
  beBacks: number;
}

export interface AssociateKpi extends AssociateCounts {
  /** Sold as a whole percentage of received; null when nothing was received. */
  closePct: number | null;
}

export const closePct = (closed: number, received: number) => (received > 0 ? Math.round((closed / received) * 100) : null);

/** The KPIs per associate, busiest first, and the team's average associate. */
export function leadKpis(rows: AssociateCounts[]): { associates: AssociateKpi[]; average: Omit<AssociateKpi, 'id' | 'name'> } {
  const associates = rows
    .map((r) => ({ ...r, closePct: closePct(r.closed, r.received) }))
    .sort((a, b) => b.received - a.received || a.name.localeCompare(b.name));
  const n = associates.length || 1;
  const sum = (k: 'received' | 'closed' | 'skips' | 'beBacks') => associates.reduce((s, a) => s + a[k], 0);
  const avg = (k: 'received' | 'closed' | 'skips' | 'beBacks') => Math.round((sum(k) / n) * 10) / 10;
  return {
    associates,
    average: {
      received: avg('received'),
      closed: avg('closed'),
      skips: avg('skips'),
      beBacks: avg('beBacks'),
      closePct: closePct(sum('closed'), sum('received')),
    },
  };
}

/** Skips counted per reason, most frequent first; reasons are compared case-insensitively. */
export function skipReasons(skips: { reason: string | null }[]): { reason: string; count: number }[] {
  const counts = new Map<string, { reason: string; count: number }>();
  for (const s of skips) {
    const reason = (s.reason ?? '').trim() || '(no reason)';
    const key = reason.toLowerCase();
    const c = counts.get(key) ?? { reason, count: 0 };
    c.count++;
    counts.set(key, c);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

/** A notice about a lead and when it reached its salesman (server/notices). */
export interface NoticeReach {
  leadId: number;
  assignedAt: number;
  channel: 'push' | 'sms' | 'email';
  sentAt: number | null;
  deliveredAt: number | null;
}

/** When a notice reached him: a text when the provider says it was delivered; a push or mail when the push service or the outbox took it. */
const reachedAt = (n: NoticeReach) => (n.channel === 'sms' ? n.deliveredAt : n.sentAt);

export interface FirstNotice {
  /** Leads with a notice that reached their salesman. */
  count: number;
  /** Milliseconds from the assign to the first notice that reached him; null when none did. */
  medianMs: number | null;
  p90Ms: number | null;
}

/** Time from assign to the first notice delivered, per lead, as its median and 90th percentile (nearest rank). */
export function firstNotice(rows: NoticeReach[]): FirstNotice {
  const first = new Map<number, number>();
  for (const n of rows) {
    const at = reachedAt(n);
    if (at === null) continue;
    const ms = Math.max(0, at - n.assignedAt);
    const seen = first.get(n.leadId);
    if (seen === undefined || ms < seen) first.set(n.leadId, ms);
  }
  const ms = [...first.values()].sort((a, b) => a - b);
  const rank = (p: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.max(0, Math.ceil((p / 100) * ms.length) - 1))] : null);
  return { count: ms.length, medianMs: rank(50), p90Ms: rank(90) };
}

/** "850 ms", "2.4 s", "3 min": how quickly a notice reached him; "—" for nothing. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.round(ms / 100) / 10).toString()} s`;
  const min = Math.round(ms / 60_000);
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}
