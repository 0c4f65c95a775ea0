import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import type { Lead } from '../api/leads';
import { useLeadAction } from '../api/leads';

const when = (iso: string) => new Date(iso).toLocaleString([], { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** The leads table of the specification; `canReopen` is false on a salesman's own list. */
export function LeadsTable({ leads, canReopen, showAssignee = true }: { leads: Lead[]; canReopen: boolean; showAssignee?: boolean }) {
  const action = useLeadAction();
  if (!leads.length) return <Text c="dimmed">No leads found.</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover aria-label="Leads">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Customer</Table.Th>
            {showAssignee && <Table.Th>Assigned To</Table.Th>}
            <Table.Th>Assigned At</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Follow-up Due</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {leads.map((l) => (
            <Table.Tr key={l.id} data-testid="lead-row">
              <Table.Td>{l.customer}</Table.Td>
              {showAssignee && <Table.Td>{l.assignedToName}</Table.Td>}
              <Table.Td>{when(l.assignedAt)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={l.closed ? 'gray' : 'blue'}>
                  {l.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  <Text size="sm">{when(l.followUpDue)}</Text>
                  {l.overdue && (
                    <Badge color="red" variant="filled" size="sm">
                      Overdue
                    </Badge>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td>
                <Group gap="xs">
                  {!l.closed ? (
                    <Button size="xs" variant="light" loading={action.isPending && action.variables?.id === l.id} onClick={() => action.mutate({ id: l.id, close: true })}>
                      Mark Closed
                    </Button>
                  ) : canReopen ? (
                    <Button size="xs" variant="subtle" loading={action.isPending && action.variables?.id === l.id} onClick={() => action.mutate({ id: l.id, close: false })}>
                      Reopen
                    </Button>
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
