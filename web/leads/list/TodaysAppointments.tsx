import { Paper, Stack, Title } from '@mantine/core';
import { useAppointments } from '../../api/leads';
import { LeadsList } from './LeadsList';
import { LeadDialogs, useLeadDialogs } from './LeadDialogs';

/** Today's appointments, soonest first, each with Shown / No-show; nothing at all when there are none. */
export function TodaysAppointments({ showAssignee }: { showAssignee: boolean }) {
  const q = useAppointments();
  const { open, ...dialogs } = useLeadDialogs(q.data?.leads, { linked: false });
  if (!q.data?.leads.length) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="appointments-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="appointments-title">
          {`Today's appointments (${q.data.leads.length})`}
        </Title>
        <LeadsList leads={q.data.leads} showAssignee={showAssignee} onOpen={open} />
      </Stack>
      <LeadDialogs {...dialogs} />
    </Paper>
  );
}
