import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call, setUnauthorizedHandler } from '../api/client';
import { forgetThisDevice } from '../notices/device';
import { ApiError } from '../../domain/errors';
import type { Role } from '../../domain/roles';
import type { SessionUser } from '../../domain/contract/answers';
import { MSG } from '../../domain/auth-messages';
import { effectiveRole, normalizeEmail } from '../../domain/roles';

const EMAIL_KEY = 'emailForSignIn';
/** Session storage key: why an open dashboard sent its user to sign in ("access-off", "signed-out"), shown once there. */
export const SIGNED_OUT_WHY = 'signedOutWhy';
export type SignedOutWhy = 'access-off' | 'signed-out';

export interface Session {
  user: SessionUser | null;
  loading: boolean;
  authError: string | null;
  role: Role;
  isManager: boolean;
  sendMagicLink: (email: string) => Promise<void>;
  completeMagicFromUrl: (href?: string) => Promise<SessionUser>;
  updateProfileName: (name: string, greeting?: string | null) => Promise<void>;
  logout: () => Promise<void>;
}

const SessionContext = createContext<Session | null>(null);
const ME = ['me'] as const;

/** Signed out is answered { user: null }, not 401, so a first visit logs no error. */
async function fetchMe(): Promise<SessionUser | null> {
  return (await call('GET /auth/me')).user;
}

/** Who is signed in: asked once, kept until a sign-in, a sign-out or an event says otherwise. */
export const meQuery = { queryKey: ME, queryFn: fetchMe, staleTime: Infinity, retry: 1 };

export function SessionProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const me = useQuery(meQuery);
  const user = me.data ?? null;

  const clear = useCallback(() => {
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
    qc.setQueryData(ME, null);
  }, [qc]);

  useEffect(() => {
    setUnauthorizedHandler(clear);
    return () => setUnauthorizedHandler(null);
  }, [clear]);

  const sendMagicLink = useCallback(async (raw: string) => {
    const email = normalizeEmail(raw ?? '');
    if (!email) throw new Error(MSG.emailRequired);
    await call('POST /auth/link', { body: { email } });
    localStorage.setItem(EMAIL_KEY, email);
  }, []);

  const completeMagicFromUrl = useCallback(
    async (href = window.location.href) => {
      const url = new URL(href);
      const token = url.searchParams.get('t');
      if (!token) throw new Error(MSG.invalidLink);
      const email = url.searchParams.get('e') || localStorage.getItem(EMAIL_KEY);
      if (!email) throw new Error(MSG.missingEmail);
      try {
        const { user: signedIn } = await call('POST /auth/complete', { body: { email, token } });
        localStorage.removeItem(EMAIL_KEY);
        // A "who am I" answered before the link was spent must not overwrite the new session.
        await qc.cancelQueries({ queryKey: ME });
        qc.setQueryData(ME, signedIn);
        return signedIn;
      } catch (err) {
        if (err instanceof ApiError && err.code) throw new Error(`auth/${err.code}: ${err.message}`);
        throw err;
      }
    },
    [qc],
  );

  const updateProfileName = useCallback(
    async (name: string, greeting?: string | null) => {
      if (!user) throw new Error(MSG.notSignedIn);
      const trimmed = (name ?? '').trim();
      if (!trimmed) throw new Error(MSG.nameRequired);
      const body: { name: string; greeting?: string | null } = { name: trimmed };
      if (greeting !== undefined) body.greeting = greeting;
      const { user: updated } = await call('PATCH /profile', { body });
      qc.setQueryData(ME, updated);
    },
    [user, qc],
  );

  const logout = useCallback(async () => {
    try {
      await forgetThisDevice();
      await call('POST /auth/logout');
    } finally {
      localStorage.removeItem(EMAIL_KEY);
      clear();
    }
  }, [clear]);

  const value = useMemo<Session>(() => {
    const role = effectiveRole(user?.profile?.role, user?.profileRole, user?.claimRole);
    return {
      user,
      loading: me.isPending,
      authError: me.isError ? me.error?.message || 'Auth error' : null,
      role,
      isManager: !!user && role === 'manager',
      sendMagicLink,
      completeMagicFromUrl,
      updateProfileName,
      logout,
    };
  }, [user, me.isPending, me.isError, me.error, sendMagicLink, completeMagicFromUrl, updateProfileName, logout]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
