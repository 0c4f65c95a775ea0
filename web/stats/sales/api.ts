import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import { notifyFail, notifyOk } from '../../components/notify';
import type { Plan, Split } from '../../../domain/commission';
import type { SalesFigures } from '../../../domain/figures';

export interface Sale {
  id: number;
  date: string;
  vehicleType: 'new' | 'used';
  frontGrossCents: number;
  split: Split;
  plan: Plan;
  planLabel: string;
  commissionCents: number;
}

export interface Tracker {
  today: string;
  owner: { id: string; name: string; email: string };
  readOnly: boolean;
  sales: Sale[];
  figures: SalesFigures;
  daily: { day: string; commission: number }[];
  monthly: { month: string; gross: number }[];
  salesmen?: { id: string; name: string; email: string }[];
}

/** What the form sends; the server computes the commission itself. */
export interface SaleDraft {
  date: string;
  vehicleType: 'new' | 'used';
  frontGross: string;
  split: Split;
}

const query = (userId: string | null) => (userId ? `?user=${encodeURIComponent(userId)}` : '');

export const useTracker = (userId: string | null) =>
  useQuery({
    queryKey: ['sales', userId ?? 'me'],
    queryFn: () => api<Tracker>(`/sales${query(userId)}`),
    // A refusal or an unknown salesman will not change on a second try.
    retry: (n, err) => n < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
  });

export const exportUrl = (userId: string | null) => `/api/sales/export.csv${query(userId)}`;

export function useSaveSale(id?: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (d: SaleDraft) => api<Sale>(id ? `/sales/${id}` : '/sales', { method: id ? 'PATCH' : 'POST', body: d }),
    onSuccess: () => {
      notifyOk(id ? 'Sale updated.' : 'Sale saved.');
      return qc.invalidateQueries({ queryKey: ['sales'] });
    },
    onError: (err) => notifyFail(id ? 'Failed to update the sale' : 'Failed to save the sale', err),
  });
}

export function useDeleteSale() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(`/sales/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notifyOk('Sale deleted.');
      return qc.invalidateQueries({ queryKey: ['sales'] });
    },
    onError: (err) => notifyFail('Failed to delete the sale', err),
  });
}
