import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { useSession } from '../session/SessionProvider';
import { useStorePath } from '../stores/store';

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
  const to = useStorePath();
  if (!isManager) return <Navigate to={to('/dashboard/overview')} replace />;
  return <>{children}</>;
}

/** The group's screens: a group manager's only (the server refuses anyone else too). */
export function RequireGroupManager({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const to = useStorePath();
  if (!user?.groupManager) return <Navigate to={to('/dashboard/overview')} replace />;
  return <>{children}</>;
}
