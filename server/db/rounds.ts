/**
 * A background job's rhythm: `round` runs when woken, every `pollMs` when nothing wakes it, and
 * again at once while a round finds a full batch (more may be due). Never two rounds at once; a
 * failed round is reported and the next poll tries again.
 */
export function rounds(round: () => Promise<number>, opts: { batch: number; pollMs: number; failed: (err: unknown) => void }) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;

  function schedule(ms: number) {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(run, ms);
  }

  function run() {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          if ((await round()) >= opts.batch) again = true;
        } while (again && !stopped);
      } catch (err) {
        if (!stopped) opts.failed(err);
      } finally {
        running = null;
        schedule(opts.pollMs);
      }
    })();
  }

  return {
    /** On the next turn: whatever woke it (an answer that stored work) goes out first. */
    wake: () => schedule(0),
    start: () => {
      stopped = false;
      schedule(0);
    },
    /** Stops polling and waits for a round under way. */
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
