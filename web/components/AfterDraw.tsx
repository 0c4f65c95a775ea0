import { createContext, startTransition, Suspense, useDeferredValue, useEffect, useRef, useState, type ReactNode } from 'react';
import { Skeleton } from '@mantine/core';
import { useIdle, whenIdle } from './idle';

/**
 * What a screen can wait for (a chart, whose library is fetched on demand): drawn once the
 * browser has been idle after the screen appeared and the placeholder (of its height, so nothing
 * below moves when it comes) is on screen: the figures above show first, and a phone, where the
 * charts sit below the first screenful, builds them only when scrolled to.
 */
export function AfterDraw({ h, children }: { h: number; children: ReactNode }) {
  const idle = useIdle(2000);
  const [ref, seen] = useSeen();
  const placeholder = <Skeleton h={h} />;
  return (
    <div ref={ref}>
      <Suspense fallback={placeholder}>{idle && seen ? children : placeholder}</Suspense>
    </div>
  );
}

/** Whether the element has been on screen (and from then on, true). */
function useSeen() {
  const ref = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (seen || !el) return;
    const watch = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, [seen]);
  return [ref, seen] as const;
}

/**
 * How many of `n` parts of a screen to show: one more each time the browser has been idle after
 * the last one came, so each is built and laid out in a task of its own rather than all together
 * in one long task. A page the server draws has them all, and is taken over with them all.
 */
export function useOneByOne(n: number): number {
  const [shown, setShown] = useState(() => (takingOver ? n : 0));
  useEffect(() => {
    if (shown >= n) return;
    return whenIdle(() => startTransition(() => setShown(shown + 1)), 500);
  }, [shown, n]);
  return shown;
}

/**
 * What is off screen or not needed yet (a phone's folded menu, the notifications' corner): drawn
 * in a render of its own just after the screen's first frame, so it does not delay that paint.
 */
export function AfterFirstFrame({ children }: { children: ReactNode }) {
  return useInBrowser() ? children : null;
}

/**
 * False where the server draws a page and in the app's first render, which must be the server's;
 * true from the next render: for what only the browser knows (what this device supports, its
 * permissions, its colour scheme).
 */
export const useInBrowser = () => useDeferredValue(true, false);

/**
 * A query's `meta` for what only the browser asks (an outside service, which may be slow): a page
 * the server draws does not wait for it, and shows it as loading.
 */
export const IN_BROWSER_ONLY = { inBrowserOnly: true };
export const isInBrowserOnly = (meta: Record<string, unknown> | undefined) => meta?.inBrowserOnly === true;

/** Whether the page the app takes over was drawn for a phone (the server tells by the browser's name). */
export const DrawnForPhone = createContext(false);

let takingOver = false;
/** Set where the server draws a page (entry-server.tsx), and while the app's first render takes over a drawn page (main.tsx). */
export const setTakingOver = (on: boolean) => {
  takingOver = on;
};
/**
 * A part of a screen built after its first frame: null in that frame, then `value`, built in
 * slices between which a phone still paints and answers taps (a deferred value). A page the
 * server drew has the part already and is taken over whole: whether this render takes one over
 * is read at the component's first render and starts no render of its own (a subscription would
 * draw the whole screen again, in one long task, right after taking over).
 */
export const useBuiltAfter = <T,>(value: T | null): T | null => useDeferredValue(value, takingOver ? value : null);

/**
 * Ends taking over a drawn page, once the screen in it is the app's: the page then takes taps
 * (server/http/drawn.ts left it inert). Drawn beside the screen, inside its Suspense boundary,
 * which React takes over after the rest; drawn on both ends, so both trees are the same.
 */
export function TakenOver() {
  useEffect(() => {
    takingOver = false;
    document.getElementById('root')?.removeAttribute('inert');
  }, []);
  return null;
}
