import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './client';
import { isQuestion, notifyFail, notifyOk } from '../components/notify';
import type { Lead } from '../../domain/contract/answers';
import type { Body } from '../../domain/contract/routes';
import { useStore, useStorePath } from '../stores/store';
import { useNavigate } from 'react-router';

export type { Lead };

/** Leads newest first, a page at a time; the search runs on the server. */
export function useLeads(filter: { q: string; open: boolean; mine?: boolean; unassigned?: boolean }, enabled = true) {
  const { code: store } = useStore();
  return useInfiniteQuery({
    queryKey: ['leads', store, filter],
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      call(filter.mine ? 'GET /leads/mine' : 'GET /leads', {
        query: { open: filter.open ? 1 : 0, q: filter.q.trim(), unassigned: filter.unassigned ? 1 : undefined, cursor: pageParam },
        store,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

/** A step of a lead's life (Lost, Reopen, an appointment, shown or not); its answer is the lead as it now is. */
export function useLeadStep(onDone?: (lead: Lead) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: LeadStep) =>
      s.step === 'reopen'
        ? call('POST /leads/:id/reopen', { params: { id: s.id } })
        : s.step === 'lost'
          ? call('POST /leads/:id/lost', { params: { id: s.id }, body: s.body })
          : s.step === 'appointment'
            ? call('POST /leads/:id/appointment', { params: { id: s.id }, body: s.body })
            : call('POST /leads/:id/shown', { params: { id: s.id }, body: s.body }),
    onSuccess: ({ lead }) => {
      onDone?.(lead);
      refresh(qc);
    },
    onError: (err) => notifyFail('Could not update the lead', err),
  });
}
export type LeadStep =
  | { id: number; step: 'reopen' }
  | { id: number; step: 'lost'; body: Body<'POST /leads/:id/lost'> }
  | { id: number; step: 'appointment'; body: Body<'POST /leads/:id/appointment'> }
  | { id: number; step: 'shown'; body: Body<'POST /leads/:id/shown'> };

/** Sold: the sale is stored with the lead, once per `actionId` (one per dialog: a double-click sells once); his tracker and the lead list follow. */
export function useSellLead(id: number, actionId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (d: Omit<Body<'POST /leads/:id/sold'>, 'actionId'>) => call('POST /leads/:id/sold', { params: { id }, body: { ...d, actionId } }),
    onSuccess: ({ lead }) => {
      notifyOk(`${lead.customer} sold. The sale is in your tracker.`);
      refresh(qc);
      void qc.invalidateQueries({ queryKey: ['sales'] });
    },
    onError: (err) => isQuestion(err) || notifyFail('Could not save the sale', err),
  });
}

/** The ADF document a lead came in, as text (managers only); fetched when asked for. */
export function useLeadDocument(id: number, enabled: boolean) {
  const { code: store } = useStore();
  return useQuery({
    queryKey: ['lead-document', store, id],
    queryFn: () => call('GET /leads/:id/document', { params: { id }, store }),
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

/** The salesman's leads still waiting for his Accept, oldest first. */
export function useWaitingLeads(enabled: boolean) {
  const { code: store } = useStore();
  return useQuery({
    queryKey: ['leads', store, 'waiting'],
    queryFn: () => call('GET /leads/mine', { query: { waiting: 1, open: 1 }, store }),
    enabled,
    select: (page) => [...page.leads].reverse(),
  });
}

const refresh = (qc: ReturnType<typeof useQueryClient>) => {
  void qc.invalidateQueries({ queryKey: ['leads'] });
  void qc.invalidateQueries({ queryKey: ['timeline'] });
};

/** Accept: said, and the lead opens (Log contact, with the ways to reach the customer) on his leads page. */
export function useAcceptLead() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const to = useStorePath();
  return useMutation({
    mutationFn: (lead: Pick<Lead, 'id' | 'customer'>) => call('POST /leads/:id/accept', { params: { id: lead.id } }),
    onSuccess: (_r, lead) => {
      refresh(qc);
      notifyOk(`You accepted ${lead.customer}. Reach them now and log the contact.`);
      void navigate(to(`/dashboard/associates?lead=${lead.id}`));
    },
    onError: (err) => {
      notifyFail('Could not accept the lead', err);
      refresh(qc);
    },
  });
}

export function useLogContact(onDone?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number } & Body<'POST /leads/:id/contact'>) => call('POST /leads/:id/contact', { params: { id }, body }),
    onSuccess: () => {
      onDone?.();
      refresh(qc);
    },
    onError: (err) => notifyFail('Could not log the contact', err),
  });
}

/** A manager hands a lead waiting in Unassigned to Next Up. */
/**
 * A manager hands a lead out: to Next Up, or to a salesman he names and says why (an override).
 * A caller that shows the refusal itself (a form under its field) passes its own onError to mutate.
 */
export function useHandOut(onDone?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to, reason }: { id: number; to?: string; reason?: string }) =>
      call('POST /leads/:id/handout', { params: { id }, body: { to: to || undefined, reason: reason?.trim() || undefined } }),
    onSuccess: ({ lead }) => {
      notifyOk(`${lead.customer} handed to ${lead.assignedToName}.`);
      onDone?.();
      refresh(qc);
      void qc.invalidateQueries({ queryKey: ['rotation'] });
    },
  });
}

/** The current store's lead figures: speed to lead and leads per associate. */
export function useKpis(enabled = true) {
  const { code: store } = useStore();
  return useQuery({ queryKey: ['kpis', store], queryFn: () => call('GET /leads/kpis', { store }), enabled });
}

/** His own lead counts in the current store. */
export function useMyCounts() {
  const { code: store } = useStore();
  return useQuery({ queryKey: ['my-stats', store], queryFn: () => call('GET /leads/mine/counts', { store }) });
}

export function useTimeline(id: number, enabled: boolean) {
  const { code: store } = useStore();
  return useQuery({ queryKey: ['timeline', store, id], queryFn: () => call('GET /leads/:id/timeline', { params: { id }, store }), enabled });
}

/** Today's appointments in the current store: his own, or every one for a manager. */
export function useAppointments() {
  const { code: store } = useStore();
  return useQuery({ queryKey: ['leads', store, 'appointments'], queryFn: () => call('GET /leads/appointments', { store }) });
}
