import type { DataTopic } from '../../domain/contract/events';
import { isRecord } from '../../domain/guards';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { whenIdle } from '../components/idle';
import { stillAsDrawn } from './drawnAnswers';
import type { SignedOutWhy } from '../session/SessionProvider';

/** Which cached queries each server topic makes stale. */
const STALE: Record<DataTopic, string[]> = {
  rotation: ['rotation', 'leads', 'my-stats', 'floor-report', 'ledger'],
  users: ['users', 'rotation', 'me', 'ledger'],
  // An integration's lead also changes its key's last-used time.
  leads: ['leads', 'my-stats', 'rotation', 'kpis', 'integrations', 'floor-report'],
  sales: ['sales'],
  profile: ['me'],
  rules: ['rules'],
};

/**
 * Figures summed over many leads: refetched a moment after the rest, so the list a salesman is
 * looking at (the server answers one request at a time) is not queued behind them.
 */
const isDataTopic = (t: unknown): t is DataTopic => typeof t === 'string' && Object.hasOwn(STALE, t);

const SUMS = new Set(['kpis', 'my-stats', 'floor-report', 'integrations', 'group']);
const SUMS_AFTER_MS = 150;

/** The stream of every store a group manager has, for the group screen. */
export const ALL_STORES = '*';

/**
 * Keeps every open screen current: the server says which topic changed, we refetch it. `store`
 * is the code of the store on screen (its events only), or ALL_STORES on the group screen, whose
 * figures follow any change in any store. A new store opens a new stream.
 */
export function useLiveEvents(store: string, onRevoked: (why: SignedOutWhy) => void) {
  const qc = useQueryClient();
  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const stale = new Set<string>();
    let flush: ReturnType<typeof setTimeout> | undefined;
    const later = new Set<string>();
    let flushLater: ReturnType<typeof setTimeout> | undefined;
    const refetch = (keys: Set<string>) => {
      for (const key of keys) void qc.invalidateQueries({ queryKey: [key] });
      keys.clear();
    };
    const invalidate = () => {
      flush = undefined;
      for (const key of stale) if (SUMS.has(key)) later.add(key);
      for (const key of later) stale.delete(key);
      refetch(stale);
      if (later.size && !flushLater)
        flushLater = setTimeout(() => {
          flushLater = undefined;
          refetch(later);
        }, SUMS_AFTER_MS);
    };
    const open = () => {
      // An EventSource sends no headers of ours: the store goes in the address.
      source = new EventSource(`/api/events?store=${encodeURIComponent(store)}`);
      source.onmessage = (msg: MessageEvent<string>) => {
        let topic: unknown;
        let signedOut = false;
        let since = Number.POSITIVE_INFINITY;
        try {
          const e: unknown = JSON.parse(msg.data);
          topic = isRecord(e) ? e.topic : undefined;
          signedOut = isRecord(e) && e.signedOut === true;
          if (isRecord(e) && typeof e.since === 'number') since = e.since;
        } catch {
          return;
        }
        if (topic === 'hello') {
          // What was fetched before the stream was open (or while it was down) may have missed
          // an event: refresh what is on screen once it is, but for a drawn page's answers when
          // nothing changed after it was drawn. A first fetch still under way is left alone
          // (React Query would only join it), so a change made in that moment shows with the next event.
          void qc.invalidateQueries({
            predicate: (q) => q.queryKey[0] !== 'weather' && q.state.dataUpdatedAt > 0 && !stillAsDrawn(q, since),
          });
        } else if (topic === 'session-revoked') {
          source?.close();
          // This device was signed out (from another, or by a manager), or his access turned off.
          onRevoked(signedOut ? 'signed-out' : 'access-off');
        } else {
          // One change often comes as several topics at once (an assign: rotation and leads);
          // gathered, each query refetches once instead of being cancelled and asked again.
          for (const key of isDataTopic(topic) ? STALE[topic] : []) stale.add(key);
          if (isDataTopic(topic)) stale.add('group');
          if (!flush) flush = setTimeout(invalidate, 0);
        }
      };
      source.onerror = () => {
        // The browser retries by itself while the stream is merely interrupted; a refused
        // stream (401, or the server gone) closes it, so we check the session and try again.
        if (source?.readyState === EventSource.CLOSED) {
          void qc.invalidateQueries({ queryKey: ['me'] });
          retry = setTimeout(open, 2000);
        }
      };
    };
    // The stream opens once the screen has drawn: its hello refreshes what is on screen, which
    // on a phone would otherwise compete with the first paint for the network and the CPU.
    const idle = whenIdle(open, 1000);
    return () => {
      idle();
      clearTimeout(retry);
      clearTimeout(flush);
      clearTimeout(flushLater);
      source?.close();
    };
  }, [qc, store, onRevoked]);
}
