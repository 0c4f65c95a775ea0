import { BarChart, LineChart } from '@mantine/charts';
import type { Tracker } from './api';
import { money } from './money';

/** What both drawings share: money on the y axis, a grid, the legend under the plot. */
const COMMON = {
  h: 280,
  valueFormatter: money,
  gridAxis: 'xy',
  withLegend: true,
  legendProps: { verticalAlign: 'bottom', height: 40 },
  yAxisProps: { width: 80 },
  accessibilityLayer: false,
} as const;

function DailyPlot({ daily }: Pick<Tracker, 'daily'>) {
  return (
    <LineChart
      {...COMMON}
      data={daily.map((d) => ({ ...d, label: String(Number(d.day.slice(8))) }))}
      dataKey="label"
      series={[{ name: 'commission', label: 'Commission', color: 'teal.6' }]}
      curveType="linear"
      xAxisLabel="Day of the month"
      yAxisLabel="Commission"
    />
  );
}

function MonthlyPlot({ monthly }: Pick<Tracker, 'monthly'>) {
  return (
    <BarChart
      {...COMMON}
      data={monthly}
      dataKey="month"
      series={[{ name: 'gross', label: 'Front gross', color: 'blue.6' }]}
      xAxisLabel="Month"
      yAxisLabel="Front gross"
    />
  );
}

/** One drawing: commission per day, or front gross per month (loaded on demand, see Charts.tsx). */
export default function Plot(props: Pick<Tracker, 'daily'> | Pick<Tracker, 'monthly'>) {
  return 'daily' in props ? <DailyPlot daily={props.daily} /> : <MonthlyPlot monthly={props.monthly} />;
}
