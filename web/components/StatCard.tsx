import { Paper, Text } from '@mantine/core';

/** A small labelled figure: the cards at the top of the overview, the salesman's page and the sales tracker. */
export function StatCard({ label, value, testId }: { label: string; value: string | number | undefined; testId?: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value ?? '…'}
      </Text>
    </Paper>
  );
}
