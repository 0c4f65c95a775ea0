import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { ApiError } from '../../../domain/errors';
import { isQuestion, notifyFail, notifyOk } from '../../components/notify';
import type { Split } from '../../../domain/commission';
import { useStore } from '../../stores/store';

export type { Sale, Tracker } from '../../../domain/contract/answers';

/** What the form sends; the server computes the commission itself. */
export type SaleDraft = {
  date: string;
  vehicleType: 'new' | 'used';
  frontGross: string;
  split: Split;
  customer?: string;
  /** He answered the store's question about a large front gross: the amount is right. */
  sure?: boolean;
};

export function useTracker(userId: string | null) {
  const { code: store } = useStore();
  return useQuery({
    queryKey: ['sales', store, userId ?? 'me'],
    queryFn: () => call('GET /sales', { query: { user: userId ?? undefined }, store }),
    // A refusal or an unknown salesman will not change on a second try.
    retry: (n, err) => n < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
  });
}

/** His own sales in every store of his, read-only (a salesman of several stores). */
export function useAllMySales(enabled: boolean) {
  return useQuery({ queryKey: ['sales', 'all'], queryFn: () => call('GET /sales/all'), enabled });
}

/** ?store=* on the export: his own sales in every store of his. */
export const ALL_MY_STORES = '*';

/** A plain link cannot send X-Store: it names its store in the query. */
export const exportUrl = (userId: string | null, store: string) => `/api/sales/export.csv?${new URLSearchParams(userId ? { store, user: userId } : { store })}`;

export function useSaveSale(id?: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (d: SaleDraft) => (id ? call('PATCH /sales/:id', { params: { id }, body: d }) : call('POST /sales', { body: d })),
    onSuccess: () => {
      notifyOk(id ? 'Sale updated.' : 'Sale saved.');
      return qc.invalidateQueries({ queryKey: ['sales'] });
    },
    onError: (err) => isQuestion(err) || notifyFail(id ? 'Failed to update the sale' : 'Failed to save the sale', err),
  });
}

export function useDeleteSale() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('DELETE /sales/:id', { params: { id } }),
    onSuccess: () => {
      notifyOk('Sale deleted.');
      return qc.invalidateQueries({ queryKey: ['sales'] });
    },
    onError: (err) => notifyFail('Failed to delete the sale', err),
  });
}
