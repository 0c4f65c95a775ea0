import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';

/** A failed load says what failed and why, with a Retry; nothing else stands in for the data. */
export function LoadError({ what, error, onRetry }: { what: string; error: Error | null; onRetry: () => unknown }) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={20} aria-hidden />}
      title={`Could not load ${what}`}
      role="alert"
      data-testid="load-error"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">{error?.message || 'Something went wrong.'}</Text>
        <Button size="xs" variant="filled" color="red.9" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void onRetry()}>
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
