import { useMedia } from '../components/useCompact';
import { useState } from 'react';
import { Anchor, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { formatSeconds, type Spread } from '../../domain/speed';
import type { Speed } from '../../domain/contract/answers';
import { StatCard } from '../components/StatCard';
import { useStore } from '../stores/store';

const spreadText = (s: Spread) => (s.count ? `${formatSeconds(s.median)} · 90%: ${formatSeconds(s.p90)}` : '—');
type Row = Speed['today']['team'] & { id?: string; name: string };

/** Speed to lead per salesman and for the team: today or month to date (the dealership's time zone). */
export function SpeedFigures({ speed, canExport }: { speed: Speed; canExport: boolean }) {
  const [period, setPeriod] = useState<'today' | 'month'>('today');
  const { code } = useStore();
  const narrow = useMedia('(max-width: 40em)');
  const figures = speed[period];
  const rows: Row[] = [...figures.associates, { ...figures.team, name: 'Team' }];
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm" gap="sm">
        <Title order={2} size="h4">
          Speed to lead
        </Title>
        <Group gap="sm">
          <SegmentedControl
            aria-label="Period"
            size="xs"
            value={period}
            onChange={setPeriod}
            data={[
              { value: 'today', label: 'Today' },
              { value: 'month', label: 'Month to date' },
            ]}
          />
          {canExport && (
            <Anchor href={`/api/leads/export.csv?store=${encodeURIComponent(code)}`} download size="sm">
              Export leads CSV
            </Anchor>
          )}
        </Group>
      </Group>
      <Text size="xs" c="dimmed" mb="sm">
        Median and 90th percentile, from when the salesman got the lead.
      </Text>
      {narrow ? (
        <Stack gap="xs" role="list" aria-label="Speed to lead per salesman">
          {rows.map((r) => (
            <Paper key={r.id ?? 'team'} withBorder p="xs" radius="sm" role="listitem" data-testid="speed-row">
              <Text fw={r.id ? 500 : 700}>{r.name}</Text>
              <Text size="sm">Time to accept: {spreadText(r.accept)}</Text>
              <Text size="sm">Time to first contact: {spreadText(r.contact)}</Text>
              <Text size="sm">Handed on: {r.handoffs}</Text>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table striped aria-label="Speed to lead per salesman">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Salesman</Table.Th>
              <Table.Th>Time to accept</Table.Th>
              <Table.Th>Time to first contact</Table.Th>
              <Table.Th>Handed on</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id ?? 'team'} data-testid="speed-row">
                <Table.Td fw={r.id ? undefined : 700}>{r.name}</Table.Td>
                <Table.Td>{spreadText(r.accept)}</Table.Td>
                <Table.Td>{spreadText(r.contact)}</Table.Td>
                <Table.Td>{r.handoffs}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

/** A salesman's own speed this month, on his page. */
export function MySpeed({ speed, uid }: { speed: Speed; uid: string }) {
  const mine = speed.month.associates.find((a) => a.id === uid);
  if (!mine) return null;
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }}>
      <StatCard label="Time to accept (month)" value={formatSeconds(mine.accept.median)} testId="my-time-to-accept" />
      <StatCard label="Time to first contact (month)" value={formatSeconds(mine.contact.median)} testId="my-time-to-contact" />
      <StatCard label="Handed on (month)" value={mine.handoffs} testId="my-handed-on" />
    </SimpleGrid>
  );
}
