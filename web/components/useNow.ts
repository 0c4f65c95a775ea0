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
