import { Suspense, useDeferredValue, type ReactNode } from 'react';
import { Skeleton } from '@mantine/core';
import { useIdle } from './idle';

/**
 * What a screen can wait for (a chart, whose library is fetched on demand): drawn once the
 * browser has been idle after the screen appeared, in a placeholder of its height until then, so
 * the figures above show first and nothing below moves when it comes.
 */
export function AfterDraw({ h, children }: { h: number; children: ReactNode }) {
  const drawn = useIdle(2000);
  const placeholder = <Skeleton h={h} />;
  return <Suspense fallback={placeholder}>{drawn ? children : placeholder}</Suspense>;
}

/**
 * What is off screen or not needed yet (a phone's folded menu, the notifications' corner): drawn
 * in a render of its own just after the screen's first frame, so it does not delay that paint.
 */
export function AfterFirstFrame({ children }: { children: ReactNode }) {
  return useDeferredValue(true, false) ? children : null;
}
