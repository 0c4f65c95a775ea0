import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../domain/errors';
import { isRecord } from '../../domain/guards';
import { TV_HEADER } from '../../domain/tv';
import { call } from '../api/client';

/** The board's query key: refetched by the TV's stream, never by a session's. */
export const tvBoardKey = (token: string) => ['tv-board', token];

/** The board by the link's secret, with no cookie: what a TV holds is the link, never a session. */
export const fetchTvBoard = (token: string) => call('GET /tv/board', { as: { [TV_HEADER]: token } });

/** The link is no more (revoked, or never was): nothing will bring it back. */
export const linkGone = (err: unknown) => err instanceof ApiError && err.status === 401;

/**
 * Keeps the TV current on the link's own stream (an EventSource sends no header: the secret goes
 * in ?tv=): each sale or change of the team refetches the board; "tv-revoked" says the link ended.
 * A refused stream (the link revoked while the TV was off, the server away) refetches the board,
 * which says which, and is tried again unless the link is gone.
 */
export function useTvLive(token: string | null, gone: boolean, onRevoked: (revoked: true) => void) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!token || gone) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const refetch = () => void qc.invalidateQueries({ queryKey: tvBoardKey(token) });
    const open = () => {
      source = new EventSource(`/api/tv/events?${new URLSearchParams({ tv: token })}`);
      source.onmessage = (msg: MessageEvent<string>) => {
        let topic: unknown;
        try {
          const e: unknown = JSON.parse(msg.data);
          topic = isRecord(e) ? e.topic : undefined;
        } catch {
          return;
        }
        if (topic === 'tv-revoked') {
          source?.close();
          onRevoked(true);
        } else refetch();
      };
      source.onerror = () => {
        if (source?.readyState !== EventSource.CLOSED) return;
        refetch();
        retry = setTimeout(open, 5000);
      };
    };
    open();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [qc, token, gone, onRevoked]);
}
