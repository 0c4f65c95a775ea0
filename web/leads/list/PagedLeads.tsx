import { useMemo, type ReactNode } from 'react';
import { useBuiltAfter } from '../../components/AfterDraw';
import { Button, Skeleton, Stack, Title } from '@mantine/core';
import type { Lead, useLeads } from '../../api/leads';
import { useTimeZone } from '../../stores/store';
import { dayKey } from '../../../domain/time';
import { LeadsList } from './LeadsList';
import { LeadDialogs, useLeadDialogs, type OpenDialog } from './LeadDialogs';

/** A salesman's day: what is overdue, then what falls due today, then the rest. */
function DueFirst({ leads, ...list }: { leads: Lead[]; onOpen: OpenDialog; showAssignee?: boolean }) {
  const tz = useTimeZone();
  const today = dayKey(new Date(), tz);
  const dueToday = (l: Lead) => !l.overdue && !l.closed && !!l.assignedTo && dayKey(new Date(l.followUpDue), tz) === today;
  const groups = [
    { title: 'Overdue', leads: leads.filter((l) => l.overdue) },
    { title: 'Due today', leads: leads.filter(dueToday) },
    { title: 'Other open leads', leads: leads.filter((l) => !l.overdue && !dueToday(l)) },
  ].filter((g) => g.leads.length);
  if (!groups.length) return <LeadsList leads={[]} {...list} />;
  return (
    <Stack gap="md">
      {groups.map((g) => (
        <Stack key={g.title} gap="xs" component="section" aria-label={g.title}>
          <Title order={3} size="h5" data-testid="due-group">
            {g.title} ({g.leads.length})
          </Title>
          <LeadsList leads={g.leads} {...list} />
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * A leads query shown a page at a time, with "Load more" while the server has more; its leads'
 * dialogs open above the rows. `dueFirst`: grouped as a salesman works them (overdue, due today, the rest).
 */
export function PagedLeads({ query, dueFirst = false, ...list }: { query: ReturnType<typeof useLeads>; showAssignee?: boolean; dueFirst?: boolean }) {
  const leads = useMemo(() => query.data?.pages.flatMap((p) => p.leads), [query.data]);
  // A page of lead cards takes a slow phone a good part of a second to build: React builds it
  // in slices between which the page still answers taps (a deferred value), not in one go. A
  // page the server drew has them: taking them over is lighter than building them.
  const shown = useBuiltAfter(leads ?? null);
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
        {dueFirst ? <DueFirst leads={shown ?? []} onOpen={open} {...list} /> : <LeadsList leads={shown ?? []} onOpen={open} {...list} />}
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
