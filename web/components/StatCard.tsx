import { Group, Paper, Skeleton, Text } from '@mantine/core';
import { IconMinus, IconTrendingDown, IconTrendingUp } from '@tabler/icons-react';
import { change } from '../../domain/format';

export interface Comparison {
  now: number;
  before: number;
  /** "last month", "last year": what the figure is compared with. */
  against: string;
}

/**
 * A small labelled figure: the cards at the top of the overview, the salesman's page and the
 * sales tracker. `value` undefined: still loading (a skeleton, never a made-up figure).
 */
export function StatCard({
  label,
  value,
  testId,
  compare,
  hint,
  big = false,
}: {
  label: string;
  value: string | number | undefined;
  testId?: string;
  compare?: Comparison;
  /** A line under the figure that explains it. */
  hint?: string;
  big?: boolean;
}) {
  const c = compare && change(compare.now, compare.before);
  const Icon = c?.direction === 'up' ? IconTrendingUp : c?.direction === 'down' ? IconTrendingDown : IconMinus;
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      {value === undefined ? (
        // As tall as the figure that replaces it (its font size × line height), so nothing below moves.
        <Skeleton h={big ? '2.7rem' : '1.5rem'} w="60%" />
      ) : (
        <Text size={big ? '2.25rem' : 'xl'} lh={1.2} fw={700} data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
          {value}
        </Text>
      )}
      {hint && (
        <Text size="sm" c="dimmed" mt={2} data-testid={testId ? `${testId}-hint` : undefined}>
          {hint}
        </Text>
      )}
      {c && compare && (
        <Group gap={4} mt={4} wrap="nowrap" data-testid={testId ? `${testId}-change` : undefined}>
          <Icon size={16} aria-hidden color={`var(--mantine-color-${c.direction === 'up' ? 'teal' : c.direction === 'down' ? 'red' : 'gray'}-text)`} />
          <Text size="xs" c="dimmed">
            {c.text === 'same' ? `Same as ${compare.against}` : c.text === 'new' ? `None ${compare.against}` : `${c.text} vs ${compare.against}`}
          </Text>
        </Group>
      )}
    </Paper>
  );
}
