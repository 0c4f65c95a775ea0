export interface AssociateCounts {
  id: string;
  name: string;
  /** Ups: leads the rotation gave him. */
  received: number;
  /** Of those, closed. */
  closed: number;
  skips: number;
  /** Returning customers who asked for him, counted apart from ups. */
  beBacks: number;
}

export interface AssociateKpi extends AssociateCounts {
  /** Closed as a whole percentage of received; null when nothing was received. */
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
