import { useCallback } from 'react';
import { formatWhen } from '../../domain/format';
import { useTimeZone } from '../stores/store';

/** when(iso): "Today 2:44 PM", "Yesterday 11:57 PM", "Nov 19, 3:10 PM", on the current store's clock. */
export function useWhen() {
  const tz = useTimeZone();
  return useCallback((iso: string | null | undefined, fallback = '—') => (iso ? formatWhen(iso, new Date(), tz) : fallback), [tz]);
}
