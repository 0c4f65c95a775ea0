import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './client';
import { ApiError } from '../../domain/errors';
import { notifyFail, notifyOk } from '../components/notify';
import { nowAtText } from '../../domain/rotation';
import { useStore } from '../stores/store';

export type { LogEntry, RotationView } from '../../domain/contract/answers';

/** A store's queue with the last `logSize` actions, as every screen asks for it. */
export const rotationQuery = (logSize: number, store: string) => ({
  queryKey: ['rotation', store, logSize],
  queryFn: () => call('GET /rotation', { query: { log: logSize }, store }),
});

/** The live queue; it refreshes on events and by itself when a snooze ends. */
export function useRotation(logSize: number, enabled = true) {
  const qc = useQueryClient();
  const { code } = useStore();
  const q = useQuery({ ...rotationQuery(logSize, code), enabled });
  const at = q.data?.nextChangeAt;
  useEffect(() => {
    if (!at) return;
    const wait = Math.max(0, new Date(at).getTime() - Date.now()) + 250;
    const t = setTimeout(() => void qc.invalidateQueries({ queryKey: ['rotation'] }), Math.min(wait, 2 ** 31 - 1));
    return () => clearTimeout(t);
  }, [at, qc]);
  return q;
}

/**
 * A manager's move in the line: the line as shown and the order wanted. It stays pending until the
 * line is drawn again, so the next move starts from the line the server has; a line someone else
 * changed meanwhile is refused and drawn again.
 */
export function useReorder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (move: { uid: string; shown: string[]; order: string[] }) => call('POST /rotation/reorder', { body: move }),
    onSuccess: async (r) => {
      notifyOk(nowAtText(r.name, r.place));
      await qc.invalidateQueries({ queryKey: ['rotation'] });
    },
    onError: async (err) => {
      notifyFail('Failed to reorder', err);
      if (err instanceof ApiError && err.code === 'line-changed') await qc.invalidateQueries({ queryKey: ['rotation'] });
    },
  });
}

/** A manager hands a lead out: to Next Up, or to the salesman he names, with why. */
