import { BarChart, LineChart } from '@mantine/charts';
import type { Tracker } from './api';
import { money } from './money';

export function DailyPlot({ daily }: Pick<Tracker, 'daily'>) {
  return (
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
  );
}

export function MonthlyPlot({ monthly }: Pick<Tracker, 'monthly'>) {
  return (
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
  );
}
