import type { DehydratedState, Query } from '@tanstack/react-query';

/** A second each way for the servers' clocks: a page drawn by one app server, its stream on another. */
const LEEWAY_MS = 2000;

/** The answers a page drawn on the server came with (web/main.tsx): each one's time, and when the page was drawn (the server's clock). */
let drawn: { at: number; answers: Map<string, number> } | null = null;

export function keepDrawn(at: number, state: DehydratedState) {
  drawn = { at, answers: new Map(state.queries.map((q) => [q.queryHash, q.state.dataUpdatedAt])) };
}

/**
 * Whether `q` is still the answer its drawn page came with, and nothing changed in its store after
 * the page was drawn: `since` is the store's last change as the server that opened the live stream
 * heard it (its hello). Such an answer is current; any other is asked again when the stream opens.
 */
export function stillAsDrawn(q: Query, since: number): boolean {
  return !!drawn && since + LEEWAY_MS < drawn.at && drawn.answers.get(q.queryHash) === q.state.dataUpdatedAt;
}
