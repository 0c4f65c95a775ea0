import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './client';
import { useStore } from '../stores/store';
import { notifyFail, notifyOk } from '../components/notify';
import type { PayPlan } from '../../domain/payplan';

/** Under the store's rules key: the "rules" topic (a plan changed) and a rules save refetch it. */
const payPlansKey = (store: string) => ['rules', store, 'payplans'];

/** The current store's pay plans: the one paying today's sales and the list (kept live by the "rules" topic). */
export function usePayPlans() {
  const { code: store } = useStore();
  return useQuery({ queryKey: payPlansKey(store), queryFn: () => call('GET /payplans', { store }) });
}

/** A manager's new plan from a day on. */
export function useSavePayPlan() {
  const qc = useQueryClient();
  const { code: store } = useStore();
  return useMutation({
    mutationFn: (v: { effectiveFrom: string; plan: PayPlan }) => call('POST /payplans', { body: { effectiveFrom: v.effectiveFrom, ...v.plan }, store }),
    onSuccess: (answer) => {
      qc.setQueryData(payPlansKey(store), answer);
      notifyOk('Pay plan saved.');
    },
    onError: (err) => notifyFail('Could not save the pay plan', err),
  });
}
