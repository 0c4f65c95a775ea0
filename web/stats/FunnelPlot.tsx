import { Box, Group, Stack, Text } from '@mantine/core';
import { funnelBars, type FunnelStepValue } from '../../domain/funnel';

export type { FunnelStepValue };

const COLORS = ['blue', 'cyan', 'teal', 'green', 'lime'];

/**
 * The funnel drawn as centred bars, one per step, each as wide as its share of the leads received
 * (a step reached by a few still shows a sliver; one reached by none, only its track). Its name and
 * figure sit on a line of their own above the bar, so they never overlap or run out of the frame
 * however small the numbers or the screen.
 */
export default function FunnelPlot({ steps }: { steps: FunnelStepValue[] }) {
  return (
    <Stack gap={10} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="funnel-plot">
      {funnelBars(steps).map((b, i) => (
        <Box component="li" key={b.name} data-testid="funnel-step">
          <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
            <Text size="sm" fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              {b.name}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="funnel-step-figure">
              {b.figure}
            </Text>
          </Group>
          <Box style={{ height: 18, borderRadius: 4, background: 'var(--mantine-color-gray-light)', display: 'flex', justifyContent: 'center' }} aria-hidden>
            {b.widthPct > 0 && (
              <Box
                data-testid="funnel-bar"
                style={{
                  width: `${b.widthPct}%`,
                  minWidth: 6,
                  height: '100%',
                  borderRadius: 4,
                  background: `var(--mantine-color-${COLORS[i % COLORS.length]}-filled)`,
                }}
              />
            )}
          </Box>
        </Box>
      ))}
    </Stack>
  );
}
