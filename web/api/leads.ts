import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './client';
import { notifyFail } from '../components/notify';
import type { Lead } from '../../domain/contract/answers';

export type { Lead };

/** Leads newest first, a page at a time; the search runs on the server. */
export function useLeads(filter: { q: string; open: boolean; mine?: boolean; unassigned?: boolean }) {
  return useInfiniteQuery({
    queryKey: ['leads', filter],
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      call(filter.mine ? 'GET /leads/mine' : 'GET /leads', {
        query: { open: filter.open ? 1 : 0, q: filter.q.trim(), unassigned: filter.unassigned ? 1 : undefined, cursor: pageParam },
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useLeadAction(onClosed?: (lead: Lead) => void) {
  return useMutation({
    mutationFn: ({ id, close }: { id: number; close: boolean }) => call(close ? 'POST /leads/:id/close' : 'POST /leads/:id/reopen', { params: { id } }),
    onSuccess: ({ lead }, { close }) => {
      if (close) onClosed?.(lead);
    },
    onError: (err) => notifyFail('Failed to update', err),
  });
}

/** The ADF document a lead came in, as text (managers only); fetched when asked for. */
export function useLeadDocument(id: number, enabled: boolean) {
  return useQuery({
    queryKey: ['lead-document', id],
    queryFn: () => call('GET /leads/:id/document', { params: { id } }),
    enabled,
    staleTime: Infinity,
  });
}

/** Gives a lead its customer's name (a lead that came in without one). */
export function useSetLeadName(onDone?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, customer }: { id: number; customer: string }) => call('POST /leads/:id/name', { params: { id }, body: { customer } }),
    onSuccess: () => {
      onDone?.();
      void qc.invalidateQueries({ queryKey: ['leads'] });
    },
    onError: (err) => notifyFail('Failed to save the name', err),
  });
}
