import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export interface LogEntry {
  id: number;
  type: 'assign' | 'skip';
  customer: string | null;
  targetId: string;
  targetName: string;
  reason: string | null;
  managerName: string;
  createdAt: string;
}

export interface RotationView {
  pointerPos: number;
  nextUp: { id: string; name: string } | null;
  queue: { id: string; name: string; place: number; active: boolean; onDuty: boolean }[];
  team: { id: string; name: string; active: boolean; onDuty: boolean; snoozeUntil: string | null; eligible: boolean; place: number | null }[];
  log: LogEntry[];
  nextChangeAt: string | null;
}

/** The live queue; it refreshes on events and by itself when a snooze ends. */
export function useRotation(logSize: number) {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['rotation', logSize], queryFn: () => api<RotationView>(`/rotation?log=${logSize}`) });
  const at = q.data?.nextChangeAt;
  useEffect(() => {
    if (!at) return;
    const wait = Math.max(0, new Date(at).getTime() - Date.now()) + 250;
    const t = setTimeout(() => void qc.invalidateQueries({ queryKey: ['rotation'] }), Math.min(wait, 2 ** 31 - 1));
    return () => clearTimeout(t);
  }, [at, qc]);
  return q;
}
