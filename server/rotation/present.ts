import type { RotationView } from '../../domain/contract/answers';

/** Who reads the rotation. */
export interface Reader {
  id: string;
  role: string;
}

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
