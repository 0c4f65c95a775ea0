import { useState } from 'react';
import { useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Center, Text } from '@mantine/core';
import { TV_REVOKED, TV_UNKNOWN, tokenInHash } from '../../domain/tv';
import { messageOf } from '../../domain/errors';
import { Leaderboard, TvScreen } from './Leaderboard';
import { fetchTvBoard, linkGone, tvBoardKey, useTvLive } from './live';

/** What a TV shows instead of its board when its link is no more: plain, large, nothing else. */
function Gone({ message }: { message: string }) {
  return (
    <TvScreen>
      <Center mih="80dvh">
        <Text fz="clamp(1.25rem, 3vw, 2.5rem)" ta="center" maw="40ch" role="alert" data-testid="tv-gone">
          {message}
        </Text>
      </Center>
    </TvScreen>
  );
}

/**
 * The showroom TV by its own link (/tv#secret): the store's leaderboard with no one signed in.
 * The secret after # never reaches a server with the page; the board and its stream are asked with
 * it and answer for its store only. Revoked, the TV says so and stops.
 */
export default function TvPage() {
  const { hash } = useLocation();
  const token = tokenInHash(hash);
  const [revoked, setRevoked] = useState(false);
  const q = useQuery({
    queryKey: tvBoardKey(token ?? ''),
    queryFn: () => fetchTvBoard(token ?? ''),
    enabled: !!token && !revoked,
    // The days since a last sale turn over at midnight on a screen nobody touches.
    refetchInterval: 5 * 60_000,
    retry: (n, err) => !linkGone(err) && n < 2,
  });
  const gone = revoked || linkGone(q.error);
  useTvLive(token, gone, setRevoked);

  if (!token) return <Gone message={TV_UNKNOWN} />;
  if (gone) return <Gone message={revoked ? TV_REVOKED : messageOf(q.error)} />;
  return <Leaderboard store={q.data?.store ?? ''} board={q.data} error={q.error} onRetry={() => q.refetch()} />;
}
