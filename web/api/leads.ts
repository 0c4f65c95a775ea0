import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
  /** The vehicle the customer trades in (ADF interest="trade-in"). */
  tradeIn: { year: string; make: string; model: string; odometer: string } | null;
  /** The sender gave no name: the customer is a placeholder for the salesman to fill in. */
  nameMissing: boolean;
  /** It came in as an ADF document, which a manager may read. */
  hasDocument: boolean;
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

/** The ADF document a lead came in, as text (managers only); fetched when asked for. */
export function useLeadDocument(id: number, enabled: boolean) {
  return useQuery({
    queryKey: ['lead-document', id],
    queryFn: () => api<{ document: string }>(`/leads/${id}/document`),
    enabled,
    staleTime: Infinity,
  });
}

/** Gives a lead its customer's name (a lead that came in without one). */
export function useSetLeadName(onDone?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, customer }: { id: number; customer: string }) => api<{ lead: Lead }>(`/leads/${id}/name`, { method: 'POST', body: { customer } }),
    onSuccess: () => {
      onDone?.();
      void qc.invalidateQueries({ queryKey: ['leads'] });
    },
    onError: (err) => notifyFail('Failed to save the name', err),
  });
}
