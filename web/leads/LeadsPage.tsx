import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { Alert, Button, Checkbox, Group, Paper, Skeleton, Stack, TextInput } from '@mantine/core';
import { PageTitle } from '../components/PageTitle';
import { LeadsTable } from '../components/LeadsTable';
import { useLeads } from '../api/leads';

export default function LeadsPage() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const [open, setOpen] = useState(true);
  const leads = useLeads({ q, open });
  const rows = leads.data?.pages.flatMap((p) => p.leads) ?? [];

  return (
    <Stack>
      <PageTitle>Leads</PageTitle>
      <Group align="flex-end">
        <TextInput
          label="Search"
          placeholder="Search customers or assignee…"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 220 }}
          maxLength={200}
        />
        <Checkbox label="Only open" checked={open} onChange={(e) => setOpen(e.currentTarget.checked)} mb={8} />
      </Group>
      {leads.isError && <Alert color="red">Could not load the leads: {leads.error.message}</Alert>}
      <Paper withBorder p="md" radius="md">
        {leads.isPending ? <Skeleton h={120} /> : <LeadsTable leads={rows} canReopen />}
        {leads.hasNextPage && (
          <Button mt="md" variant="light" onClick={() => leads.fetchNextPage()} loading={leads.isFetchingNextPage}>
            Load more
          </Button>
        )}
      </Paper>
    </Stack>
  );
}
