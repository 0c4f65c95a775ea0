import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { readCode, storePath } from '../../domain/stores';
import { useSession } from '../session/SessionProvider';
import { PageLoader } from '../shell/guards';
import NotFoundPage from '../components/NotFoundPage';
import { StoreContext } from './store';

/**
 * A code not among his stores may be one added (or given to him) since the page loaded: his
 * stores are asked for again, once per code, before the screen says Not found.
 */
function useRecheck(unknown: string | null) {
  const qc = useQueryClient();
  const [checked, setChecked] = useState<string | null>(null);
  useEffect(() => {
    if (unknown === null || checked === unknown) return;
    let live = true;
    void qc.refetchQueries({ queryKey: ['me'] }).finally(() => live && setChecked(unknown));
    return () => {
      live = false;
    };
  }, [unknown, checked, qc]);
  return unknown !== null && checked !== unknown;
}

/**
 * The screens of one store: /s/:code/... (or, without a code, the person's own store, for the
 * group screen). Every screen below reads the store from here: its data, its clock, its links.
 * A code he may not open is Not found, as the server answers it.
 */
export function StoreScope() {
  const { user } = useSession();
  const { pathname, search, hash } = useLocation();
  const written = useParams().code;
  const code = written === undefined ? (user?.store ?? null) : readCode(written);
  const store = user?.stores.find((s) => s.code === code) ?? null;
  const rechecking = useRecheck(written !== undefined && code !== null && !store ? code : null);
  if (written === undefined && !user?.store) return <NoStorePage />;
  if (rechecking) return <PageLoader />;
  if (!store) return <NotFoundPage />;
  // /s/nsh/... is /s/NSH/...: one address per screen.
  if (written !== undefined && written !== store.code)
    return <Navigate to={`${storePath(store.code, pathname.slice(3 + written.length))}${search}${hash}`} replace />;
  return (
    <StoreContext.Provider value={store}>
      {/* Another store is another screen: nothing typed or opened in one stays in the next. */}
      <Outlet key={store.code} />
    </StoreContext.Provider>
  );
}

/** An address from before stores (/dashboard/...): the same screen in his own store, so old links and bookmarks keep working. */
export function HomeRedirect() {
  const { user } = useSession();
  const { pathname, search, hash } = useLocation();
  if (!user?.store) return <NoStorePage />;
  return <Navigate to={`${storePath(user.store, pathname)}${search}${hash}`} replace />;
}

function NoStorePage() {
  const { logout } = useSession();
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" maw={420}>
        <Title order={1}>No store yet</Title>
        <Text c="dimmed" ta="center">
          You are not in any store of the group. Ask a manager to add you to one, then sign in again.
        </Text>
        <Button variant="default" onClick={() => void logout()}>
          Logout
        </Button>
      </Stack>
    </Center>
  );
}
