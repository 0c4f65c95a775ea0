import { useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Badge, Button, Group, MultiSelect, Paper, SimpleGrid, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { call } from '../api/client';
import { LoadError } from '../components/LoadError';
import { useCompact } from '../components/useCompact';
import { formatCents } from '../../domain/commission';
import { formatDay } from '../../domain/format';
import { formatSeconds } from '../../domain/speed';
import { countText, funnelRange, shareText } from '../../domain/funnel';
import { dayKey, isValidDayKey } from '../../domain/time';
import { GROUP_TOTAL } from '../../domain/group-report';
import type { Store } from '../../domain/stores';
import type { GroupReport as Report } from '../../domain/contract/answers';

type StoreRow = Report['stores'][number];
type Total = Report['total'];
type Part = keyof Total;

/** A figure of one part of a store's row (or the group's total), as the table and the cards show it. */
type Col<P extends Part> = { key: string; label: string; value: (x: Total[P]) => string | number };

const pct = (v: number | null) => (v === null ? '—' : `${v}%`);

const KPI: Col<'kpis'>[] = [
  { key: 'received', label: 'Received', value: (k) => k.received },
  { key: 'closed', label: 'Closed', value: (k) => k.closed },
  { key: 'closePct', label: 'Close %', value: (k) => pct(k.closePct) },
  { key: 'skips', label: 'Skips', value: (k) => k.skips },
  { key: 'beBacks', label: 'Be-backs', value: (k) => k.beBacks },
];
const FLOOR: Col<'floor'>[] = [
  { key: 'ups', label: 'Ups', value: (f) => f.ups },
  { key: 'beBacks', label: 'Be-backs', value: (f) => f.beBacks },
  { key: 'skips', label: 'Skips', value: (f) => f.skips },
  { key: 'handoffs', label: 'Hand-offs', value: (f) => f.handoffs },
  { key: 'closed', label: 'Closed', value: (f) => f.closed },
];
const SALES: Col<'sales'>[] = [
  { key: 'units', label: 'Units', value: (s) => s.units },
  { key: 'gross', label: 'Front gross', value: (s) => formatCents(s.grossCents) },
  { key: 'commission', label: 'Commission', value: (s) => formatCents(s.commissionCents) },
];

/** A step's % of the leads received, and how many (as Stats → Funnel shows it). */
const step = (p: number, n: number) => `${shareText(p, n)} (${countText(n)})`;
const FUNNEL: Col<'funnel'>[] = [
  { key: 'leads', label: 'Leads', value: (f) => countText(f.leads) },
  { key: 'contacted', label: 'Contacted %', value: (f) => step(f.contactedPct, f.contacted) },
  { key: 'appointment', label: 'Appointment set %', value: (f) => step(f.appointmentPct, f.appointment) },
  { key: 'shown', label: 'Shown %', value: (f) => step(f.shownPct, f.shown) },
  { key: 'sold', label: 'Closing ratio', value: (f) => step(f.soldPct, f.sold) },
  { key: 'firstContact', label: 'Median first contact', value: (f) => formatSeconds(f.medianFirstContactSeconds) },
];

/** The funnel's days asked for (none: this month so far, each store on its own clock). */
type Period = { from?: string; to?: string };

/** The chosen stores' report (none chosen: every store), kept live by the group screen's stream (its key starts with 'group'). */
const useReport = (codes: string[], period: Period) =>
  useQuery({
    queryKey: ['group', 'report', codes, period],
    queryFn: () => call('GET /group/report', { query: { stores: codes.length ? codes.join(',') : undefined, ...period } }),
    // A new filter keeps the figures on screen until its own arrive.
    placeholderData: keepPreviousData,
  });

/** The group total's row and card stand apart from the stores'. */
const TOTAL_BG = 'var(--mantine-color-default-hover)';

const listStyle = { listStyle: 'none', padding: 0, margin: 0 };

/** One part of the report: a row per store and the group's total in bold; cards on a phone. */
function ReportPart<P extends Part>({
  part,
  title,
  hint,
  cols,
  report,
  note,
  children,
}: {
  part: P;
  title: string;
  hint: string;
  cols: Col<P>[];
  report: Report;
  note?: (r: StoreRow) => string;
  /** Controls of this part, between its hint and its figures. */
  children?: ReactNode;
}) {
  const compact = useCompact();
  const id = `group-report-${part}`;
  const label = (r: StoreRow) => (
    <>
      <Text span fw={compact ? 600 : 500} style={{ overflowWrap: 'anywhere' }}>
        {r.store.name}
      </Text>{' '}
      <Badge variant="light" size="sm">
        {r.store.code}
      </Badge>
      {note && (
        <Text size="xs" c="dimmed">
          {note(r)}
        </Text>
      )}
    </>
  );
  const rows: { key: string; name: ReactNode; figures: Total[P]; total: boolean }[] = [
    ...report.stores.map((r) => ({ key: r.store.code, name: label(r), figures: r[part], total: false })),
    { key: 'total', name: <Text fw={800}>{GROUP_TOTAL}</Text>, figures: report.total[part], total: true },
  ];
  const testId = (r: { key: string; total: boolean }) => ({ 'data-testid': r.total ? `${id}-total` : `${id}-row`, 'data-store': r.total ? undefined : r.key });
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h5" id={id}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {hint}
      </Text>
      {children}
      {compact ? (
        <Stack gap="xs" component="ul" aria-labelledby={id} style={listStyle}>
          {rows.map((r) => (
            <Paper key={r.key} component="li" withBorder p="sm" radius="md" bg={r.total ? TOTAL_BG : undefined} {...testId(r)}>
              {r.name}
              <SimpleGrid cols={cols.length > 3 ? 3 : cols.length} spacing="xs" mt={6}>
                {cols.map((c) => (
                  <div key={c.key}>
                    <Text size="xs" c="dimmed">
                      {c.label}
                    </Text>
                    <Text fw={r.total ? 800 : 600} data-testid={`${id}-${c.key}`} style={{ overflowWrap: 'anywhere' }}>
                      {c.value(r.figures)}
                    </Text>
                  </div>
                ))}
              </SimpleGrid>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-labelledby={id}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Store</Table.Th>
                {cols.map((c) => (
                  <Table.Th key={c.key} ta="right">
                    {c.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.key} fw={r.total ? 800 : undefined} bg={r.total ? TOTAL_BG : undefined} {...testId(r)}>
                  <Table.Td>{r.name}</Table.Td>
                  {cols.map((c) => (
                    <Table.Td key={c.key} ta="right" data-testid={`${id}-${c.key}`} style={{ whiteSpace: 'nowrap' }}>
                      {c.value(r.figures)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </section>
  );
}

/** Each salesman's month across the chosen stores, most commission first. */
function Salesmen({ report }: { report: Report }) {
  const compact = useCompact();
  const id = 'group-report-salesmen';
  if (!report.salesmen.length)
    return (
      <Text c="dimmed" size="sm">
        No sales this month in these stores.
      </Text>
    );
  const stores = (codes: string[]) => (
    <Group gap={4} wrap="wrap">
      {codes.map((c) => (
        <Badge key={c} variant="light" size="sm">
          {c}
        </Badge>
      ))}
    </Group>
  );
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="xs">
        Salesmen this month
      </Title>
      {compact ? (
        <Stack gap="xs" component="ul" aria-labelledby={id} style={listStyle}>
          {report.salesmen.map((s) => (
            <Paper key={s.id} component="li" withBorder p="sm" radius="md" data-testid="group-report-salesman">
              <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {s.name}
                </Text>
                {stores(s.stores)}
              </Group>
              <Text size="sm" mt={4}>
                {s.units} {s.units === 1 ? 'unit' : 'units'} · gross {formatCents(s.grossCents)} · <b>{formatCents(s.commissionCents)}</b>
              </Text>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-labelledby={id}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Salesman</Table.Th>
                <Table.Th>Stores</Table.Th>
                {SALES.map((c) => (
                  <Table.Th key={c.key} ta="right">
                    {c.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.salesmen.map((s) => (
                <Table.Tr key={s.id} data-testid="group-report-salesman">
                  <Table.Td>{s.name}</Table.Td>
                  <Table.Td>{stores(s.stores)}</Table.Td>
                  {SALES.map((c) => (
                    <Table.Td key={c.key} ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {c.value(s)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </section>
  );
}

/** The group report on the group screen: the lead KPIs, the floor, the sales board and the funnel of the chosen stores, and the group's total. */
export function GroupReport({ stores }: { stores: Store[] }) {
  const [codes, setCodes] = useState<string[]>([]);
  const [days, setDays] = useState({ from: '', to: '' });
  // Only a period is asked for (checked against this browser's today; the server holds each store to its own): its error shows under the dates.
  const checked =
    days.from || days.to
      ? funnelRange({ from: days.from || undefined, to: days.to || undefined }, dayKey(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone))
      : null;
  const datesOk = [days.from, days.to].every((d) => !d || isValidDayKey(d));
  const period: Period = datesOk && checked && !('error' in checked) ? { from: days.from || undefined, to: days.to || undefined } : {};
  const periodError = checked && 'error' in checked ? checked.error : datesOk ? undefined : 'Enter a real date (YYYY-MM-DD)';
  const q = useReport(codes, period);
  const asked = Object.fromEntries(Object.entries({ stores: codes.join(','), ...period }).filter(([, v]) => v)) as Record<string, string>;
  const csv = `/api/group/report.csv${Object.keys(asked).length ? `?${new URLSearchParams(asked)}` : ''}`;
  const r = q.data;
  return (
    <Paper component="section" withBorder p="md" radius="md" aria-labelledby="group-report-title">
      <Group justify="space-between" align="flex-end" gap="sm" mb="md">
        <div>
          <Title order={2} size="h4" id="group-report-title">
            Group report
          </Title>
          <Text size="sm" c="dimmed">
            Each store on its own clock; the group total is the sum of the stores shown.
          </Text>
        </div>
        <Button component="a" href={csv} download variant="light" leftSection={<IconDownload size={16} aria-hidden />}>
          CSV
        </Button>
      </Group>
      <MultiSelect
        label="Stores"
        placeholder={codes.length ? undefined : 'All stores'}
        data={stores.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))}
        value={codes}
        onChange={setCodes}
        clearable
        searchable
        hidePickedOptions
        nothingFoundMessage="No such store"
        comboboxProps={{ withinPortal: true }}
        data-testid="group-report-stores"
        mb="md"
        maw={560}
      />
      {q.isError ? (
        <LoadError what="the group report" error={q.error} onRetry={() => q.refetch()} />
      ) : !r ? (
        <Skeleton h={240} aria-hidden />
      ) : (
        <Stack gap="lg" style={{ opacity: q.isPlaceholderData ? 0.6 : 1 }} aria-busy={q.isPlaceholderData}>
          <ReportPart
            part="kpis"
            title="Lead KPIs"
            hint={`Leads of the last ${r.days} days; the close % of the total is from the summed counts.`}
            cols={KPI}
            report={r}
          />
          <ReportPart
            part="floor"
            title="Floor today"
            hint="The floor report of each store's own today."
            cols={FLOOR}
            report={r}
            note={(s) => formatDay(s.floor.day)}
          />
          <ReportPart part="sales" title="Sales board" hint="This month to date." cols={SALES} report={r} />
          <ReportPart
            part="funnel"
            title="Funnel"
            hint={`Leads received ${
              period.from || period.to ? 'in the period' : 'this month so far'
            }, each store on its own clock, and how far they went; the total's % are from the summed counts.`}
            cols={FUNNEL}
            report={r}
            note={(s) => `${formatDay(s.funnel.from)} – ${formatDay(s.funnel.to)}`}
          >
            <Group gap="sm" align="flex-start" wrap="wrap" mb="xs">
              {(['from', 'to'] as const).map((k) => (
                <TextInput
                  key={k}
                  type="date"
                  label={k === 'from' ? 'Funnel from' : 'Funnel to'}
                  value={days[k]}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    setDays((d) => ({ ...d, [k]: v }));
                  }}
                  w={170}
                  error={periodError && (k === 'from') === periodError.startsWith('From') ? periodError : undefined}
                />
              ))}
            </Group>
          </ReportPart>
          <Salesmen report={r} />
        </Stack>
      )}
    </Paper>
  );
}
