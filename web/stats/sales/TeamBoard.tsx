import { useDeferredValue, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconDeviceTv, IconDownload } from '@tabler/icons-react';
import { LoadError } from '../../components/LoadError';
import { useCompact } from '../../components/useCompact';
import { formatCents } from '../../../domain/commission';
import { formatDay } from '../../../domain/format';
import { TEAM_TOTAL, type BoardLine } from '../../../domain/board';
import { useStore, useStorePath } from '../../stores/store';
import { boardCsvUrl, pctText, sinceText, useSalesBoard, type SalesBoard } from './board';
import { Figures } from './Figures';
import { Charts } from './Charts';
import { TvLinksButton } from '../../tv/TvLinks';

type Row = SalesBoard['rows'][number];

/** A figure of a salesman's (or the team's) line, as the table and the cards show it. */
type Col = { key: string; label: string; value: (l: BoardLine) => string | number };

const period = (p: 'mtd' | 'ytd'): Col[] => [
  { key: `${p}-units`, label: 'Units', value: (l) => l[p].units },
  { key: `${p}-gross`, label: 'Front gross', value: (l) => formatCents(l[p].grossCents) },
  { key: `${p}-commission`, label: 'Commission', value: (l) => formatCents(l[p].commissionCents) },
  { key: `${p}-close`, label: 'Close %', value: (l) => pctText(l.closing[p].pct) },
];
const MTD = period('mtd');
const YTD = period('ytd');
const REST: Col[] = [
  { key: 'pace', label: 'Pace', value: (l) => l.pace },
  { key: 'since', label: 'Since last sale', value: (l) => sinceText(l.daysSinceLastSale) },
];
const COLS = [...MTD, ...YTD, ...REST];
/** A card's parts on a phone. */
const SECTIONS = [
  { title: 'This month', cols: MTD },
  { title: 'This year', cols: YTD },
  { title: '', cols: REST },
];

const TOTAL_BG = 'var(--mantine-color-default-hover)';
const listStyle = { listStyle: 'none', padding: 0, margin: 0 };
const ID = 'team-board-title';

/** A row per salesman and the team's total in bold; cards on a phone. A salesman's name opens his tracker. */
function BoardTable({ board, onPick }: { board: SalesBoard; onPick: (id: string) => void }) {
  const compact = useCompact();
  const name = (r: Row) => (
    <Anchor
      component="button"
      type="button"
      fw={600}
      ta="left"
      onClick={() => onPick(r.id)}
      style={{ overflowWrap: 'anywhere' }}
      aria-label={`${r.name}: open his tracker`}
    >
      {r.name}
    </Anchor>
  );
  const lines: { key: string; name: ReactNode; line: BoardLine; total: boolean }[] = [
    ...board.rows.map((r) => ({ key: r.id, name: name(r), line: r, total: false })),
    { key: 'total', name: <Text fw={800}>{TEAM_TOTAL}</Text>, line: board.team, total: true },
  ];
  const testId = (l: { key: string; total: boolean }) => ({ 'data-testid': l.total ? 'board-total' : 'board-row', 'data-user': l.total ? undefined : l.key });
  if (compact)
    return (
      <Stack gap="xs" component="ul" aria-labelledby={ID} style={listStyle}>
        {lines.map((l) => (
          <Paper key={l.key} component="li" withBorder p="sm" radius="md" bg={l.total ? TOTAL_BG : undefined} {...testId(l)}>
            {l.name}
            {SECTIONS.map(({ title, cols }) => (
              <div key={title}>
                {title && (
                  <Text size="xs" fw={700} tt="uppercase" c="dimmed" mt={6}>
                    {title}
                  </Text>
                )}
                <SimpleGrid cols={{ base: 2, xs: cols.length }} spacing={4} verticalSpacing={2} mt={title ? 0 : 6}>
                  {cols.map((c) => (
                    <div key={c.key}>
                      <Text size="xs" c="dimmed">
                        {c.label}
                      </Text>
                      <Text size="sm" fw={l.total ? 800 : 600} data-testid={`board-${c.key}`} style={{ overflowWrap: 'anywhere' }}>
                        {c.value(l.line)}
                      </Text>
                    </div>
                  ))}
                </SimpleGrid>
              </div>
            ))}
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table striped aria-labelledby={ID}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th rowSpan={2}>Salesman</Table.Th>
            <Table.Th colSpan={MTD.length} ta="center">
              Month to date
            </Table.Th>
            <Table.Th colSpan={YTD.length} ta="center">
              Year to date
            </Table.Th>
            <Table.Th rowSpan={2} ta="right">
              Pace
            </Table.Th>
            <Table.Th rowSpan={2} ta="right">
              Last sale
            </Table.Th>
          </Table.Tr>
          <Table.Tr>
            {[...MTD, ...YTD].map((c) => (
              <Table.Th key={c.key} ta="right">
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((l) => (
            <Table.Tr key={l.key} fw={l.total ? 800 : undefined} bg={l.total ? TOTAL_BG : undefined} {...testId(l)}>
              <Table.Td>{l.name}</Table.Td>
              {COLS.map((c) => (
                <Table.Td key={c.key} ta="right" data-testid={`board-${c.key}`} style={{ whiteSpace: 'nowrap' }}>
                  {c.value(l.line)}
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
 * A manager's Sales page opens on this: every salesman's month and year to date in the store,
 * the team's total, the team's figures and charts as a salesman's tracker shows his own, a CSV
 * and the showroom TV. Live: a sale anywhere in the store refreshes it.
 */
export function TeamBoard({ onPick }: { onPick: (id: string) => void }) {
  const { code } = useStore();
  const to = useStorePath();
  const q = useSalesBoard();
  const b = q.data;
  // The board comes first; the team's figures and charts under it are built after it, in slices
  // between which a phone still paints and answers taps (a deferred value).
  const below = useDeferredValue(b ?? null, null);
  if (q.isError) return <LoadError what="the team board" error={q.error} onRetry={() => q.refetch()} />;
  if (!b)
    return (
      <Stack aria-hidden>
        <Skeleton h={240} />
        <Skeleton h={280} />
      </Stack>
    );
  return (
    <Stack>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby={ID} data-testid="team-board">
        <Group justify="space-between" align="flex-start" mb="sm" gap="xs">
          <div>
            <Title order={2} size="h4" id={ID}>
              Team board
            </Title>
            <Text size="sm" c="dimmed">
              Through {formatDay(b.today)}. Close %: units over leads assigned in the period. Pace: units by month end at this month&apos;s rate.
            </Text>
          </div>
          <Group gap="xs">
            <Button component={Link} to={to('/tv/sales')} variant="light" leftSection={<IconDeviceTv size={16} aria-hidden />}>
              Showroom TV
            </Button>
            <TvLinksButton />
            <Button component="a" href={boardCsvUrl(code)} download variant="light" leftSection={<IconDownload size={16} aria-hidden />}>
              CSV
            </Button>
          </Group>
        </Group>
        {b.rows.length ? (
          <BoardTable board={b} onPick={onPick} />
        ) : (
          <Text c="dimmed" size="sm">
            No salesmen in this store yet.
          </Text>
        )}
      </Paper>
      {below && (
        <>
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="team-figures-title">
            <Title order={2} size="h4" id="team-figures-title" mb="sm">
              Team month and year to date
            </Title>
            <Figures f={below.figures} today={below.today} before={below.before} />
          </Paper>
          <Charts daily={below.daily} monthly={below.monthly} />
        </>
      )}
    </Stack>
  );
}
