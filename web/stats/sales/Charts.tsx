import { BarChart, LineChart } from '@mantine/charts';
import { Paper, SimpleGrid, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { formatCents } from '../../../domain/commission';
import type { Tracker } from './api';

const money = (dollars: number) => formatCents(Math.round(dollars * 100));
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
          <LineChart
            h={280}
            data={daily.map((d) => ({ ...d, label: String(Number(d.day.slice(8))) }))}
            dataKey="label"
            series={[{ name: 'commission', label: 'Commission', color: 'teal.6' }]}
            valueFormatter={money}
            curveType="linear"
            gridAxis="xy"
            withLegend
            legendProps={{ verticalAlign: 'bottom', height: 40 }}
            xAxisLabel="Day of the month"
            yAxisLabel="Commission"
            yAxisProps={{ width: 80 }}
            accessibilityLayer={false}
          />
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
          <BarChart
            h={280}
            data={monthly}
            dataKey="month"
            series={[{ name: 'gross', label: 'Front gross', color: 'blue.6' }]}
            valueFormatter={money}
            gridAxis="xy"
            withLegend
            legendProps={{ verticalAlign: 'bottom', height: 40 }}
            xAxisLabel="Month"
            yAxisLabel="Front gross"
            yAxisProps={{ width: 80 }}
            accessibilityLayer={false}
          />
        </div>
        <DataTable caption="Front gross per month this year" head={['Month', 'Front gross']} rows={monthly.map((m) => [m.month, money(m.gross)])} />
      </Paper>
    </SimpleGrid>
  );
}
