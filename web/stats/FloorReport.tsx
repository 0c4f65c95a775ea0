import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconMail, IconPrinter } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { call } from '../api/client';
import { useStore, useTimeZone } from '../stores/store';
import { LoadError } from '../components/LoadError';
import { notifyFail, notifyOk } from '../components/notify';
import { useCompact } from '../components/useCompact';
import { formatClock, formatDay } from '../../domain/format';
import { formatSeconds } from '../../domain/speed';
import { dayKey } from '../../domain/time';
import { reportDaySchemaOn } from '../../domain/schemas';
import type { FloorReportAnswer } from '../../domain/contract/answers';

type Row = FloorReportAnswer['report']['team'] & { id?: string; name: string };

const reasons = (r: Row) => r.skipReasons.map((s) => `${s.reason} (${s.count})`).join(', ');
/** The counts, in a phone card's short words. */
const COUNTS: [string, (r: Row) => number][] = [
  ['Ups', (r) => r.ups],
  ['Be-backs', (r) => r.beBacks],
  ['Skips', (r) => r.skips],
  ['Hand-offs', (r) => r.handoffs],
  ['Closed', (r) => r.closed],
  ['Appointments', (r) => r.appointments],
  ['Sold', (r) => r.sold],
];
const COLUMNS: [string, (r: Row) => string | number][] = [
  ['Ups', (r) => r.ups],
  ['Be-backs', (r) => r.beBacks],
  ['Skips', (r) => r.skips],
  ['Hand-offs', (r) => r.handoffs],
  ['Median to accept', (r) => formatSeconds(r.acceptMedian)],
  ['Median to first contact', (r) => formatSeconds(r.contactMedian)],
  ['Leads closed', (r) => r.closed],
  ['Appointments set', (r) => r.appointments],
  ['Sold', (r) => r.sold],
];

/**
 * The floor report of any day (a manager's): per salesman and for the team. Printable (only the
 * report is printed), as CSV, and mailed to every manager on demand.
 */
export function FloorReport() {
  const tz = useTimeZone();
  const { code: store } = useStore();
  const today = dayKey(new Date(), tz);
  const [params, setParams] = useSearchParams();
  const asked = params.get('day') ?? '';
  const pick = reportDaySchemaOn(today);
  const day = pick.safeParse({ day: asked }).success ? asked : today;
  const compact = useCompact();
  const q = useQuery({ queryKey: ['floor-report', store, day], queryFn: () => call('GET /floor/report', { query: { day }, store }) });
  const send = useMutation({
    mutationFn: () => call('POST /floor/report/send', { body: { day }, store }),
    onSuccess: (r) => notifyOk(`Floor report for ${formatDay(r.day)} sent to ${r.sent} manager${r.sent === 1 ? '' : 's'}.`),
    onError: (err) => notifyFail('Could not send the floor report', err),
  });
  const rows: Row[] = q.data ? [...q.data.report.associates, { ...q.data.report.team, name: 'Team' }] : [];

  return (
    <Paper component="section" withBorder p="md" radius="md" data-print="floor-report" aria-labelledby="floor-report-title">
      <Group justify="space-between" align="flex-end" gap="sm" mb="sm">
        <div>
          <Title order={2} size="h4" id="floor-report-title">
            Floor report · {formatDay(day)}
          </Title>
          {q.data?.closedAt && (
            <Text size="sm" c="dimmed">
              The floor closed at {formatClock(new Date(q.data.closedAt), tz)}; every manager got this report then.
            </Text>
          )}
        </div>
        <div data-print="hide">
          <TextInput
            type="date"
            label="Day"
            value={day}
            max={today}
            onChange={(e) => {
              const v = e.currentTarget.value;
              if (pick.safeParse({ day: v }).success) setParams((p) => (p.set('day', v), p), { replace: true });
            }}
            w={180}
          />
        </div>
      </Group>
      <Group gap="xs" mb="sm" data-print="hide">
        <Button variant="light" leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()}>
          Print
        </Button>
        <Button
          component="a"
          href={`/api/floor/report.csv?${new URLSearchParams({ day, store })}`}
          download={`floor-report-${day}.csv`}
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden />}
        >
          CSV
        </Button>
        <Button color="blue.8" leftSection={<IconMail size={16} aria-hidden />} loading={send.isPending} onClick={() => send.mutate()}>
          Send floor report
        </Button>
      </Group>
      {q.isError ? (
        <LoadError what="the floor report" error={q.error} onRetry={() => q.refetch()} />
      ) : q.isPending ? (
        <Skeleton h={160} aria-hidden />
      ) : compact ? (
        <Stack component="ul" gap="xs" aria-label="Floor report per salesman" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((r) => (
            <Paper component="li" key={r.id ?? 'team'} withBorder radius="md" p="sm" data-testid="floor-row">
              <Text fw={r.id ? 600 : 800} style={{ overflowWrap: 'anywhere' }}>
                {r.name}
              </Text>
              <SimpleGrid cols={{ base: 3, xs: 4 }} spacing={4} mt={4}>
                {COUNTS.map(([label, v]) => (
                  <div key={label}>
                    <Text size="xs" c="dimmed">
                      {label}
                    </Text>
                    <Text fw={600}>{v(r)}</Text>
                  </div>
                ))}
              </SimpleGrid>
              <Text size="sm" mt={4}>
                Median to accept {formatSeconds(r.acceptMedian)} · to first contact {formatSeconds(r.contactMedian)}
              </Text>
              {r.skipReasons.length > 0 && (
                <Text size="sm" c="dimmed" mt={4}>
                  Skip reasons: {reasons(r)}
                </Text>
              )}
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={880} tabIndex={0} role="region" aria-label="Floor report">
          <Table striped aria-label="Floor report per salesman">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Salesman</Table.Th>
                {COLUMNS.map(([label]) => (
                  <Table.Th key={label}>{label}</Table.Th>
                ))}
                <Table.Th>Skip reasons</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id ?? 'team'} data-testid="floor-row" fw={r.id ? undefined : 700}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{r.name}</Table.Td>
                  {COLUMNS.map(([label, v]) => (
                    <Table.Td key={label}>{v(r)}</Table.Td>
                  ))}
                  <Table.Td>{reasons(r) || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
