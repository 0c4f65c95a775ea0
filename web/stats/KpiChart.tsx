import { lazy, Suspense } from 'react';
import { Skeleton } from '@mantine/core';
import { useIdle } from '../components/idle';
import type { KpiBar } from './KpiBars';

// The chart library is large: the figures and the table show first; it is fetched once the
// screen has drawn, and the drawing follows in a place of its own height.
const Bars = lazy(() => import('./KpiBars'));

/** Received, closed and skips per associate, as horizontal bars: every name gets a line of its own, however many there are. */
export function KpiChart({ data, compact }: { data: KpiBar[]; compact: boolean }) {
  const drawn = useIdle(2000);
  const h = Math.max(220, data.length * 56 + 90);
  const placeholder = <Skeleton h={h} />;
  return <Suspense fallback={placeholder}>{drawn ? <Bars data={data} compact={compact} h={h} /> : placeholder}</Suspense>;
}
