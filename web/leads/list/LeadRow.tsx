import { memo } from 'react';
import { Group, Table } from '@mantine/core';
import { useWhen } from '../../components/when';
import type { RowProps } from './LeadsList';
import { LeadDetails } from './LeadDetails';
import { Assignee, FollowUp, Stage } from './LeadCells';
import { SpeedActions, StageActions } from './LeadActions';

/** A lead as a row of the desktop table; it renders again only when its lead changed (React Query keeps an unchanged lead the same object). */
export const LeadRow = memo(function LeadRow({ showAssignee, day: _day, ...row }: RowProps) {
  const when = useWhen();
  const l = row.lead;
  return (
    <Table.Tr data-testid="lead-row">
      <Table.Td>
        <LeadDetails lead={l} onOpen={row.onOpen} />
      </Table.Td>
      {showAssignee && (
        <Table.Td>
          <Assignee lead={l} />
        </Table.Td>
      )}
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(l.assignedAt)}</Table.Td>
      <Table.Td>
        <Stage lead={l} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <FollowUp lead={l} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs">
          <StageActions {...row} />
          <SpeedActions {...row} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
});
