import { memo } from 'react';
import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { useWhen } from '../../components/when';
import type { RowProps } from './LeadsList';
import { LeadDetails } from './LeadDetails';
import { Assignee, FollowUp, Stage } from './LeadCells';
import { SpeedActions, StageActions } from './LeadActions';

/** A lead as a card on a phone; like the row, it renders again only when its lead changed. */
export const LeadCard = memo(function LeadCard({ showAssignee, day: _day, ...row }: RowProps) {
  const when = useWhen();
  const l = row.lead;
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-testid="lead-row" className="laid-out-near">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          <LeadDetails lead={l} onOpen={row.onOpen} />
        </div>
        <Stage lead={l} />
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
      <Group gap="xs" mt={10}>
        <StageActions {...row} />
        <SpeedActions {...row} />
      </Group>
    </Paper>
  );
});
