import { SimpleGrid } from '@mantine/core';
import { StatCard as Card } from '../../components/StatCard';
import { formatCents } from '../../../domain/commission';
import { samePeriodBefore } from '../../../domain/format';
import type { SalesFigures } from '../../../domain/figures';
import type { Sale } from './api';

/**
 * The month and year so far, each against the same stretch of last month and last year (from the
 * sales the tracker already holds, or, for the team board, `before` as the server summed it).
 */
export function Figures({
  f,
  sales = [],
  today,
  before = samePeriodBefore(sales, today),
}: {
  f: SalesFigures;
  sales?: Sale[];
  today: string;
  before?: ReturnType<typeof samePeriodBefore>;
}) {
  const { lastMonth, lastYear } = before;
  const m = (now: number, before: number) => ({ now, before, against: 'last month' });
  const y = (now: number, before: number) => ({ now, before, against: 'last year' });
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} aria-label="Figures" role="group">
      <Card label="MTD units" value={String(f.mtd.units)} testId="mtd-units" compare={m(f.mtd.units, lastMonth.units)} />
      <Card label="MTD front gross" value={formatCents(f.mtd.grossCents)} testId="mtd-gross" compare={m(f.mtd.grossCents, lastMonth.grossCents)} />
      <Card
        label="MTD commission"
        value={formatCents(f.mtd.commissionCents)}
        testId="mtd-commission"
        compare={m(f.mtd.commissionCents, lastMonth.commissionCents)}
      />
      <Card label="Month projection" value={formatCents(f.monthProjectionCents)} testId="month-projection" />
      <Card label="YTD units" value={String(f.ytd.units)} testId="ytd-units" compare={y(f.ytd.units, lastYear.units)} />
      <Card label="YTD front gross" value={formatCents(f.ytd.grossCents)} testId="ytd-gross" compare={y(f.ytd.grossCents, lastYear.grossCents)} />
      <Card
        label="YTD commission"
        value={formatCents(f.ytd.commissionCents)}
        testId="ytd-commission"
        compare={y(f.ytd.commissionCents, lastYear.commissionCents)}
      />
      <Card label="Year projection" value={formatCents(f.yearProjectionCents)} testId="year-projection" />
    </SimpleGrid>
  );
}
