import { useCallback, useContext, useSyncExternalStore } from 'react';
import { DrawnForPhone } from './AfterDraw';

/**
 * Whether a media query for a phone's screen matches, read at the first render (not after a first
 * paint), so a phone never draws the wide layout first. The server knows no screen: where it
 * draws a page, it takes a phone's browser for a phone; the app's first render of that page does
 * too, and the next one, at once, the screen's own.
 */
export function useMedia(query: string): boolean {
  const phone = useContext(DrawnForPhone);
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => phone,
  );
}

/** Under 640 px tables become cards. */
export const useCompact = () => useMedia('(max-width: 39.99em)');
