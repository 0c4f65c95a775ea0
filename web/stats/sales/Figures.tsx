import { Paper, SimpleGrid, Text } from '@mantine/core';
import { formatCents } from '../../../domain/commission';
import type { SalesFigures } from '../../../domain/figures';

function Card({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="lg" fw={700} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

export function Figures({ f }: { f: SalesFigures }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} aria-label="Figures" role="group">
      <Card label="MTD units" value={String(f.mtd.units)} testId="mtd-units" />
      <Card label="MTD front gross" value={formatCents(f.mtd.grossCents)} testId="mtd-gross" />
      <Card label="MTD commission" value={formatCents(f.mtd.commissionCents)} testId="mtd-commission" />
      <Card label="Month projection" value={formatCents(f.monthProjectionCents)} testId="month-projection" />
      <Card label="YTD units" value={String(f.ytd.units)} testId="ytd-units" />
      <Card label="YTD front gross" value={formatCents(f.ytd.grossCents)} testId="ytd-gross" />
      <Card label="YTD commission" value={formatCents(f.ytd.commissionCents)} testId="ytd-commission" />
      <Card label="Year projection" value={formatCents(f.yearProjectionCents)} testId="year-projection" />
    </SimpleGrid>
  );
}
