import { FunnelChart } from '@mantine/charts';
import '../styles/charts';

export interface FunnelStepValue {
  name: string;
  value: number;
}

const COLORS = ['blue.6', 'cyan.6', 'teal.6', 'green.6', 'lime.7'];

/** The funnel drawn: leads received narrowing to sold (loaded on demand, see FunnelPage). */
export default function FunnelPlot({ steps, size }: { steps: FunnelStepValue[]; size: number }) {
  return (
    <FunnelChart
      data={steps.map((s, i) => ({ ...s, color: COLORS[i % COLORS.length] }))}
      size={size}
      withLabels
      labelsPosition="right"
      withTooltip={false}
      withLegend
      legendProps={{ verticalAlign: 'bottom' }}
      accessibilityLayer={false}
    />
  );
}
