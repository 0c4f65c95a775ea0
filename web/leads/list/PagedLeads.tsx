import { useDeferredValue, useMemo, type ReactNode } from 'react';
import { Button, Skeleton, Stack } from '@mantine/core';
import type { useLeads } from '../../api/leads';
import { LeadsList } from './LeadsList';
import { LeadDialogs, useLeadDialogs } from './LeadDialogs';

/** A leads query shown a page at a time, with "Load more" while the server has more; its leads' dialogs open above the rows. */
export function PagedLeads({ query, ...list }: { query: ReturnType<typeof useLeads>; showAssignee?: boolean }) {
  const leads = useMemo(() => query.data?.pages.flatMap((p) => p.leads), [query.data]);
  // A page of lead cards takes a slow phone a good part of a second to build: React builds it
  // in slices between which the page still answers taps (a deferred value), not in one go.
  const shown = useDeferredValue(leads ?? null, null);
  const { open, ...dialogs } = useLeadDialogs(leads);
  let pages: ReactNode = null;
  if (query.isPending || (leads && !shown))
    pages = (
      <Stack gap="xs" aria-hidden>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} h={48} />
        ))}
      </Stack>
    );
  // A failed load is said (with a Retry) by the screen above the list, never "No leads found.".
  else if (!query.isError || query.data)
    pages = (
      <>
        <LeadsList leads={shown ?? []} onOpen={open} {...list} />
        {query.hasNextPage && (
          <Button mt="md" variant="light" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            Load more
          </Button>
        )}
      </>
    );
  return (
    <>
      {pages}
      <LeadDialogs {...dialogs} />
    </>
  );
}
