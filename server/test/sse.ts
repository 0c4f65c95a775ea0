/** Opens a Server-Sent Events stream and collects its messages, for tests. */
export async function openEvents(url: string, cookie: string) {
  const ac = new AbortController();
  const res = await fetch(url, { headers: { cookie, accept: 'text/event-stream' }, signal: ac.signal });
  const events: { topic: string; at: number; storeId?: number }[] = [];
  const waiters: (() => void)[] = [];
  let closed = !res.ok;
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buf = '';
      try {
        for await (const chunk of res.body as any as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            if (data) events.push(JSON.parse(data.slice(6)));
            waiters.splice(0).forEach((w) => w());
          }
        }
      } catch {
        /* aborted */
      }
      closed = true;
      waiters.splice(0).forEach((w) => w());
    })();
  }
  const taken = new Set<number>();
  return {
    status: res.status,
    events,
    /** The first event of this topic not yet taken by an earlier call (events may arrive in any order). */
    async next(topic: string, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = events.findIndex((e, k) => !taken.has(k) && e.topic === topic);
        if (i >= 0) {
          taken.add(i);
          return events[i];
        }
        if (Date.now() > deadline) throw new Error(`no ${topic} event within ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    },
    /** Waits until the server ends the stream. */
    async ended(timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (!closed) {
        if (Date.now() > deadline) throw new Error(`the stream was still open after ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    },
    close: () => ac.abort(),
  };
}
