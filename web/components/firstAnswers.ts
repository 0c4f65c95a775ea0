import { useCallback, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * True once every query of `keys` has its first answer (or its error), and from then on. A screen
 * whose parts each ask for their own data shows those parts together when this turns true: drawn
 * one by one as each answer came, every part that came in above would push down the ones below.
 */
export function useFirstAnswers(keys: readonly QueryKey[]): boolean {
  const cache = useQueryClient().getQueryCache();
  const subscribe = useCallback((changed: () => void) => cache.subscribe(changed), [cache]);
  const answered = () =>
    keys.every((key) => {
      const state = cache.find({ queryKey: key, exact: true })?.state;
      return state !== undefined && (state.dataUpdatedAt > 0 || state.errorUpdatedAt > 0);
    });
  // The same on the server, which draws a screen once its answers are in (web/entry-server.tsx).
  return useSyncExternalStore(subscribe, answered, answered);
}
