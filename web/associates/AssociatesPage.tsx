import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Group, Paper, SimpleGrid, Stack, Textarea, Title } from '@mantine/core';
import { PageTitle } from '../components/PageTitle';
import { StatCard } from '../components/StatCard';
import { PagedLeads } from '../leads/list/PagedLeads';
import { TodaysAppointments } from '../leads/list/TodaysAppointments';
import { LoadError } from '../components/LoadError';
import { notifyFail, notifyOk } from '../components/notify';
import { call } from '../api/client';
import { useKpis, useLeads, useMyCounts } from '../api/leads';
import { useSession } from '../session/SessionProvider';
import { MySpeed } from '../stats/SpeedFigures';
import { Fairness } from '../ledger/Fairness';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';

function Notes() {
  const saved = useQuery({ queryKey: ['notes'], queryFn: () => call('GET /profile/notes') });
  const form = useSchemaForm((c) => c.notesSchema, { notes: '' });
  const { notes } = form.getValues();
  // When the saved notes arrive (or change elsewhere), the editor shows them.
  const [shown, setShown] = useState<string | null>(null);
  if (saved.data && saved.data.notes !== shown) {
    setShown(saved.data.notes);
    form.setValues({ notes: saved.data.notes });
  }
  const save = useMutation({
    mutationFn: (body: { notes: string }) => call('PUT /profile/notes', { body }),
    onSuccess: () => notifyOk('Notes saved.'),
    onError: (err) => showFieldError(form, err) || notifyFail('Failed to save notes', err),
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Textarea label="Notes" autosize minRows={4} maxLength={5000} {...form.getInputProps('notes')} disabled={saved.isPending} />
        <Button
          onClick={() => void Promise.resolve(form.validate()).then((r) => !r.hasErrors && save.mutate(form.getValues()))}
          loading={save.isPending}
          disabled={saved.data?.notes === notes}
          style={{ alignSelf: 'flex-start' }}
        >
          Save notes
        </Button>
      </Stack>
    </Paper>
  );
}

export default function AssociatesPage() {
  const counts = useMyCounts();
  const [open, setOpen] = useState(true);
  const leads = useLeads({ q: '', open, mine: true });
  const { user } = useSession();
  const kpis = useKpis(user?.role === 'staff');
  return (
    <Stack>
      <PageTitle>My Stats & Notes</PageTitle>
      {/* What needs him now first: today's appointments, then his leads (waiting for his Accept, new, due today). */}
      <TodaysAppointments showAssignee={false} />
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-leads-title">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4" id="my-leads-title">
            My leads
          </Title>
          <Checkbox label="Only open" checked={open} onChange={(e) => setOpen(e.currentTarget.checked)} />
        </Group>
        {leads.isError && !leads.data ? (
          <LoadError what="your leads" error={leads.error} onRetry={() => leads.refetch()} />
        ) : (
          <PagedLeads query={leads} showAssignee={false} dueFirst={open} />
        )}
      </Paper>
      {counts.isError ? (
        <LoadError what="your counts" error={counts.error} onRetry={() => counts.refetch()} />
      ) : (
        <SimpleGrid cols={{ base: 2 }}>
          <StatCard
            label="Assigned Today"
            value={counts.data?.assignedToday}
            testId="assigned-today"
            compare={counts.data && { now: counts.data.assignedToday, before: counts.data.sameDayLastWeek, against: 'last week' }}
          />
          <StatCard
            label="Total Month"
            value={counts.data?.assignedMonth}
            testId="total-month"
            compare={counts.data && { now: counts.data.assignedMonth, before: counts.data.lastMonthSoFar, against: 'last month' }}
          />
        </SimpleGrid>
      )}
      {kpis.data && user && <MySpeed speed={kpis.data.speed} uid={user.uid} />}
      <Fairness />
      <Notes />
    </Stack>
  );
}
