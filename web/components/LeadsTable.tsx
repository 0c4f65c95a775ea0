import { Badge, Button, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { Lead } from '../api/leads';
import { notifications } from '@mantine/notifications';
import { useLeadAction, useLeads } from '../api/leads';
import { useSession } from '../session/SessionProvider';

/** The contact and vehicle details an integration sent, under the customer's name. */
function Details({ lead: l }: { lead: Lead }) {
  const vehicle = [l.vehicle, l.vin && `VIN ${l.vin}`].filter(Boolean).join(' · ');
  const contact = [l.phone, l.email].filter(Boolean).join(' · ');
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {l.customer}
      </Text>
      {contact && (
        <Text size="xs" c="dimmed" data-testid="lead-contact">
          {contact}
        </Text>
      )}
      {vehicle && (
        <Text size="xs" c="dimmed" data-testid="lead-vehicle">
          {vehicle}
        </Text>
      )}
      {l.comments && (
        <Text size="xs" c="dimmed" lineClamp={2} title={l.comments} style={{ whiteSpace: 'pre-line' }} data-testid="lead-comments">
          {l.comments}
        </Text>
      )}
      {l.source !== 'BDC Portal' && (
        <Text size="xs" c="dimmed">
          via {l.source}
        </Text>
      )}
    </Stack>
  );
}

const when = (iso: string) => new Date(iso).toLocaleString([], { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** Every close says so, with an Undo that reopens it (a salesman may undo his own close). */
function useCloseWithUndo() {
  const undo = useLeadAction();
  return useLeadAction((lead) => {
    const id = `closed-${lead.id}`;
    notifications.show({
      id,
      color: 'green',
      message: (
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text size="sm">{`${lead.customer} closed.`}</Text>
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => {
              notifications.hide(id);
              undo.mutate({ id: lead.id, close: false });
            }}
          >
            Undo
          </Button>
        </Group>
      ),
      autoClose: 8000,
    });
  });
}

/** The leads table of the specification; `canReopen` is false on a salesman's own list, where he may reopen only what he closed. */
export function LeadsTable({ leads, canReopen, showAssignee = true }: { leads: Lead[]; canReopen: boolean; showAssignee?: boolean }) {
  const action = useCloseWithUndo();
  const { user } = useSession();
  if (!leads.length) return <Text c="dimmed">No leads found.</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
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
              <Table.Td>
                <Details lead={l} />
              </Table.Td>
              {showAssignee && (
                <Table.Td>
                  {l.assignedTo ? (
                    l.assignedToName
                  ) : (
                    <Badge variant="filled" color="red.9">
                      Unassigned
                    </Badge>
                  )}
                </Table.Td>
              )}
              <Table.Td>{when(l.assignedAt)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={l.closed ? 'gray' : l.status === 'new' ? 'orange' : 'blue'}>
                  {l.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  <Text size="sm">{l.assignedTo ? when(l.followUpDue) : '—'}</Text>
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
                    <Button
                      size="xs"
                      variant="light"
                      loading={action.isPending && action.variables?.id === l.id}
                      onClick={() => action.mutate({ id: l.id, close: true })}
                    >
                      Mark Closed
                    </Button>
                  ) : canReopen || l.closedById === user?.uid ? (
                    <Button
                      size="xs"
                      variant="subtle"
                      loading={action.isPending && action.variables?.id === l.id}
                      onClick={() => action.mutate({ id: l.id, close: false })}
                    >
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

/** A leads query shown a page at a time, with "Load more" while the server has more. */
export function PagedLeads({ query, ...table }: { query: ReturnType<typeof useLeads>; canReopen: boolean; showAssignee?: boolean }) {
  if (query.isPending) return <Skeleton h={100} />;
  return (
    <>
      <LeadsTable leads={query.data?.pages.flatMap((p) => p.leads) ?? []} {...table} />
      {query.hasNextPage && (
        <Button mt="md" variant="light" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
          Load more
        </Button>
      )}
    </>
  );
}
