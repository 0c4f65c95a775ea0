import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { useStore } from '../../stores/store';

export type { SalesBoardAnswer as SalesBoard } from '../../../domain/contract/answers';

/**
 * The store's team sales board (managers). Its key starts with 'sales', so a sale logged,
 * changed or deleted anywhere in the store refreshes it live (web/api/live.ts); the Sales page
 * and the showroom TV share it. `every`: also refetched on a timer, so the days since the last
 * sale turn over at midnight on a screen nobody touches.
 */
export function useSalesBoard(every?: number) {
  const { code: store } = useStore();
  return useQuery({
    queryKey: ['sales', store, 'team-board'],
    queryFn: () => call('GET /sales/board', { store }),
    refetchInterval: every,
  });
}

/** A plain link cannot send X-Store: it names its store in the query. */
export const boardCsvUrl = (store: string) => `/api/sales/board.csv?${new URLSearchParams({ store })}`;

/** "Today", "1 day", "12 days", or a dash when he never sold. */
export const sinceText = (days: number | null) => (days === null ? '—' : days === 0 ? 'Today' : `${days} ${days === 1 ? 'day' : 'days'}`);

export const pctText = (pct: number | null) => (pct === null ? '—' : `${pct}%`);
