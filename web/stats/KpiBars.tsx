import { BarChart } from '@mantine/charts';
import '../styles/charts';

export interface KpiBar {
  name: string;
  Received: number;
  Closed: number;
  Skips: number;
}

/** Received, closed and skips per associate, as horizontal bars: every name gets a line of its own. */
export default function KpiBars({ data, compact, h }: { data: KpiBar[]; compact: boolean; h: number }) {
  return (
    <BarChart
      h={h}
      data={data}
      dataKey="name"
      orientation="vertical"
      series={[
        { name: 'Received', color: 'blue.6' },
        { name: 'Closed', color: 'teal.6' },
        { name: 'Skips', color: 'orange.6' },
      ]}
      withLegend
      legendProps={{ verticalAlign: 'bottom', height: 40 }}
      xAxisLabel="Leads (last 30 days)"
      yAxisProps={{ width: compact ? 96 : 140, interval: 0 }}
      gridAxis="x"
      tickLine="x"
      accessibilityLayer={false}
    />
  );
}
