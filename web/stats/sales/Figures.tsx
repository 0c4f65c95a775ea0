import { SimpleGrid } from '@mantine/core';
import { StatCard as Card } from '../../components/StatCard';
import { formatCents } from '../../../domain/commission';
import type { SalesFigures } from '../../../domain/figures';

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
