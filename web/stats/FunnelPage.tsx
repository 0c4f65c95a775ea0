import { useQuery } from '@tanstack/react-query';
import { Button, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { call } from '../api/client';
import { useStore, useTimeZone } from '../stores/store';
import { useSession } from '../session/SessionProvider';
import { LoadError } from '../components/LoadError';
import { PageTitle } from '../components/PageTitle';
import { useCompact } from '../components/useCompact';
import { formatSeconds } from '../../domain/speed';
import { dayKey, isValidDayKey } from '../../domain/time';
import { countText, funnelRange, shareText, type FunnelAnswer, type FunnelRow } from '../../domain/funnel';

import FunnelPlot from './FunnelPlot';

/** The columns: a heading, the figure, and the count under it. */
const COLUMNS: [string, (r: FunnelRow) => string, ((r: FunnelRow) => number) | null][] = [
  ['Leads', (r) => countText(r.leads), null],
  ['Contacted %', (r) => shareText(r.contactedPct, r.contacted), (r) => r.contacted],
  ['Appointment set %', (r) => shareText(r.appointmentPct, r.appointment), (r) => r.appointment],
  ['Shown %', (r) => shareText(r.shownPct, r.shown), (r) => r.shown],
  ['Closing ratio', (r) => shareText(r.soldPct, r.sold), (r) => r.sold],
  ['Median first contact', (r) => formatSeconds(r.medianFirstContactSeconds), null],
];

function Cell({ r, col }: { r: FunnelRow; col: (typeof COLUMNS)[number] }) {
  const [, main, count] = col;
  return (
    <>
      {main(r)}
      {count && (
        <Text span size="xs" c="dimmed" ml={6}>
          ({countText(count(r))})
        </Text>
      )}
    </>
  );
}

function FunnelTable({ f, compact }: { f: FunnelAnswer; compact: boolean }) {
  const who = f.by === 'salesman' ? 'Salesman' : 'Source';
  const rows = [...f.rows, f.total];
  const label = `Funnel per ${who.toLowerCase()}`;
  if (!f.rows.length) return <Text c="dimmed">No leads were received in this period.</Text>;
  if (compact)
    return (
      <Stack component="ul" gap="xs" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((r) => (
          <Paper component="li" key={r === f.total ? '\u0000total' : r.key} withBorder radius="md" p="sm" data-testid="funnel-row">
            <Text fw={r === f.total ? 800 : 600} style={{ overflowWrap: 'anywhere' }}>
              {r.name}
            </Text>
            <SimpleGrid cols={3} spacing={4} mt={4}>
              {COLUMNS.map((col) => (
                <div key={col[0]}>
                  <Text size="xs" c="dimmed">
                    {col[0]}
                  </Text>
                  <Text fw={600}>
                    <Cell r={r} col={col} />
                  </Text>
                </div>
              ))}
            </SimpleGrid>
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Table.ScrollContainer minWidth={720} tabIndex={0} role="region" aria-label={label}>
      <Table striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{who}</Table.Th>
            {COLUMNS.map(([h]) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r === f.total ? '\u0000total' : r.key} data-testid="funnel-row" fw={r === f.total ? 700 : undefined}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.name}</Table.Td>
              {COLUMNS.map((col) => (
                <Table.Td key={col[0]}>
                  <Cell r={r} col={col} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Stats → Funnel: of the leads received in a period (this month by default), how many were
 * contacted, set an appointment, showed and bought, per salesman or per source; the median time
 * to the first contact; the total as a funnel; CSV. A salesman sees his own leads.
 */
export default function FunnelPage() {
  const tz = useTimeZone();
  const { code: store } = useStore();
  const { isManager } = useSession();
  const compact = useCompact();
  const today = dayKey(new Date(), tz);
  const [params, setParams] = useSearchParams();
  const by: FunnelAnswer['by'] = params.get('by') === 'source' ? 'source' : 'salesman';
  const asked = { from: params.get('from') ?? undefined, to: params.get('to') ?? undefined };
  const valid = (v: string | undefined) => (v && isValidDayKey(v) ? v : undefined);
  const range = funnelRange({ from: valid(asked.from), to: valid(asked.to) }, today);
  const ok = 'from' in range;
  const query = ok ? { from: range.from, to: range.to, by } : null;
  const q = useQuery({
    queryKey: ['kpis', store, 'funnel', query],
    queryFn: () => call('GET /leads/funnel', { query: query ?? {}, store }),
    enabled: ok,
  });
  const set = (key: string, v: string) => setParams((p) => (p.set(key, v), p), { replace: true });
  const f = q.data;
  const steps = f
    ? [
        { name: 'Leads', value: f.total.leads },
        { name: 'Contacted', value: f.total.contacted },
        { name: 'Appointment set', value: f.total.appointment },
        { name: 'Shown', value: f.total.shown },
        { name: 'Sold', value: f.total.sold },
      ]
    : [];
  const summary = f ? `${steps.map((s) => `${s.name} ${countText(s.value)}`).join('; ')}. Closing ratio ${shareText(f.total.soldPct, f.total.sold)}.` : '';

  return (
    <Stack>
      <PageTitle>Funnel</PageTitle>
      <Text c="dimmed">Leads received in the period, and how far they went. {isManager ? 'Every salesman.' : 'Your own leads.'}</Text>
      <Paper withBorder p="md" radius="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            type="date"
            label="From"
            value={ok ? range.from : (asked.from ?? '')}
            onChange={(e) => set('from', e.currentTarget.value)}
            w={170}
            error={!ok && range.error.startsWith('From') ? range.error : undefined}
          />
          <TextInput
            type="date"
            label="To"
            value={ok ? range.to : (asked.to ?? '')}
            onChange={(e) => set('to', e.currentTarget.value)}
            w={170}
            error={!ok && !range.error.startsWith('From') ? range.error : undefined}
          />
          <SegmentedControl
            aria-label="Group by"
            value={by}
            onChange={(v) => set('by', v)}
            data={[
              { value: 'salesman', label: 'By salesman' },
              { value: 'source', label: 'By source' },
            ]}
          />
          {query && (
            <Button
              component="a"
              href={`/api/leads/funnel.csv?${new URLSearchParams({ ...query, store })}`}
              download={`funnel-${by}-${query.from}-${query.to}.csv`}
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              CSV
            </Button>
          )}
        </Group>
      </Paper>
      {!ok ? null : q.isError ? (
        <LoadError what="the funnel" error={q.error} onRetry={() => q.refetch()} />
      ) : !f ? (
        <Skeleton h={240} aria-hidden />
      ) : (
        <>
          <Paper withBorder p="md" radius="md">
            <FunnelTable f={f} compact={compact} />
          </Paper>
          {f.total.leads > 0 && (
            <Paper withBorder p="md" radius="md">
              <Title order={2} size="h4">
                The funnel
              </Title>
              <Text size="sm" c="dimmed" mb="sm" data-testid="funnel-summary">
                {summary}
              </Text>
              <FunnelPlot steps={steps} />
            </Paper>
          )}
        </>
      )}
    </Stack>
  );
}
