import { Button, Group } from '@mantine/core';

/** A dialog form's last row: Cancel, and Save (the form's submit), busy while it saves. */
export function SaveCancel({ onCancel, saving }: { onCancel: () => void; saving: boolean }) {
  return (
    <Group justify="flex-end" mt="xs">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" color="blue.8" loading={saving}>
        Save
      </Button>
    </Group>
  );
}
