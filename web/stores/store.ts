import { createContext, useCallback, useContext } from 'react';
import type { Store } from '../../domain/stores';
import { storePath } from '../../domain/stores';
import { APP_TIMEZONE } from '../api/meta';

/** The store whose screens are open (the address's /s/CODE, or the person's own on the group screen). */
export const StoreContext = createContext<Store | null>(null);

/** The store the screen shows; only inside a store's screens. */
export function useStore(): Store {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore outside a store: the screen must be under /s/:code');
  return store;
}

/** The current store's clock, for "today", hours and every time shown; the server's default elsewhere. */
export const useTimeZone = () => useContext(StoreContext)?.timezone ?? APP_TIMEZONE;

/** Addresses in the current store: to('/dashboard/routing') is /s/NSH/dashboard/routing. */
export function useStorePath() {
  const { code } = useStore();
  return useCallback((rest: string) => storePath(code, rest), [code]);
}
