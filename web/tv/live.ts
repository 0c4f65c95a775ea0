import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../domain/errors';
import { isRecord } from '../../domain/guards';
import { TV_HEADER, type TvBoard } from '../../domain/tv';

export type TvBoardAnswer = TvBoard & { store: string };

/** The board's query key: refetched by the TV's stream, never by a session's. */
export const tvBoardKey = (token: string) => ['tv-board', token];

/**
 * The board by the link's secret, with no cookie: what a TV holds is the link, never a session
 * (a browser that also holds one sends nothing of it here).
 */
export async function fetchTvBoard(token: string): Promise<TvBoardAnswer> {
  let res: Response;
  try {
    res = await fetch('/api/tv/board', { headers: { [TV_HEADER]: token }, credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'The portal cannot be reached. The board comes back by itself when it can be.');
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const said = (key: string) => (isRecord(data) && typeof data[key] === 'string' ? data[key] : undefined);
    throw new ApiError(res.status, said('error') ?? `Request failed (${res.status})`, said('code'));
  }
  return data as TvBoardAnswer;
}

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
