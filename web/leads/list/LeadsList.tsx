import { Stack, Table, Text } from '@mantine/core';
import type { Lead } from '../../api/leads';
import { useCompact } from '../../components/useCompact';
import { useTimeZone } from '../../stores/store';
import { dayKey } from '../../../domain/time';
import type { OpenDialog } from './LeadDialogs';
import { LeadRow } from './LeadRow';
import { LeadCard } from './LeadCard';

/** What a row needs besides its lead; the same objects from one render to the next, so unchanged rows skip rendering. */
export interface RowProps {
  lead: Lead;
  showAssignee: boolean;
  onOpen: OpenDialog;
  /** Today in the dealership's zone: "Today 2:44 PM" reads "Yesterday" after midnight. */
  day: string;
}

/** The leads table of the specification (cards on a phone). */
export function LeadsList({ leads, showAssignee = true, onOpen }: { leads: Lead[]; showAssignee?: boolean; onOpen: OpenDialog }) {
  const compact = useCompact();
  const tz = useTimeZone();
  const day = dayKey(new Date(), tz);
  if (!leads.length) return <Text c="dimmed">No leads found.</Text>;
  const props = (l: Lead): RowProps & { key: number } => ({
    key: l.id,
    lead: l,
    showAssignee,
    onOpen,
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
            {/* The specification's column: it shows the lead's stage. */}
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
