import type { RotationView } from '../../domain/contract/answers';
import { holds } from '../../domain/conditions';
import { lineOf, outOfLine, PENDING_ACCEPT, whyNotInLine } from '../../domain/rotation';
import type { StoreDb } from '../db';
import { leadFacts } from './sql';
import { rotationRows, type RotationRows } from './queries';

/** Who reads the rotation. */
export interface Reader {
  id: string;
  role: string;
}

/**
 * What the overview and routing screens show: the queue from Next Up on, the team (the line,
 * then those not in line), the leads waiting for an Accept, the recent log. This is everything,
 * as a manager sees it; presentRotation shapes it for each reader.
 */
function viewOf({ state, team, log, pending, pastDue: dueRows }: RotationRows, now: Date): RotationView {
  // The hold-out rule: who has which past-due follow-ups.
  const pastDue = new Map<string, { id: number; customer: string }[]>();
  for (const r of dueRows) pastDue.set(r.assigned_to, [...(pastDue.get(r.assigned_to) ?? []), { id: Number(r.id), customer: r.customer }]);
  const members = team.map((m) => ({ ...m, pastDue: pastDue.get(m.id)?.length ?? 0 }));
  const queue = lineOf(members, state.pointer_pos, now);
  const snoozes = members.map((m) => m.snoozeUntil?.getTime() ?? 0).filter((t) => t > now.getTime());
  // One reading of a place in line everywhere: counted from Next Up (#1), as the overview shows it.
  const place = new Map(queue.map((m, i) => [m.id, i + 1]));
  return {
    pointerPos: state.pointer_pos,
    nextUp: queue[0] ? { id: queue[0].id, name: queue[0].name } : null,
    queue: queue.map((m, i) => ({ id: m.id, name: m.name, place: i + 1, active: m.active, onDuty: m.onDuty })),
    team: [...queue, ...outOfLine(members, state.pointer_pos, now)].map((m) => ({
      id: m.id,
      name: m.name,
      active: m.active,
      onDuty: m.onDuty,
      snoozeUntil: m.snoozeUntil && m.snoozeUntil > now ? m.snoozeUntil.toISOString() : null,
      eligible: place.has(m.id),
      place: place.get(m.id) ?? null,
      notInLine: whyNotInLine(m, now),
      pastDueCount: m.pastDue ?? 0,
      pastDue: pastDue.get(m.id) ?? [],
      weight: m.weight ?? 1,
      dailyCap: m.dailyCap ?? null,
      openCap: m.openCap ?? null,
    })),
    pending: pending
      .filter((l) => holds(PENDING_ACCEPT, leadFacts(l), now))
      .sort((a, b) => Number(a.accept_due) - Number(b.accept_due) || Number(a.id) - Number(b.id))
      .map((l) => ({
        leadId: Number(l.id),
        customer: l.customer,
        salesman: { id: l.assigned_to, name: l.assigned_to_name },
        acceptDue: new Date(Number(l.accept_due)).toISOString(),
      })),
    log: log.map((e) => ({
      id: Number(e.id),
      type: e.type,
      customer: e.customer,
      targetId: e.target_id,
      targetName: e.target_name,
      reason: e.reason,
      managerName: e.manager_name,
      pointerPosAfter: e.pointer_pos_after,
      createdAt: new Date(e.created_at).toISOString(),
      noCustomer: e.no_customer_at !== null,
    })),
    /** When a snooze ends and the queue changes by itself; screens refresh then. */
    nextChangeAt: snoozes.length ? new Date(Math.min(...snoozes)).toISOString() : null,
  };
}

/** The rotation as a manager sees it: its rows (queries.ts) read now, shaped into the answer. */
export const rotationView = async (h: StoreDb, logSize: number, now = new Date()) => viewOf(await rotationRows(h.db, h.store, logSize, now, h.tz), now);

/**
 * The rotation as one reader may see it, shaped here and nowhere else. A manager sees everything.
 * A salesman sees everyone's place, counts and reasons (why someone is not in line, how many
 * past-due follow-ups hold him out), but another salesman's leads (their ids, their customers)
 * only as that count: his own past-due follow-ups and his own leads waiting for an Accept, no one
 * else's.
 */
export function presentRotation(view: RotationView, reader: Reader): RotationView {
  if (reader.role === 'manager') return view;
  return {
    ...view,
    team: view.team.map((m) => (m.id === reader.id ? m : { ...m, pastDue: [] })),
    pending: view.pending.filter((p) => p.salesman.id === reader.id),
  };
}
