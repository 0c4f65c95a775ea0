import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDebouncedValue } from '@mantine/hooks';
import { Checkbox, Group, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { PageTitle } from '../components/PageTitle';
import { PagedLeads } from './list/PagedLeads';
import { TodaysAppointments } from './list/TodaysAppointments';
import { LoadError } from '../components/LoadError';
import { useLeads } from '../api/leads';
import { useMailTab } from '../mail/MailTab';
import { MailToReview } from '../mail/MailToReview';

export default function LeadsPage() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const [open, setOpen] = useState(true);
  // The mail about a lead no one accepted links here with ?view=unassigned.
  const [params] = useSearchParams();
  const mailTab = useMailTab();
  const asked = params.get('view');
  const [view, setView] = useState<string>(asked === 'unassigned' || (asked === 'mail' && mailTab.length) ? asked : 'all');
  const unassigned = view === 'unassigned';
  // Mail to review shows no leads: they are asked for when another view is picked.
  const leads = useLeads({ q, open, unassigned }, view !== 'mail');

  const picker = (
    <SegmentedControl
      aria-label="Which leads"
      value={view}
      onChange={(v) => setView(v)}
      data={[{ value: 'all', label: 'All leads' }, { value: 'unassigned', label: 'Unassigned' }, ...mailTab]}
      style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
    />
  );
  if (view === 'mail')
    return (
      <Stack>
        <PageTitle>Leads</PageTitle>
        {picker}
        <MailToReview />
      </Stack>
    );
  return (
    <Stack>
      <PageTitle>Leads</PageTitle>
      <TodaysAppointments showAssignee />
      {picker}
      {unassigned && (
        <Text size="sm" c="dimmed">
          Leads that arrived while no one was eligible, or that no salesman accepted in time. The first are handed out first, by the round robin, as soon as
          someone is on the floor or a manager assigns; a lead handed on three times waits here for a manager to Hand out.
        </Text>
      )}
      <Group align="flex-end">
        <TextInput
          label="Search"
          placeholder="Search customers or assignee…"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: '1 1 220px', minWidth: 0 }}
          maxLength={200}
        />
        <Checkbox label="Only open" checked={open} onChange={(e) => setOpen(e.currentTarget.checked)} mb={8} />
      </Group>
      {leads.isError && !leads.data ? (
        <LoadError what="the leads" error={leads.error} onRetry={() => leads.refetch()} />
      ) : (
        <Paper withBorder p="md" radius="md" component="section" aria-label="Lead list">
          <PagedLeads query={leads} />
        </Paper>
      )}
    </Stack>
  );
}
