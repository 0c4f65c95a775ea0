import { Badge, Group, Paper, Skeleton, Table, Text, Title } from '@mantine/core';
import { formatDay } from '../../../domain/format';
import { tierWords, type PayPlan } from '../../../domain/payplan';
import { usePayPlans } from '../../api/payplans';

/** A plan's tiers as a small two-column table: the front gross and what it pays; then the split. */
export function PlanTiers({ plan, label }: { plan: PayPlan; label: string }) {
  return (
    <>
      <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing="xs" aria-label={label} maw={420}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Front gross</Table.Th>
            <Table.Th ta="right">Pays</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {plan.tiers.map((_, i) => {
            const w = tierWords(plan, i);
            return (
              <Table.Tr key={i}>
                <Table.Td>{w.range}</Table.Td>
                <Table.Td ta="right">{w.pays}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt={4}>
        A percent is of the front gross; $0 or less pays nothing. A split deal pays {plan.splitPercent}% of that.
      </Text>
    </>
  );
}

/** The salesman's pay plan on his Sales page: the one paying today's sales, and the next one if a manager has set it. */
export function PlanCard() {
  const q = usePayPlans();
  if (q.isError) return null;
  const d = q.data;
  const next = d?.plans.filter((p) => p.state === 'upcoming').at(-1);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="pay-plan-title" data-testid="pay-plan" className="laid-out-near">
      <Group justify="space-between" gap="xs" mb="xs">
        <Title order={2} size="h4" id="pay-plan-title">
          Your pay plan
        </Title>
        {d && (
          <Text size="sm" c="dimmed">
            {d.current.effectiveFrom ? `Since ${formatDay(d.current.effectiveFrom)}` : 'The dealership’s standard plan'}
          </Text>
        )}
      </Group>
      {!d ? <Skeleton h={120} /> : <PlanTiers plan={d.current.plan} label="Your pay plan" />}
      {next && (
        <Group gap="xs" mt="sm" data-testid="next-plan">
          <Badge variant="light" color="grape">
            New plan
          </Badge>
          <Text size="sm">From {formatDay(next.effectiveFrom)}: sales dated that day or later are paid by it.</Text>
        </Group>
      )}
    </Paper>
  );
}
