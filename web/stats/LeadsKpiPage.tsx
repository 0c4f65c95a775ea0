import { lazy } from 'react';
import { Badge, Box, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { LoadError } from '../components/LoadError';
import { useCompact } from '../components/useCompact';
import { PageTitle } from '../components/PageTitle';
import { useKpis } from '../api/leads';
import { useSession } from '../session/SessionProvider';
import type { AssociateKpi } from '../../domain/contract/answers';
import { SpeedFigures } from './SpeedFigures';
import { FloorReport } from './FloorReport';
import { formatMs } from '../../domain/kpis';
import { AfterDraw } from '../components/AfterDraw';

// The chart library is large: the figures and the table show first, the bars once the screen has drawn.
const KpiBars = lazy(() => import('./KpiBars'));

/** A row of the table: an associate, or the team's average (no id). */
type Kpi = Omit<AssociateKpi, 'id'> & { id?: string };

const pct = (v: number | null) => (v === null ? '—' : `${v}%`);

export default function LeadsKpiPage() {
  const { isManager } = useSession();
  const q = useKpis();
  const rows: Kpi[] = q.data ? [...q.data.associates, { ...q.data.average, name: 'Team average' }] : [];
  const compact = useCompact();
  const chart = rows.map((r) => ({ name: r.name, Received: r.received, Closed: r.closed, Skips: r.skips }));
  // A line of its own for every associate's bars, however many there are.
  const chartH = Math.max(220, chart.length * 56 + 90);

  return (
    <Stack>
      <PageTitle>Lead Stats</PageTitle>
      <Text c="dimmed" data-print="hide">
        Last {q.data?.days ?? 30} days. {isManager ? 'Every associate.' : 'You beside the team average.'}
      </Text>
      {q.isError ? (
        <LoadError what="the lead stats" error={q.error} onRetry={() => q.refetch()} />
      ) : q.isPending ? (
        <Stack aria-hidden>
          <Skeleton h={200} />
          <Skeleton h={260} />
        </Stack>
      ) : (
        <Stack data-print="hide">
          {q.data && <SpeedFigures speed={q.data.speed} canExport={isManager} />}
          {q.data && (
            <Paper withBorder p="md" radius="md" aria-label="Assign to first notice delivered" component="section">
              <Title order={2} size="h4" mb={4}>
                Assign to first notice delivered
              </Title>
              <Text data-testid="first-notice">
                {q.data.firstNotice.count
                  ? `Median ${formatMs(q.data.firstNotice.medianMs)} · 90%: ${formatMs(q.data.firstNotice.p90Ms)} · ${q.data.firstNotice.count} leads`
                  : 'No push or text has reached a salesman about a new lead yet.'}
              </Text>
              <Text size="xs" c="dimmed">
                From the assign to the first push the push service took, or text the carrier delivered, last {q.data.days} days.
              </Text>
            </Paper>
          )}
          <Paper withBorder p="md" radius="md">
            {compact ? (
              <Stack component="ul" gap="xs" aria-label="Leads per associate" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {rows.map((r) => (
                  <Paper component="li" key={r.id ?? 'average'} withBorder radius="md" p="sm" data-testid="kpi-row">
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Text fw={r.id ? 600 : 800} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                        {r.name}
                      </Text>
                      <Badge variant="light" color="teal" style={{ flexShrink: 0 }}>
                        Close {pct(r.closePct)}
                      </Badge>
                    </Group>
                    <SimpleGrid cols={3} spacing="xs" mt={6}>
                      {(
                        [
                          ['Received', r.received],
                          ['Sold', r.closed],
                          ['Skips', r.skips],
                        ] as const
                      ).map(([label, v]) => (
                        <div key={label}>
                          <Text size="xs" c="dimmed">
                            {label}
                          </Text>
                          <Text fw={600}>{v}</Text>
                        </div>
                      ))}
                    </SimpleGrid>
                  </Paper>
                ))}
              </Stack>
            ) : (
              <Table.ScrollContainer minWidth={480} tabIndex={0} role="region" aria-label="Leads per associate">
                <Table striped aria-label="Leads per associate">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Associate</Table.Th>
                      <Table.Th>Leads received</Table.Th>
                      <Table.Th>Sold</Table.Th>
                      <Table.Th>Close %</Table.Th>
                      <Table.Th>Skips</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((r) => (
                      <Table.Tr key={r.id ?? 'average'} data-testid="kpi-row">
                        <Table.Td fw={r.id ? undefined : 700}>{r.name}</Table.Td>
                        <Table.Td>{r.received}</Table.Td>
                        <Table.Td>{r.closed}</Table.Td>
                        <Table.Td>{pct(r.closePct)}</Table.Td>
                        <Table.Td>{r.skips}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Text size="xs" c="dimmed" mt="xs">
              Sold: leads received that were sold. Close %: sold of those received, as Stats → Funnel&apos;s closing ratio and the team board&apos;s Close %
              count it.
            </Text>
          </Paper>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Paper withBorder p="md" radius="md">
              <Title order={2} size="h4" mb="sm">
                Received and closed
              </Title>
              <div aria-hidden>
                <AfterDraw h={chartH}>
                  <KpiBars data={chart} compact={compact} h={chartH} />
                </AfterDraw>
              </div>
              <VisuallyHidden>The table above holds the same numbers.</VisuallyHidden>
            </Paper>
            <Paper withBorder p="md" radius="md">
              <Title order={2} size="h4" mb="sm">
                Skips by reason
              </Title>
              {!q.data?.skipReasons.length ? (
                <Text c="dimmed">No skips.</Text>
              ) : (
                <Table aria-label="Skips by reason">
                  <Table.Tbody>
                    {q.data.skipReasons.map((s) => (
                      <Table.Tr key={s.reason}>
                        <Table.Td>{s.reason}</Table.Td>
                        <Table.Td>{s.count}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Paper>
          </SimpleGrid>
        </Stack>
      )}
      {/* Asked for at once, shown under the figures once they are in: drawn before, it would be pushed down as they came. */}
      {isManager && (
        <Box display={q.isPending ? 'none' : undefined}>
          <FloorReport />
        </Box>
      )}
    </Stack>
  );
}
