import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useSetLeadName, type Lead } from '../../api/leads';
import { showFieldError, useSchemaForm } from '../../forms/schemaForm';

/** A lead that came in without a name: its salesman (or a manager) types the name in. */
export function NameDialog({ lead, opened, onClose }: { lead: Lead; opened: boolean; onClose: () => void }) {
  const form = useSchemaForm((c) => c.leadNameSchema, { customer: '' });
  const save = useSetLeadName(onClose);
  return (
    <Modal opened={opened} onClose={onClose} title="Customer name" closeButtonProps={{ 'aria-label': 'Close' }}>
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
  );
}
