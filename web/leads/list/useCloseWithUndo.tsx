import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useLeadAction } from '../../api/leads';

/** Closes or reopens; every close says so, with an Undo that reopens it (a salesman may undo his own close). */
export function useCloseWithUndo() {
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
