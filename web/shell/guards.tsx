import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { useSession } from '../session/SessionProvider';

export const PageLoader = () => (
  <Center mih="100dvh">
    <Loader aria-label="Loading" />
  </Center>
);

export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  if (loading) return <PageLoader />;
  if (!user) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** Courtesy only: the server refuses non-managers on every manager route. */
export function RequireManager({ children }: { children: ReactNode }) {
  const { isManager } = useSession();
  if (!isManager) return <Navigate to="/dashboard/overview" replace />;
  return <>{children}</>;
}
