import { useId as useReactId } from 'react';

/**
 * Mantine's `useId` (its inputs' and popovers' ids), built from React's own: the same on the
 * server and in the browser, and kept. Mantine's replaces it with a random id in a layout effect
 * once mounted, which re-rendered every input of a screen the app takes over, at once, in one
 * long task (on a phone, management's took some 200 ms at 4× slower CPU).
 */
export function useId(staticId?: string): string {
  const id = `mantine-${useReactId().replace(/[^\w-]/g, '')}`;
  return typeof staticId === 'string' ? staticId : id;
}
