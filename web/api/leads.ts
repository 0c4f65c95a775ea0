import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { api } from './client';
import { notifyFail } from '../components/notify';

export interface Lead {
  id: number;
  customer: string;
  /** null: no one was eligible; the lead waits in the Unassigned view. */
  assignedTo: string | null;
  assignedToName: string;
  assignedByName: string;
  assignedAt: string;
  status: 'new' | 'handed' | 'closed';
  followUpDue: string;
  overdue: boolean;
  closed: boolean;
  source: string;
  closedAt: string | null;
  closedById: string | null;
  closedByName: string | null;
  phone: string | null;
  email: string | null;
  vehicle: string | null;
  vin: string | null;
  comments: string | null;
}

interface Page {
  leads: Lead[];
  nextCursor: string | null;
}

/** Leads newest first, a page at a time; the search runs on the server. */
export function useLeads(filter: { q: string; open: boolean; mine?: boolean; unassigned?: boolean }) {
  return useInfiniteQuery({
    queryKey: ['leads', filter],
    initialPageParam: '',
    queryFn: ({ pageParam }) => {
      const qs = new URLSearchParams({ open: filter.open ? '1' : '0' });
      if (filter.q.trim()) qs.set('q', filter.q.trim());
      if (filter.unassigned) qs.set('unassigned', '1');
      if (pageParam) qs.set('cursor', pageParam);
      return api<Page>(`/leads${filter.mine ? '/mine' : ''}?${qs}`);
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useLeadAction(onClosed?: (lead: Lead) => void) {
  return useMutation({
    mutationFn: ({ id, close }: { id: number; close: boolean }) => api<{ lead: Lead }>(`/leads/${id}/${close ? 'close' : 'reopen'}`, { method: 'POST' }),
    onSuccess: ({ lead }, { close }) => {
      if (close) onClosed?.(lead);
    },
    onError: (err) => notifyFail('Failed to update', err),
  });
}
