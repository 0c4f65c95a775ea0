import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { notifyFail, notifyOk } from '../components/notify';
import type { SessionUser } from '../../domain/contract/answers';
import type { Body } from '../../domain/contract/routes';

export type { Store } from '../../domain/stores';

/** The stores he may open, and whether he may add one (a group manager). */
export const useStores = () => useQuery({ queryKey: ['stores'], queryFn: () => call('GET /stores') });

/** Remembers the store he chose, so his next visit (and an old link) opens there. */
export function useChooseStore() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call('PUT /profile/store', { body: { code } }),
    onSuccess: (_r, code) => qc.setQueryData<SessionUser | null>(['me'], (u) => u && { ...u, store: code }),
    onError: (err) => notifyFail('Could not remember the store', err),
  });
}

/**
 * Adds a store (`editing` null) or changes the name or time zone of the one whose code `editing`
 * is. His stores in the session (the switcher, the addresses he may open) follow. A caller that
 * shows the refusal under a field passes its own onError to mutate.
 */
export function useSaveStore(editing: string | null, onDone: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: Body<'POST /stores'>) =>
      editing === null
        ? call('POST /stores', { body: v })
        : call('PATCH /stores/:code', { params: { code: editing }, body: { name: v.name, timezone: v.timezone } }),
    onSuccess: ({ store }) => {
      notifyOk(editing === null ? `Store ${store.name} (${store.code}) added.` : `Store ${store.name} saved.`);
      void qc.invalidateQueries({ queryKey: ['stores'] });
      void qc.invalidateQueries({ queryKey: ['me'] });
      void qc.invalidateQueries({ queryKey: ['group'] });
      onDone();
    },
  });
}
