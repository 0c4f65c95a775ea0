import { useEffect, useState } from 'react';

/** Runs `fn` once the browser has nothing else to do, or after `timeout` ms at the latest; returns a cancel. */
export function whenIdle(fn: () => void, timeout: number): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(fn, { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const t = window.setTimeout(fn, timeout / 2);
  return () => window.clearTimeout(t);
}

/** False until the browser has been idle once after the component appeared (see whenIdle). */
export function useIdle(timeout: number): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true), timeout), [timeout]);
  return idle;
}
