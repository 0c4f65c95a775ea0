import { memo, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Badge, Button, Code, Group, Modal, Paper, ScrollArea, SimpleGrid, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconCheck, IconRotateClockwise } from '@tabler/icons-react';
import type { Lead } from '../api/leads';
import { notifications } from '@mantine/notifications';
import { useLeadAction, useLeadDocument, useLeads, useSetLeadName } from '../api/leads';
import { useSession } from '../session/SessionProvider';
import { SpeedActions, SpeedBadges } from '../leads/LeadActivity';
import { useCompact } from './useCompact';
import { when } from './when';
import { APP_TIMEZONE } from '../api/meta';
import { dayKey } from '../../domain/time';
import { showFieldError, useSchemaForm } from '../forms/schemaForm';
import { leadNameSchema } from '../../domain/schemas';

/** "2015 Honda Civic · 82000 mi" */
const tradeInText = (t: NonNullable<Lead['tradeIn']>) => [[t.year, t.make, t.model].filter(Boolean).join(' '), t.odometer].filter(Boolean).join(' · ');

/** A lead that came in without a name: its salesman (or a manager) types the name in. */
function NameLead({ lead }: { lead: Lead }) {
  const [open, setOpen] = useState(false);
  const form = useSchemaForm(leadNameSchema, { customer: '' });
  const save = useSetLeadName(() => setOpen(false));
  return (
    <>
      <Button size="compact-xs" variant="light" onClick={() => setOpen(true)}>
        Set name
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Customer name" closeButtonProps={{ 'aria-label': 'Close' }}>
        <form onSubmit={form.onSubmit((v) => save.mutate({ id: lead.id, ...v }, { onError: (err) => showFieldError(form, err) }))}>
          <Stack>
            <Text size="sm" c="dimmed">
              {`This lead came in as "${lead.customer}".`}
            </Text>
            <TextInput label="Customer name" {...form.getInputProps('customer')} required maxLength={200} data-autofocus />
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending} disabled={!form.getValues().customer.trim()}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** The ADF document as it came in, shown as text (React escapes it), for managers. */
function DocumentButton({ lead }: { lead: Lead }) {
  const [open, setOpen] = useState(false);
  const doc = useLeadDocument(lead.id, open);
  return (
    <>
      <Button size="compact-xs" variant="subtle" onClick={() => setOpen(true)}>
        ADF document
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`ADF document: ${lead.customer}`} size="xl" closeButtonProps={{ 'aria-label': 'Close' }}>
        {doc.isPending ? (
          <Skeleton h={120} />
        ) : doc.isError ? (
          <Text c="red">{doc.error.message}</Text>
        ) : (
          <ScrollArea.Autosize mah="70vh">
            <Code block data-testid="lead-document">
              {doc.data.document}
            </Code>
          </ScrollArea.Autosize>
        )}
      </Modal>
    </>
  );
}

/** The contact and vehicle details an integration sent, under the customer's name. */
function Details({ lead: l }: { lead: Lead }) {
  const { user, isManager } = useSession();
  const vehicle = [l.vehicle, l.vin && `VIN ${l.vin}`].filter(Boolean).join(' · ');
  const contact = [l.phone, l.email].filter(Boolean).join(' · ');
  const mayName = isManager || (!!user && l.assignedTo === user.uid);
  return (
    <Stack gap={0}>
      <Group gap={6}>
        <Text size="sm" fw={500}>
          {l.customer}
        </Text>
        {l.nameMissing && (
          <Badge size="xs" color="orange" variant="light" data-testid="lead-name-missing">
            Name needed
          </Badge>
        )}
        {l.nameMissing && mayName && <NameLead lead={l} />}
        <SpeedBadges lead={l} />
      </Group>
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
      {l.tradeIn && (
        <Text size="xs" c="dimmed" data-testid="lead-trade-in">
          Trade-in: {tradeInText(l.tradeIn)}
        </Text>
      )}
      {l.comments && (
        <Text size="xs" c="dimmed" lineClamp={4} title={l.comments} style={{ whiteSpace: 'pre-line' }} data-testid="lead-comments">
          {l.comments}
        </Text>
      )}
      {l.source !== 'BDC Portal' && (
        <Text size="xs" c="dimmed" data-testid="lead-provider">
          via {l.source}
        </Text>
      )}
      {isManager && l.hasDocument && (
        <Group>
          <DocumentButton lead={l} />
        </Group>
      )}
    </Stack>
  );
}

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

const statusColor = (l: Lead) => (l.closed ? 'gray' : l.status === 'new' ? 'orange' : 'blue');

function Status({ lead: l }: { lead: Lead }) {
  return (
    <Badge variant="light" color={statusColor(l)} style={{ flexShrink: 0 }}>
      {l.status}
    </Badge>
  );
}

function FollowUp({ lead: l }: { lead: Lead }) {
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm">{l.assignedTo ? when(l.followUpDue) : '—'}</Text>
      {l.overdue && (
        <Badge color="red" variant="filled" size="sm">
          Overdue
        </Badge>
      )}
    </Stack>
  );
}

function Assignee({ lead: l }: { lead: Lead }) {
  return l.assignedTo ? (
    <>{l.assignedToName}</>
  ) : (
    <Badge variant="filled" color="red.9">
      Unassigned
    </Badge>
  );
}

/** What a row needs besides its lead; the same objects from one render to the next, so unchanged rows skip rendering. */
interface RowProps {
  lead: Lead;
  showAssignee: boolean;
  /** He may reopen it: a manager, or the salesman who closed it. */
  canReopen: boolean;
  busy: boolean;
  onAct: (id: number, close: boolean) => void;
  /** Today in the dealership's zone: "Today 2:44 PM" reads "Yesterday" after midnight. */
  day: string;
}

function Act({ lead: l, canReopen, busy, onAct, full = false }: Omit<RowProps, 'showAssignee' | 'day'> & { full?: boolean }) {
  if (l.closed && !canReopen) return null;
  return (
    <Button
      size={full ? 'sm' : 'xs'}
      fullWidth={full}
      variant={l.closed ? 'subtle' : 'light'}
      leftSection={l.closed ? <IconRotateClockwise size={16} aria-hidden /> : <IconCheck size={16} aria-hidden />}
      loading={busy}
      onClick={() => onAct(l.id, !l.closed)}
    >
      {l.closed ? 'Reopen' : 'Mark Closed'}
    </Button>
  );
}

// A live update refetches the list; only the leads that changed render again (React Query keeps
// an unchanged lead the same object).
const LeadCard = memo(function LeadCard({ showAssignee, day: _day, ...row }: RowProps) {
  const l = row.lead;
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-testid="lead-row">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          <Details lead={l} />
        </div>
        <Status lead={l} />
      </Group>
      <SimpleGrid cols={2} spacing="xs" verticalSpacing={6} mt="xs">
        {showAssignee && (
          <div>
            <Text size="xs" c="dimmed">
              Assigned to
            </Text>
            <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
              <Assignee lead={l} />
            </Text>
          </div>
        )}
        <div>
          <Text size="xs" c="dimmed">
            Assigned at
          </Text>
          <Text size="sm">{when(l.assignedAt)}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Follow-up due
          </Text>
          <FollowUp lead={l} />
        </div>
      </SimpleGrid>
      {(!l.closed || row.canReopen) && (
        <div style={{ marginTop: 10 }}>
          <Act {...row} full />
        </div>
      )}
      <Group gap="xs" mt={8}>
        <SpeedActions lead={l} />
      </Group>
    </Paper>
  );
});

const LeadRow = memo(function LeadRow({ showAssignee, day: _day, ...row }: RowProps) {
  const l = row.lead;
  return (
    <Table.Tr data-testid="lead-row">
      <Table.Td>
        <Details lead={l} />
      </Table.Td>
      {showAssignee && (
        <Table.Td>
          <Assignee lead={l} />
        </Table.Td>
      )}
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(l.assignedAt)}</Table.Td>
      <Table.Td>
        <Status lead={l} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <FollowUp lead={l} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Act {...row} />
          <SpeedActions lead={l} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
});

/** The leads table of the specification (cards on a phone); `canReopen` is false on a salesman's own list, where he may reopen only what he closed. */
function LeadsTable({ leads, canReopen, showAssignee = true }: { leads: Lead[]; canReopen: boolean; showAssignee?: boolean }) {
  const { mutate, isPending, variables } = useCloseWithUndo();
  const { user } = useSession();
  const compact = useCompact();
  const onAct = useCallback((id: number, close: boolean) => mutate({ id, close }), [mutate]);
  const day = dayKey(new Date(), APP_TIMEZONE);
  if (!leads.length) return <Text c="dimmed">No leads found.</Text>;
  const props = (l: Lead): RowProps & { key: number } => ({
    key: l.id,
    lead: l,
    showAssignee,
    canReopen: canReopen || (!!l.closedById && l.closedById === user?.uid),
    busy: isPending && variables?.id === l.id,
    onAct,
    day,
  });

  if (compact) {
    return (
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Leads">
        {leads.map((l) => {
          const { key, ...p } = props(l);
          return <LeadCard key={key} {...p} />;
        })}
      </Stack>
    );
  }

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
          {leads.map((l) => {
            const { key, ...p } = props(l);
            return <LeadRow key={key} {...p} />;
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A leads query shown a page at a time, with "Load more" while the server has more. */
export function PagedLeads({ query, ...table }: { query: ReturnType<typeof useLeads>; canReopen: boolean; showAssignee?: boolean }) {
  const leads = useMemo(() => query.data?.pages.flatMap((p) => p.leads), [query.data]);
  // A page of lead cards takes a slow phone a good part of a second to build: React builds it
  // in slices between which the page still answers taps (a deferred value), not in one go.
  const shown = useDeferredValue(leads ?? null, null);
  if (query.isPending || (leads && !shown))
    return (
      <Stack gap="xs" aria-hidden>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} h={48} />
        ))}
      </Stack>
    );
  // A failed load is said (with a Retry) by the screen above the list, never "No leads found.".
  if (query.isError && !query.data) return null;
  return (
    <>
      <LeadsTable leads={shown ?? []} {...table} />
      {query.hasNextPage && (
        <Button mt="md" variant="light" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
          Load more
        </Button>
      )}
    </>
  );
}
