import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { useStore } from '../stores/store';
import type { Answer, Body } from '../../domain/contract/routes';

export type LeadAddress = Answer<'GET /mail/addresses'>['addresses'][number];
export type MailMessage = Answer<'GET /mail'>['messages'][number];
export type OpenedMail = Answer<'GET /mail/:id'>['message'];
export type MailShow = 'review' | 'all';

// Under 'integrations' and 'leads': the server's 'leads' topic (a mail in review, one handled) refetches both.
const addressesKey = (store: string) => ['integrations', store, 'mail'];
const mailKey = (store: string) => ['leads', store, 'mail'];

export function useLeadAddresses() {
  const { code: store } = useStore();
  return useQuery({ queryKey: addressesKey(store), queryFn: () => call('GET /mail/addresses', { store }) });
}

export function useAddAddress() {
  const { code: store } = useStore();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (address: string) => call('POST /mail/addresses', { body: { address }, store }),
    onSuccess: () => qc.invalidateQueries({ queryKey: addressesKey(store) }),
  });
}

export function useRemoveAddress() {
  const { code: store } = useStore();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('DELETE /mail/addresses/:id', { params: { id }, store }),
    onSuccess: () => qc.invalidateQueries({ queryKey: addressesKey(store) }),
  });
}

/** Mails a test lead to the receiver; once it is read, the server's 'leads' news refetches the addresses and the mail. */
export function useTestAddress() {
  const { code: store } = useStore();
  return useMutation({
    mutationFn: (a: LeadAddress) => call('POST /mail/addresses/:id/test', { params: { id: a.id }, store }),
  });
}

/** The mail of the last 30 days, newest first: waiting for review, or all of it; with the count waiting. */
export function useMailList(show: MailShow, enabled = true) {
  const { code: store } = useStore();
  return useQuery({ queryKey: [...mailKey(store), show], queryFn: () => call('GET /mail', { query: { show }, store }), enabled });
}

export function useMail(id: number | null) {
  const { code: store } = useStore();
  return useQuery({
    queryKey: [...mailKey(store), 'one', id],
    queryFn: async () => (await call('GET /mail/:id', { params: { id: id ?? 0 }, store })).message,
    enabled: id !== null,
  });
}

type Handled = Answer<'POST /mail/:id/lead'>;
/**
 * The outcome is told from the mutation's own callbacks: the form that asked may be gone by then
 * (the server's 'leads' event refetches the mail, which then shows as handled).
 */
interface Told<V> {
  onSuccess: (r: Handled, v: V) => void;
  onError: (err: Error) => void;
}

export function useMakeLead(told: Told<Body<'POST /mail/:id/lead'>>) {
  const { code: store } = useStore();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: Body<'POST /mail/:id/lead'> & { id: number }) => call('POST /mail/:id/lead', { params: { id }, body, store }),
    ...told,
    onSettled: () => void qc.invalidateQueries({ queryKey: mailKey(store) }),
  });
}

export function useDismissMail(told: Told<{ reason: string }>) {
  const { code: store } = useStore();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => call('POST /mail/:id/dismiss', { params: { id }, body: { reason }, store }),
    ...told,
    onSettled: () => void qc.invalidateQueries({ queryKey: mailKey(store) }),
  });
}
