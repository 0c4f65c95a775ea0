export interface Batched<T> {
  (items: T[]): Promise<void>;
  /** Settles once everything handed in so far was written (or failed). */
  settled(): Promise<void>;
}

/**
 * Writes what callers hand in, many in one statement under load: when no write is under way the
 * items go after `gatherMs` (0: on the next turn of the event loop; on SQLite a write ends within
 * its turn), with whatever else came meanwhile; otherwise they wait for the write under way and go
 * together with everything that came since. Each caller's promise settles with the write that
 * carried its items.
 */
export function batched<T>(write: (items: T[]) => Promise<unknown>, gatherMs = 0): Batched<T> {
  let next: { items: T[]; done: Promise<void> } | null = null;
  let underWay: Promise<unknown> = Promise.resolve();
  const put = (items: T[]) => {
    if (!next) {
      const batch: { items: T[]; done: Promise<void> } = { items: [], done: Promise.resolve() };
      batch.done = underWay.then(async () => {
        await new Promise((r) => (gatherMs ? setTimeout(r, gatherMs) : setImmediate(r)));
        next = null;
        await write(batch.items);
      });
      underWay = batch.done.catch(() => undefined);
      next = batch;
    }
    next.items.push(...items);
    return next.done;
  };
  return Object.assign(put, { settled: () => underWay.then(() => undefined) });
}
