import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './client';

export type { LogEntry, RotationView } from '../../domain/contract/answers';

/** The queue with the last `logSize` actions, as every screen asks for it. */
export const rotationQuery = (logSize: number) => ({
  queryKey: ['rotation', logSize],
  queryFn: () => call('GET /rotation', { query: { log: logSize } }),
});

/** The live queue; it refreshes on events and by itself when a snooze ends. */
export function useRotation(logSize: number, enabled = true) {
  const qc = useQueryClient();
  const q = useQuery({ ...rotationQuery(logSize), enabled });
  const at = q.data?.nextChangeAt;
  useEffect(() => {
    if (!at) return;
    const wait = Math.max(0, new Date(at).getTime() - Date.now()) + 250;
    const t = setTimeout(() => void qc.invalidateQueries({ queryKey: ['rotation'] }), Math.min(wait, 2 ** 31 - 1));
    return () => clearTimeout(t);
  }, [at, qc]);
  return q;
}
