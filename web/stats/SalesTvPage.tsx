import { useMemo } from 'react';
import { Link } from 'react-router';
import { Anchor } from '@mantine/core';
import { useLiveEvents } from '../api/live';
import { useSignedOut } from '../session/useSignedOut';
import { useStore, useStorePath } from '../stores/store';
import { tvBoard } from '../../domain/tv';
import { useSalesBoard } from './sales/board';
import { Leaderboard } from '../tv/Leaderboard';

/**
 * The showroom TV as a manager opens it, in his session (a TV on the wall opens it by its own
 * link instead: web/tv/TvPage.tsx). Live: its own event stream refreshes the board (a query key
 * starting with 'sales') at each sale; a timer turns the days over at midnight on a screen nobody touches.
 */
export default function SalesTvPage() {
  const store = useStore();
  const to = useStorePath();
  const onRevoked = useSignedOut();
  useLiveEvents(store.code, onRevoked);
  const q = useSalesBoard(5 * 60_000);
  const board = useMemo(() => (q.data ? tvBoard(q.data) : undefined), [q.data]);
  return (
    <Leaderboard
      store={store.name}
      board={board}
      error={q.error}
      onRetry={() => q.refetch()}
      aside={
        <Anchor component={Link} to={to('/dashboard/stats/sales')} size="sm">
          Back to the board
        </Anchor>
      }
    />
  );
}
