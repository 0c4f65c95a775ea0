import { useEffect, useState } from 'react';

/** The clock, ticking every `everyMs` while `ticking` (something on screen depends on the time). */
export function useNow(ticking: boolean, everyMs = 1000) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!ticking) return;
    const t = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(t);
  }, [ticking, everyMs]);
  return now;
}

/** The time now, drawn again the moment `nextChange` says what the screen shows changes by the clock alone. */
export function useNowUntil(nextChange: (now: Date) => Date | null) {
  const [now, setNow] = useState(() => new Date());
  const at = nextChange(now)?.getTime() ?? null;
  useEffect(() => {
    if (at === null) return;
    // setTimeout holds at most about 24.8 days; a change further off is asked again then.
    const t = setTimeout(() => setNow(new Date()), Math.min(Math.max(at - Date.now(), 0) + 50, 2 ** 31 - 1));
    return () => clearTimeout(t);
  }, [at]);
  return now;
}
