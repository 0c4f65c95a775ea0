import type { Bus, PortalEvent } from '../events/bus';

/** A signed-in session as a request sees it: the person and the session's own times and limits. */
export interface SessionSeen<U extends { id: string }> {
  user: U;
  sid: string;
  created: number;
  expires: number;
  seen: number;
  via: string;
  recheck: number | null;
  refresh: string | null;
}

/** How long this server answers for a session without asking the database again (ms). */
const SESSION_KEEP_MS = 10_000;
const MAX_KEPT = 10_000;

/**
 * The sessions this app server has looked up lately, by their hash, so a signed-in request costs
 * no database round trip. Whatever changes a person or ends a session publishes an event (users,
 * profile, session-revoked), and every app server forgets what the event concerns as it hears it
 * (its own events at once, before they travel: bus.heard), so a sign-out, a disable or a role
 * change on any server counts from the next request everywhere. A reconnected bus may have missed
 * events (hello): everything is forgotten. A change that publishes nothing (the command line, a
 * hand edit of the database) counts within `keepMs`.
 */
export function sessionCache<U extends { id: string }>(bus: Bus, keepMs = SESSION_KEEP_MS) {
  const kept = new Map<string, { session: SessionSeen<U>; until: number }>();
  // A look-up that began before an event must not store what it read: it may be what the event ended.
  let generation = 0;

  const forget = (e: PortalEvent) => {
    if (e.topic !== 'session-revoked' && e.topic !== 'users' && e.topic !== 'profile' && e.topic !== 'hello') return;
    generation++;
    if (!e.userId || e.topic === 'users') return kept.clear();
    for (const [hash, k] of kept) if (k.session.user.id === e.userId && (!e.sid || k.session.sid === e.sid)) kept.delete(hash);
  };
  const stop = keepMs > 0 ? bus.heard(forget) : () => undefined;

  return {
    /** The session kept for this hash, if it is still good at `now`. */
    get(hash: string, now: number): SessionSeen<U> | undefined {
      const k = kept.get(hash);
      if (!k) return undefined;
      if (k.until > now && k.session.expires > now) return k.session;
      kept.delete(hash);
      return undefined;
    },
    /** A mark taken before reading the database; `put` stores only if nothing was forgotten since. */
    mark: () => generation,
    put(hash: string, session: SessionSeen<U>, mark: number, now: number) {
      if (keepMs <= 0 || mark !== generation) return;
      if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string);
      kept.set(hash, { session, until: now + keepMs });
    },
    drop: (hash: string) => void kept.delete(hash),
    stop,
  };
}

export type SessionCache<U extends { id: string }> = ReturnType<typeof sessionCache<U>>;
