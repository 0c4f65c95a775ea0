import { useMemo, useState, type ReactNode } from 'react';
import { useBuiltAfter } from '../../components/AfterDraw';
import { Button, Skeleton, Stack, Title, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { Lead, useLeads } from '../../api/leads';
import { useTimeZone } from '../../stores/store';
import { dayKey } from '../../../domain/time';
import { LeadsList } from './LeadsList';
import { LeadDialogs, useLeadDialogs, type OpenDialog } from './LeadDialogs';

/**
 * A salesman's day, what needs him first: leads waiting for his Accept, then new ones (accepted,
 * not yet contacted) and those due today; Overdue folds away while anything is above it; then the rest.
 */
function DueFirst({ leads, ...list }: { leads: Lead[]; onOpen: OpenDialog; showAssignee?: boolean }) {
  const tz = useTimeZone();
  const today = dayKey(new Date(), tz);
  const waiting = leads.filter((l) => l.stage === 'waiting');
  const overdue = leads.filter((l) => l.stage !== 'waiting' && l.overdue);
  const now = leads.filter(
    (l) => l.stage !== 'waiting' && !l.overdue && !l.closed && !!l.assignedTo && (l.stage === 'accepted' || dayKey(new Date(l.followUpDue), tz) === today),
  );
  const rest = leads.filter((l) => !waiting.includes(l) && !overdue.includes(l) && !now.includes(l));
  const groups = [
    { title: 'Waiting for your Accept', leads: waiting },
    { title: 'New and due today', leads: now },
    { title: 'Overdue', leads: overdue, folds: waiting.length + now.length > 0 },
    { title: 'Other open leads', leads: rest },
  ].filter((g) => g.leads.length);
  if (!groups.length) return <LeadsList leads={[]} {...list} />;
  return (
    <Stack gap="md">
      {groups.map((g) => (
        <DayGroup key={g.title} title={g.title} leads={g.leads} folded={!!g.folds} {...list} />
      ))}
    </Stack>
  );
}

/** One group of the salesman's day under its heading; a folded one opens on a tap of its heading. */
function DayGroup({ title, leads, folded, ...list }: { title: string; leads: Lead[]; folded: boolean; onOpen: OpenDialog; showAssignee?: boolean }) {
  const [open, setOpen] = useState(!folded);
  const heading = `${title} (${leads.length})`;
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} size="h5" data-testid="due-group">
        {folded ? (
          <UnstyledButton
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            style={{ display: 'inline-flex', alignItems: 'center', gap: 6, font: 'inherit' }}
          >
            {open ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
            {heading}
          </UnstyledButton>
        ) : (
          heading
        )}
      </Title>
      {open && <LeadsList leads={leads} {...list} />}
    </Stack>
  );
}

/**
 * A leads query shown a page at a time, with "Load more" while the server has more; its leads'
 * dialogs open above the rows. `dueFirst`: grouped as a salesman works them (see DueFirst).
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
