/**
 * Writes what callers hand in, many in one statement under load: when no write is under way the
 * items go at once (with whatever else came in the same turn of the event loop); otherwise they
 * wait for the write under way and go together with everything that came meanwhile. Each caller's
 * promise settles with the write that carried its items.
 */
export function batched<T>(write: (items: T[]) => Promise<unknown>): (items: T[]) => Promise<void> {
  let next: { items: T[]; done: Promise<void> } | null = null;
  let underWay: Promise<unknown> = Promise.resolve();
  return (items) => {
    if (!next) {
      const batch: { items: T[]; done: Promise<void> } = { items: [], done: Promise.resolve() };
      batch.done = underWay.then(async () => {
        next = null;
        await write(batch.items);
      });
      underWay = batch.done.catch(() => undefined);
      next = batch;
    }
    next.items.push(...items);
    return next.done;
  };
}
