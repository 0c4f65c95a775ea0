import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { useStore } from '../stores/store';
import { notifyFail } from '../components/notify';
import type { RoutingAdmin } from '../../domain/contract/answers';

export type { RoutingAdmin, RoutingTried } from '../../domain/contract/answers';

/** Under the rotation's key: a change of the line (the 'rotation' topic) refetches it. */
const routingKey = (store: string) => ['rotation', store, 'routing-admin'];

/** A store's teams, its salesmen's weights and caps, its routing rules. */
export function useRoutingAdmin() {
  const { code } = useStore();
  return useQuery({ queryKey: routingKey(code), queryFn: () => call('GET /routing', { store: code }) });
}

/** A change that answers the whole routing view: the cache takes it, the rotation refetches. */
export function useRoutingChange<V>(fn: (v: V, store: string) => Promise<RoutingAdmin>, failed: string, done?: () => void) {
  const qc = useQueryClient();
  const { code } = useStore();
  return useMutation({
    mutationFn: (v: V) => fn(v, code),
    onSuccess: (answer) => {
      qc.setQueryData(routingKey(code), answer);
      void qc.invalidateQueries({ queryKey: ['rotation', code], predicate: (q) => q.queryKey[2] !== 'routing-admin' });
      done?.();
    },
    onError: (err) => notifyFail(failed, err),
  });
}
