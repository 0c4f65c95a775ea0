import { lazy } from 'react';
import { Paper, SimpleGrid, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { Tracker } from './api';
import { AfterDraw } from '../../components/AfterDraw';
import { money } from './money';

// The chart library is large: the figures, titles and summaries show first; it is fetched once
// the screen has drawn, and the drawings follow.
const Plot = lazy(() => import('./Plots'));
const total = (xs: number[]) => money(xs.reduce((a, b) => a + b, 0));

/** The numbers behind a chart, for screen readers. */
function DataTable({ caption, head, rows }: { caption: string; head: [string, string]; rows: [string, string][] }) {
  return (
    <VisuallyHidden>
      <Table aria-label={caption}>
        <caption>{caption}</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{head[0]}</Table.Th>
            <Table.Th>{head[1]}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(([a, b]) => (
            <Table.Tr key={a}>
              <Table.Td>{a}</Table.Td>
              <Table.Td>{b}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </VisuallyHidden>
  );
}

export function Charts({ daily, monthly }: Pick<Tracker, 'daily' | 'monthly'>) {
  const days = daily.filter((d) => d.commission !== 0).length;
  const dailySummary = `Commission per day this month: ${total(daily.map((d) => d.commission))} over ${days} ${days === 1 ? 'day' : 'days'} with sales.`;
  const monthlySummary = `Front gross per month this year: ${total(monthly.map((m) => m.gross))} in total.`;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4">
          Commission per day
        </Title>
        <Text size="sm" c="dimmed" mb="sm" data-testid="daily-summary">
          {dailySummary}
        </Text>
        <div role="img" aria-label={dailySummary}>
          <AfterDraw h={280}>
            <Plot daily={daily} />
          </AfterDraw>
        </div>
        <DataTable caption="Commission per day this month" head={['Day', 'Commission']} rows={daily.map((d) => [d.day, money(d.commission)])} />
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4">
          Front gross per month
        </Title>
        <Text size="sm" c="dimmed" mb="sm" data-testid="monthly-summary">
          {monthlySummary}
        </Text>
        <div role="img" aria-label={monthlySummary}>
          <AfterDraw h={280}>
            <Plot monthly={monthly} />
          </AfterDraw>
        </div>
        <DataTable caption="Front gross per month this year" head={['Month', 'Front gross']} rows={monthly.map((m) => [m.month, money(m.gross)])} />
      </Paper>
    </SimpleGrid>
  );
}
