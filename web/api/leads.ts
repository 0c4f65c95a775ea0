import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { api } from './client';
import { notifyFail } from '../components/notify';

export interface Lead {
  id: number;
  customer: string;
  assignedTo: string;
  assignedToName: string;
  assignedByName: string;
  assignedAt: string;
  status: 'handed' | 'closed';
  followUpDue: string;
  overdue: boolean;
  closed: boolean;
  source: string;
  closedAt: string | null;
  closedByName: string | null;
}

interface Page {
  leads: Lead[];
  nextCursor: string | null;
}

/** Leads newest first, a page at a time; the search runs on the server. */
export function useLeads(filter: { q: string; open: boolean; mine?: boolean }) {
  return useInfiniteQuery({
    queryKey: ['leads', filter],
    initialPageParam: '',
    queryFn: ({ pageParam }) => {
      const qs = new URLSearchParams({ open: filter.open ? '1' : '0' });
      if (filter.q.trim()) qs.set('q', filter.q.trim());
      if (pageParam) qs.set('cursor', pageParam);
      return api<Page>(`/leads${filter.mine ? '/mine' : ''}?${qs}`);
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useLeadAction() {
  return useMutation({
    mutationFn: ({ id, close }: { id: number; close: boolean }) => api(`/leads/${id}/${close ? 'close' : 'reopen'}`, { method: 'POST' }),
    onError: (err) => notifyFail('Failed to update', err),
  });
}
